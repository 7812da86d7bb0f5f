/**
 * A Starknet chain (`"protocol": "starknet"`) beside an EVM chain, against the project's devnet
 * served on 127.0.0.1 and a real anvil: starknet.js's RpcProvider and Account unchanged through
 * the gateway, picked by path prefix and by Host; every call charged at the Starknet cost table;
 * methods of the other protocol -32601 and free; Starknet reads merged and cached (latest until
 * the next head, by hash for good, pre_confirmed never); a key's contract allowlist applied to
 * starknet_call, starknet_estimateFee, simulations, invoke targets and events.
 */
import { type DevnetServer, ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS } from '@l2wallet/devnet';
import { type AnvilService, startAnvil, startDevnet } from '@l2wallet/testkit';
import { Account, CallData, RpcProvider, uint256 } from 'starknet';
import WebSocket from 'ws';
import { STARKNET_COSTS } from '../src/credits/costs';
import type { RunningGateway } from '../src/server';
import { addKey, call, gatewayConfig, post, startWithKey, usageOf } from './helpers';

let anvil: AnvilService;
let devnet: DevnetServer & { stop(): Promise<void> };
let gw: RunningGateway;
let key: string;

beforeAll(async () => {
  anvil = await startAnvil();
  devnet = await startDevnet<DevnetServer>();
  ({ gw, key } = await startWithKey(
    gatewayConfig(anvil.url, {
      chains: [
        { name: 'local', hosts: ['127.0.0.1'], upstreams: [anvil.url] },
        {
          name: 'starknet-sepolia',
          protocol: 'starknet',
          hosts: ['localhost'],
          upstreams: [devnet.rpcUrl],
        },
      ],
    }),
  ));
});

afterAll(async () => {
  await gw?.close();
  await devnet?.stop();
  await anvil?.stop();
});

const prefixUrl = () => `${gw.url}/starknet-sepolia/v3/${key}`;

/** A fetch for starknet.js that records the method of every call it sends. */
function countingFetch(sent: string[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[];
    for (const c of Array.isArray(body) ? body : [body]) sent.push(c.method);
    return fetch(input, init);
  }) as typeof fetch;
}

/** Credits the calls should have cost, by method, at the Starknet cost table. */
function costOf(sent: string[]): Record<string, number> {
  const costs: Record<string, number> = {};
  for (const method of sent) {
    costs[method] = (costs[method] ?? 0) + STARKNET_COSTS[method as keyof typeof STARKNET_COSTS];
  }
  return costs;
}

const rpcCalls = (method: string) => devnet.metrics.rpcCalls[method] ?? 0;

describe('starknet.js through the gateway', () => {
  it('RpcProvider and Account work by path prefix, and each call is charged per method', async () => {
    const before = await usageOf(gw, key);
    const sent: string[] = [];
    const provider = new RpcProvider({ nodeUrl: prefixUrl(), baseFetch: countingFetch(sent) });
    const direct = new RpcProvider({ nodeUrl: devnet.rpcUrl });

    expect(await provider.getChainId()).toBe(await direct.getChainId());
    expect(await provider.getSpecVersion()).toBe(await direct.getSpecVersion());
    expect(await provider.getBlockNumber()).toBe(await direct.getBlockNumber());
    expect(await provider.getBlockWithTxHashes('latest')).toEqual(
      await direct.getBlockWithTxHashes('latest'),
    );
    const [funder, recipient] = devnet.predeployedAccounts;
    expect(await provider.getNonceForAddress(funder.address)).toBe(
      await direct.getNonceForAddress(funder.address),
    );
    expect(await provider.getClassHashAt(funder.address)).toBe(
      await direct.getClassHashAt(funder.address),
    );
    const balanceOf = (p: RpcProvider) =>
      p.callContract({
        contractAddress: STRK_TOKEN_ADDRESS,
        entrypoint: 'balance_of',
        calldata: [recipient.address],
      });
    const balanceBefore = await balanceOf(provider);
    expect(balanceBefore).toEqual(await balanceOf(direct));

    // A write: an invoke signed by starknet.js's Account, sent through the gateway.
    const account = new Account({ provider, address: funder.address, signer: funder.private_key });
    const amount = 10n ** 15n;
    const { transaction_hash } = await account.execute({
      contractAddress: STRK_TOKEN_ADDRESS,
      entrypoint: 'transfer',
      calldata: CallData.compile({
        recipient: recipient.address,
        amount: uint256.bnToUint256(amount),
      }),
    });
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
    expect(receipt.isSuccess()).toBe(true);
    // The cached `latest` balance did not outlive the write.
    const balanceAfter = await balanceOf(provider);
    expect(balanceAfter).toEqual(await balanceOf(direct));
    expect(uint256.uint256ToBN({ low: balanceAfter[0], high: balanceAfter[1] })).toBe(
      uint256.uint256ToBN({ low: balanceBefore[0], high: balanceBefore[1] }) + amount,
    );

    expect(sent).toContain('starknet_addInvokeTransaction');
    expect(sent).toContain('starknet_estimateFee');
    const after = await usageOf(gw, key);
    const expected = costOf(sent);
    for (const [method, credits] of Object.entries(expected)) {
      expect({ method, credits: after.methods[method] - (before.methods[method] ?? 0) }).toEqual({
        method,
        credits,
      });
    }
    expect(after.total - before.total).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
    expect(after.methods.starknet_addInvokeTransaction).toBeGreaterThanOrEqual(700);
  });

  it('routes by Host: localhost is the Starknet chain, 127.0.0.1 the EVM one, same key', async () => {
    const sent: string[] = [];
    const provider = new RpcProvider({
      nodeUrl: `http://localhost:${gw.port}/v3/${key}`,
      baseFetch: countingFetch(sent),
    });
    expect(await provider.getChainId()).toBe('0x534e5f5345504f4c4941'); // SN_SEPOLIA
    expect(await provider.getBlockNumber()).toBe(
      await new RpcProvider({ nodeUrl: devnet.rpcUrl }).getBlockNumber(),
    );
    const evm = await post(`${gw.url}/v3/${key}`, call('eth_chainId'));
    expect(evm.json.result).toBe('0x7a69');
    const evmByName = await post(`${gw.url}/local/v3/${key}`, call('eth_chainId'));
    expect(evmByName.json.result).toBe('0x7a69');
  });

  it('serves the Starknet chain over WebSocket by path prefix', async () => {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/starknet-sepolia/ws/v3/${key}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = await new Promise<{ id: number; result: number }>((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(data.toString())));
      ws.send(JSON.stringify(call('starknet_blockNumber', [], 7)));
    });
    ws.close();
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: await new RpcProvider({ nodeUrl: devnet.rpcUrl }).getBlockNumber(),
    });
  });
});

