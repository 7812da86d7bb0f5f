import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallData, ec, hash, num, stark } from 'starknet';
import { DevnetProvider } from 'starknet-devnet';
import { Account } from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH, ExplorerPage, STRK_TOKEN_ADDRESS } from '../src';
import { rpc, startTestDevnet, strkBalance, TestDevnet, transferCall, WAIT } from './helpers';

describe("starknet-devnet's DevnetProvider works unchanged", () => {
  let t: TestDevnet;
  let devnetProvider: DevnetProvider;
  let dir: string;

  beforeAll(async () => {
    t = await startTestDevnet({ seed: 7, accounts: 3 });
    devnetProvider = new DevnetProvider({ url: t.devnet.url });
    dir = mkdtempSync(join(tmpdir(), 'devnet-dump-'));
  });
  afterAll(async () => {
    await t.devnet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('isAlive and getPredeployedAccounts (with balances)', async () => {
    expect(await devnetProvider.isAlive()).toBe(true);
    const accounts = await devnetProvider.getPredeployedAccounts();
    expect(accounts).toEqual(t.devnet.predeployedAccounts);
    expect(accounts).toHaveLength(3);
    const withBalance = await devnetProvider.getPredeployedAccounts({ withBalance: true });
    expect(withBalance[0].balance).toEqual({
      eth: { amount: '1000000000000000000000', unit: 'WEI' },
      strk: { amount: '1000000000000000000000', unit: 'FRI' },
    });
  });

  test('mint STRK (FRI) and ETH (WEI) to any address, beyond 2^53', async () => {
    const address = stark.randomAddress();
    const amount = 12_345_678_901_234_567_890n;
    const minted = await devnetProvider.mint(address, amount);
    expect(minted).toMatchObject({ new_balance: amount, unit: 'FRI' });
    expect(await strkBalance(t.provider, address)).toBe(amount);
    // A mint is a real transaction (permissioned_mint from the devnet's faucet account).
    const receipt = await t.provider.waitForTransaction(minted.tx_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);
    const events = (
      receipt.value as unknown as { events: { from_address: string; keys: string[] }[] }
    ).events;
    expect(events[0]).toMatchObject({
      from_address: num.toHex(STRK_TOKEN_ADDRESS),
      keys: [num.toHex(hash.getSelectorFromName('Transfer')), '0x0', num.toHex(address)],
    });
    const wei = await devnetProvider.mint(address, 5n, 'WEI');
    expect(wei).toMatchObject({ new_balance: 5n, unit: 'WEI' });
    const again = await devnetProvider.mint(address, 1n);
    expect(again.new_balance).toBe(amount + 1n);
    const tooMuch = await rpc(t.devnet.rpcUrl, 'devnet_mint', {
      address,
      amount: `0x1${'0'.repeat(64)}`,
    });
    expect(tooMuch.error).toMatchObject({ code: -32602, data: { field: 'amount' } });
  });

  test('createBlock and getConfig', async () => {
    const before = await t.provider.getBlockNumber();
    const { block_hash } = await devnetProvider.createBlock();
    expect((await t.provider.getBlockLatestAccepted()).block_hash).toBe(block_hash);
    expect(await t.provider.getBlockNumber()).toBe(before + 1);
    const config = await devnetProvider.getConfig();
    expect(config).toMatchObject({ seed: 7, total_accounts: 3, chain_id: 'SN_SEPOLIA' });
  });

  test('dump and load round-trip the whole chain', async () => {
    // Some history worth keeping: a counterfactual Argent deployment and a transfer from it.
    const privateKey = stark.randomAddress();
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const calldata = CallData.compile([publicKey, 0]);
    const address = hash.calculateContractAddressFromHash(
      publicKey,
      ARGENT_ACCOUNT_CLASS_HASH,
      calldata,
      0,
    );
    await devnetProvider.mint(address, 10n ** 18n);
    const argent = new Account({ provider: t.provider, address, signer: privateKey });
    const deployed = await argent.deployAccount({
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata: calldata,
      addressSalt: publicKey,
    });
    await t.provider.waitForTransaction(deployed.transaction_hash, WAIT);
    const transfer = await argent.execute(
      transferCall(t.devnet.predeployedAccounts[1].address, 99n),
    );
    await t.provider.waitForTransaction(transfer.transaction_hash, WAIT);

    const snapshot = async () => ({
      block: await t.provider.getBlockWithTxHashes('latest'),
      argentBalance: await strkBalance(t.provider, address),
      nonce: await t.provider.getNonceForAddress(address),
      receipt: (await t.provider.getTransactionReceipt(transfer.transaction_hash)).value,
      explorer: await (await fetch(`${t.devnet.url}/api/txns?to=${address}&ps=10&p=1`)).json(),
    });
    const before = await snapshot();
    const path = join(dir, 'state.json');
    await devnetProvider.dump(path);

    await devnetProvider.restart();
    expect(await t.provider.getBlockNumber()).toBe(0);
    expect(
      (
        await rpc(t.devnet.rpcUrl, 'starknet_getTransactionReceipt', {
          transaction_hash: transfer.transaction_hash,
        })
      ).error?.code,
    ).toBe(29);

    await devnetProvider.load(path);
    expect(await snapshot()).toEqual(before);
    // The loaded chain keeps working.
    const next = await argent.execute(transferCall(t.devnet.predeployedAccounts[1].address, 1n));
    expect((await t.provider.waitForTransaction(next.transaction_hash, WAIT)).isSuccess()).toBe(
      true,
    );
  });

  test('devnet_getAccountBalance, and a bad dump path is -32602', async () => {
    const address = t.devnet.predeployedAccounts[2].address;
    const balance = await rpc(t.devnet.rpcUrl, 'devnet_getAccountBalance', {
      address,
      unit: 'WEI',
    });
    expect(balance.result).toEqual({ amount: '1000000000000000000000', unit: 'WEI' });
    const bad = await rpc(t.devnet.rpcUrl, 'devnet_load', { path: join(dir, 'missing.json') });
    expect(bad.error).toMatchObject({ code: -32602, data: { field: 'path' } });
  });

  test('devnet_load of a file that is not a version-1 dump is -32602 naming path and the dump field', async () => {
    const good = (await rpc(t.devnet.rpcUrl, 'devnet_dump', {})).result as Record<string, unknown>;
    const blockBefore = await t.provider.getBlockNumber();
    const cases: [string, unknown, string][] = [
      ['version', { ...good, version: 2 }, 'version'],
      ['no-version', { ...good, version: undefined }, 'version'],
      ['array', [1, 2], 'version'],
      ['actions', { ...good, actions: 'x' }, 'actions'],
      ['options', { ...good, options: undefined }, 'options'],
      ['seed', { ...good, options: { ...(good.options as object), seed: 'x' } }, 'options.seed'],
      [
        'balance',
        { ...good, options: { ...(good.options as object), initialBalance: 'lots' } },
        'options.initialBalance',
      ],
      ['timestamp', { ...good, genesisTimestamp: 'now' }, 'genesisTimestamp'],
      ['kind', { ...good, actions: [{ kind: 'nope' }] }, 'actions[0].kind'],
      ['tx', { ...good, actions: [{ kind: 'tx', tx: { type: 'INVOKE' } }] }, 'actions[0].tx'],
    ];
    // Well-shaped but not a chain: the same transaction twice does not replay.
    const actions = good.actions as { kind: string }[];
    const firstTx = actions.find((a) => a.kind === 'tx');
    cases.push([
      'replay',
      { ...good, actions: [...actions, firstTx] },
      `actions[${actions.length}].tx: does not replay`,
    ]);
    for (const [name, content, field] of cases) {
      const path = join(dir, `bad-${name}.json`);
      writeFileSync(path, JSON.stringify(content));
      const reply = await rpc(t.devnet.rpcUrl, 'devnet_load', { path });
      expect({ name, error: reply.error }).toMatchObject({
        name,
        error: { code: -32602, data: { field: 'path' } },
      });
      expect(reply.error?.message).toContain('not a devnet dump');
      expect(reply.error?.message).toContain(field);
    }
    // Nothing was replaced.
    expect(await t.provider.getBlockNumber()).toBe(blockBefore);
  });

  test('a dump loads into another server with identical block hashes', async () => {
    const path = join(dir, 'second.json');
    await devnetProvider.dump(path);
    const other = await startTestDevnet({ seed: 1 });
    try {
      await new DevnetProvider({ url: other.devnet.url }).load(path);
      const latest = await t.provider.getBlockLatestAccepted();
      expect(await other.provider.getBlockLatestAccepted()).toEqual(latest);
      expect(await other.provider.getBlockWithTxHashes(latest.block_number)).toEqual(
        await t.provider.getBlockWithTxHashes(latest.block_number),
      );
    } finally {
      await other.devnet.close();
    }
  });
});

describe('explorer API: GET /api/txns', () => {
  let t: TestDevnet;
  beforeAll(async () => {
    t = await startTestDevnet();
  });
  afterAll(() => t.devnet.close());

  const list = async (
    query: string,
  ): Promise<{ status: number; body: ExplorerPage & { error?: string } }> => {
    const response = await fetch(`${t.devnet.url}/api/txns?${query}`);
    return {
      status: response.status,
      body: (await response.json()) as ExplorerPage & { error?: string },
    };
  };

  test('lists the transactions an address sent or called, newest first, paged', async () => {
    const sender = t.account(0);
    const hashes: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const r = await sender.execute(
        transferCall(t.devnet.predeployedAccounts[1].address, BigInt(i + 1)),
      );
      await t.provider.waitForTransaction(r.transaction_hash, WAIT);
      hashes.push(num.toHex(r.transaction_hash));
    }
    const failed = await sender.execute(
      transferCall(t.devnet.predeployedAccounts[1].address, 10n ** 30n),
      {
        resourceBounds: {
          l1_gas: { max_amount: 0n, max_price_per_unit: 10n ** 12n },
          l2_gas: { max_amount: 3_000_000n, max_price_per_unit: 10n ** 7n },
          l1_data_gas: { max_amount: 3_000n, max_price_per_unit: 10n ** 6n },
        },
      },
    );
    await t.provider.waitForTransaction(failed.transaction_hash, WAIT);
    hashes.push(num.toHex(failed.transaction_hash));

    const first = await list(`to=${sender.address}&ps=10&p=1`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 10, total: 13, totalPages: 2 });
    expect(first.body.items.map((i) => i.hash)).toEqual([...hashes].reverse().slice(0, 10));
    const newest = first.body.items[0];
    expect(newest).toMatchObject({
      type: 'INVOKE',
      sender: num.toHex(sender.address),
      contract: num.toHex(STRK_TOKEN_ADDRESS),
      entrypoint: 'transfer',
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'REVERTED',
      failureReason: 'ERC20: insufficient balance',
      feeUnit: 'FRI',
    });
    expect(newest.calls[0].calldata[0]).toBe(num.toHex(t.devnet.predeployedAccounts[1].address));
    expect(typeof newest.timestamp).toBe('number');
    expect(first.body.items[1].failureReason).toBeNull();
    const second = await list(`to=${sender.address}&ps=10&p=2`);
    expect(second.body.items.map((i) => i.hash)).toEqual([...hashes].reverse().slice(10));
    const big = await list(`to=${sender.address}&ps=25`);
    expect(big.body.items).toHaveLength(13);
    // Calls into the token contract show up under its address too.
    const token = await list(`to=${STRK_TOKEN_ADDRESS}&ps=50&p=1`);
    expect(token.body.total).toBe(13);
  });

  test('bad queries are 400 with a message', async () => {
    expect((await list('ps=10')).status).toBe(400);
    expect((await list('to=0x1&ps=11')).body.error).toMatch(/10, 25 or 50/);
    expect((await list('to=0x1&p=0')).status).toBe(400);
    expect((await list('to=nothex')).status).toBe(400);
  });

  test('browser pages can call it: CORS preflight and headers', async () => {
    const preflight = await fetch(t.devnet.rpcUrl, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    const explorer = await fetch(`${t.devnet.url}/api/txns?to=0x1`);
    expect(explorer.headers.get('access-control-allow-origin')).toBe('*');
    const unknown = await fetch(`${t.devnet.url}/nope`);
    expect(unknown.status).toBe(404);
  });

  test('metrics count HTTP requests and RPC calls at the server', async () => {
    t.devnet.resetMetrics();
    await t.provider.getBlockNumber();
    await t.provider.getChainId();
    expect(t.devnet.metrics).toEqual({
      httpRequests: 1,
      rpcCalls: { starknet_blockNumber: 1 },
    });
  });
});