describe('one protocol per chain', () => {
  it('an EVM method on the Starknet chain, and the reverse, is -32601 and free', async () => {
    const before = (await usageOf(gw, key)).total;
    const onStarknet = await post(prefixUrl(), call('eth_blockNumber'));
    expect(onStarknet.json.error.code).toBe(-32601);
    const onEvm = await post(`${gw.url}/local/v3/${key}`, call('starknet_blockNumber'));
    expect(onEvm.json.error.code).toBe(-32601);
    const unknown = await post(`${gw.url}/nowhere/v3/${key}`, call('eth_blockNumber'));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe(-32004);
    // Bad Starknet params are named, and free too.
    const bad = await post(prefixUrl(), call('starknet_getNonce', { block_id: 'latest' } as never));
    expect(bad.json.error).toEqual({
      code: -32602,
      message: 'invalid params: missing param contract_address',
    });
    expect((await usageOf(gw, key)).total).toBe(before);
  });
});

describe('Starknet reads merged and cached', () => {
  const nonce = (blockId: unknown, id = 1) =>
    call(
      'starknet_getNonce',
      { block_id: blockId, contract_address: devnet.predeployedAccounts[2].address } as never,
      id,
    );

  it('identical latest reads share one upstream call until the next head, each charged', async () => {
    const before = await usageOf(gw, key);
    const upstreamBefore = rpcCalls('starknet_getNonce');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(prefixUrl(), nonce('latest', i))),
    );
    answers.forEach((a, i) => expect(a.json).toEqual({ jsonrpc: '2.0', id: i, result: '0x0' }));
    expect(rpcCalls('starknet_getNonce') - upstreamBefore).toBe(1);
    const after = await usageOf(gw, key);
    expect(after.methods.starknet_getNonce - (before.methods.starknet_getNonce ?? 0)).toBe(20 * 80);
  });

  it('pre_confirmed is never kept; a transaction by hash is', async () => {
    const upstreamBefore = rpcCalls('starknet_getNonce');
    await post(prefixUrl(), nonce('pre_confirmed', 1));
    await post(prefixUrl(), nonce('pre_confirmed', 2));
    expect(rpcCalls('starknet_getNonce') - upstreamBefore).toBe(2);

    const block = await post(prefixUrl(), call('starknet_getBlockWithTxHashes', ['latest']));
    const hash = block.json.result.transactions[0] as string;
    expect(hash).toMatch(/^0x/);
    const byHash = (id: number) =>
      call('starknet_getTransactionByHash', { transaction_hash: hash } as never, id);
    const txBefore = rpcCalls('starknet_getTransactionByHash');
    const first = await post(prefixUrl(), byHash(1));
    const second = await post(prefixUrl(), byHash(2));
    expect(second.json).toEqual({ ...first.json, id: 2 });
    expect(first.json.result.transaction_hash).toBe(hash);
    expect(rpcCalls('starknet_getTransactionByHash') - txBefore).toBe(1);
  });
});

describe('a key restricted to one contract (--allow-contract) on the Starknet chain', () => {
  it('serves calls, fee estimates and invokes to it, and refuses every other target with 403, uncharged', async () => {
    // Listed without its leading zeros: felts compare by value.
    const listed = '0x' + BigInt(STRK_TOKEN_ADDRESS).toString(16);
    const restricted = await addKey(gw, { plan: 'team', allow: { contracts: [listed] } });
    const url = `${gw.url}/starknet-sepolia/v3/${restricted}`;
    const provider = new RpcProvider({ nodeUrl: url });
    const [funder, recipient] = devnet.predeployedAccounts;
    const account = new Account({ provider, address: funder.address, signer: funder.private_key });
    const balanceOf = (contractAddress: string) =>
      provider.callContract({
        contractAddress,
        entrypoint: 'balance_of',
        calldata: [recipient.address],
      });
    const transfer = (contractAddress: string) => ({
      contractAddress,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: recipient.address, amount: uint256.bnToUint256(1n) }),
    });
    const refused = async (promise: Promise<unknown>) => {
      const error = (await promise.then(
        () => undefined,
        (e: unknown) => e,
      )) as Error | undefined;
      expect(error).toBeDefined();
      expect(String(error?.message)).toMatch(/rejected due to project ID settings|403/);
    };

    // The listed contract: calls, estimates and an invoke all pass.
    expect(await balanceOf(STRK_TOKEN_ADDRESS)).toHaveLength(2);
    const estimate = await account.estimateInvokeFee(transfer(STRK_TOKEN_ADDRESS));
    expect(BigInt(estimate.overall_fee)).toBeGreaterThan(0n);
    const { transaction_hash } = await account.execute(transfer(STRK_TOKEN_ADDRESS));
    expect(
      (await provider.waitForTransaction(transaction_hash, { retryInterval: 50 })).isSuccess(),
    ).toBe(true);
    const refusedMethods = [
      'starknet_call',
      'starknet_estimateFee',
      'starknet_addInvokeTransaction',
      'starknet_getEvents',
      'starknet_addDeclareTransaction',
    ];
    const charged = async () => {
      const { methods } = await usageOf(gw, restricted);
      return refusedMethods.map((method) => methods[method] ?? 0);
    };
    const used = await charged();
    const devnetInvokes = rpcCalls('starknet_addInvokeTransaction');

    // Another contract: a call, a fee estimate, an invoke (alone, or hidden in a multicall),
    // events of it, and a declare or deploy-account: all 403, nothing charged, nothing sent.
    await refused(balanceOf(ETH_TOKEN_ADDRESS));
    await refused(account.estimateInvokeFee(transfer(ETH_TOKEN_ADDRESS)));
    await refused(
      account.execute([transfer(STRK_TOKEN_ADDRESS), transfer(ETH_TOKEN_ADDRESS)], {
        resourceBounds: estimate.resourceBounds,
      }),
    );
    const raw = await post(
      url,
      call('starknet_getEvents', {
        filter: { address: ETH_TOKEN_ADDRESS, chunk_size: 10 },
      } as never),
    );
    expect(raw.status).toBe(403);
    expect(raw.json.error).toEqual({
      code: -32002,
      message:
        'rejected due to project ID settings: a contract it targets is not in the contract allowlist',
      data: { allowlist: 'contracts' },
    });
    const noAddress = await post(url, call('starknet_getEvents', [{ chunk_size: 10 }]));
    expect(noAddress.status).toBe(403);
    const declare = await post(
      url,
      call('starknet_addDeclareTransaction', { declare_transaction: { type: 'DECLARE' } } as never),
    );
    expect(declare.status).toBe(403);
    // Positional params are read the same way.
    const positional = await post(
      url,
      call('starknet_call', [
        { contract_address: ETH_TOKEN_ADDRESS, entry_point_selector: '0x1', calldata: [] },
        'latest',
      ]),
    );
    expect(positional.status).toBe(403);
    // (starknet.js's own reads around them, a nonce or a block, are served and charged.)
    expect(await charged()).toEqual(used);
    expect(rpcCalls('starknet_addInvokeTransaction')).toBe(devnetInvokes);
    // The unrestricted key still reaches every contract.
    expect(
      await new RpcProvider({ nodeUrl: prefixUrl() }).callContract({
        contractAddress: ETH_TOKEN_ADDRESS,
        entrypoint: 'balance_of',
        calldata: [recipient.address],
      }),
    ).toHaveLength(2);
  });
});
