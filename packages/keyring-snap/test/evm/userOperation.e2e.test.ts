/**
 * Proven on chain: one anvil with the real ERC-4337 v0.6 contracts, Pimlico's Alto and our
 * ERC-7677 paymaster service, all on 127.0.0.1 and started once for this file. The snap signs;
 * ethers and viem recover every signature; anvil and the EntryPoint say what happened.
 */
import {
  postJson,
  rpcResponse,
  serveHttp,
  startAccountAbstractionStack,
  startCountingProxy,
  type AccountAbstractionDeployment,
  type AccountAbstractionStack,
  type AltoService,
  type CountingProxy,
  type PaymasterService,
} from '@l2wallet/testkit';
import { installSnap, type Snap } from '@metamask/snaps-jest';
import { ethers } from 'ethers';
import { recoverMessageAddress, type Hex } from 'viem';

import type { GasLimits, PreparedUserOperation, UserOperation } from '../../src/evm/userOperation';
import {
  answerDialog,
  createAccount,
  keyring,
  recoverPersonal,
  recoverTransaction,
  resultOf,
  SCOPE,
  setChainConfig,
  signed,
  SITE,
  submit,
  type Account,
} from '../harness/snap';
import {
  ENTRY_POINT_ABI,
  waitForReceipt,
  waitForUserOperationReceipt,
} from '../harness/entryPoint';

/** eth_prepareUserOperation's answer where the bundler estimated the gas (most tests here). */
type Details = PreparedUserOperation & { gasLimits: GasLimits };
const RECIPIENT = '0x000000000000000000000000000000000000bEEF';
const FACTORY_ABI = [
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function createAccount(address owner, uint256 salt) returns (address)',
];

let stack: AccountAbstractionStack;
let alto: AltoService;
let paymasterService: PaymasterService;
let nodeProxy: CountingProxy;
let contracts: AccountAbstractionDeployment;
let provider: ethers.JsonRpcProvider;
let snap: Snap;
let eoa: Account;
let smart: Account;

async function bundler(
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { message: string } }> {
  return rpcResponse(alto.url, method, params);
}

/** The snap's chain: this stack, its node behind the counting proxy. */
async function setChain(paymasterUrl: string | null) {
  await setChainConfig(snap, { ...stack.chainConfig, rpcUrl: nodeProxy.url, paymasterUrl });
}

async function prepareOnly(account: Account, intents: unknown[]): Promise<PreparedUserOperation> {
  return signed<PreparedUserOperation>(snap, account, 'eth_prepareUserOperation', intents);
}

/** Prepares with the bundler's estimate, which must be there. */
async function prepare(account: Account, intents: unknown[]): Promise<Details> {
  const details = await prepareOnly(account, intents);
  expect(details.gasLimits).toBeDefined();
  return details as Details;
}

/** What a wallet does between prepare and sign: fees from the bundler, gas from prepare. */
async function draft(account: Account, details: Details): Promise<UserOperation> {
  const prices = (await bundler('pimlico_getUserOperationGasPrice', [])).result as {
    fast: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex };
  };
  return {
    sender: account.address,
    nonce: details.nonce,
    initCode: details.initCode,
    callData: details.callData,
    ...details.gasLimits,
    maxFeePerGas: prices.fast.maxFeePerGas,
    maxPriorityFeePerGas: prices.fast.maxPriorityFeePerGas,
    paymasterAndData: '0x',
    signature: details.dummySignature,
  };
}

async function patchAndSign(account: Account, op: UserOperation): Promise<UserOperation> {
  const patch = await signed<Partial<UserOperation>>(snap, account, 'eth_patchUserOperation', [op]);
  const patched = { ...op, ...patch };
  const signature = await signed<Hex>(snap, account, 'eth_signUserOperation', [
    patched,
    contracts.entryPoint,
  ]);
  return { ...patched, signature };
}

/** The v0.6 userOpHash from the EntryPoint itself, and the owner recovered by ethers and viem. */
async function checkSignature(op: UserOperation, owner: string) {
  const entryPoint = new ethers.Contract(contracts.entryPoint, ENTRY_POINT_ABI, provider);
  const hash = (await entryPoint.getUserOpHash(op)) as Hex;
  const byEthers = ethers.verifyMessage(ethers.getBytes(hash), op.signature);
  const byViem = await recoverMessageAddress({ message: { raw: hash }, signature: op.signature });
  expect(byEthers).toBe(owner);
  expect(byViem).toBe(owner);
  return hash;
}

async function sendAndWait(op: UserOperation) {
  const sent = await bundler('eth_sendUserOperation', [op, contracts.entryPoint]);
  if (sent.error) {
    throw new Error(`eth_sendUserOperation: ${sent.error.message}`);
  }
  return waitForUserOperationReceipt(alto.url, sent.result);
}

beforeAll(async () => {
  stack = await startAccountAbstractionStack();
  ({ contracts, alto } = stack);
  paymasterService = stack.paymaster as PaymasterService;
  nodeProxy = await startCountingProxy(stack.anvilUrl);
  provider = new ethers.JsonRpcProvider(stack.anvilUrl, undefined, {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  snap = await installSnap();
  await setChain(null);
  eoa = await createAccount(snap, { type: 'eip155:eoa' });
  smart = await createAccount(snap, { type: 'eip155:erc4337' });
  await provider.send('anvil_setBalance', [eoa.address, ethers.toQuantity(10n ** 19n)]);
});

afterAll(async () => {
  provider?.destroy();
  await nodeProxy?.stop();
  await stack?.stop();
});

describe('EOA transactions on anvil', () => {
  it.each([
    ['EIP-1559', { type: '0x2', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00' }],
    ['legacy', { type: '0x0', gasPrice: '0x77359400' }],
  ])('an %s transaction signed by the snap is mined from the account', async (_kind, fees) => {
    const nonce = await provider.getTransactionCount(eoa.address);
    const before = await provider.getBalance(RECIPIENT);
    const tx = {
      ...fees,
      nonce: ethers.toQuantity(nonce),
      from: eoa.address,
      to: RECIPIENT,
      value: ethers.toQuantity(12345n),
      data: '0x',
      gasLimit: '0x5208',
      chainId: '0x7a69',
    };
    const signature = await signed<{ v: Hex; r: Hex; s: Hex }>(snap, eoa, 'eth_signTransaction', [
      tx,
    ]);
    const { from, serialized } = await recoverTransaction(tx, signature);
    expect(from).toBe(eoa.address);
    const hash = await provider.send('eth_sendRawTransaction', [serialized]);
    const receipt = await waitForReceipt(provider, hash);
    expect(receipt.status).toBe(1);
    expect(receipt.from).toBe(eoa.address);
    expect(await provider.getBalance(RECIPIENT)).toBe(before + 12345n);
  });
});

describe('ERC-4337 account', () => {
  it('has the factory counterfactual address of its owner and signs messages with the owner key', async () => {
    const owner = smart.options.owner as string;
    const factory = new ethers.Contract(contracts.factory, FACTORY_ABI, provider);
    expect(await factory['getAddress(address,uint256)'](owner, 0)).toBe(smart.address);
    expect(smart).toMatchObject({ type: 'eip155:erc4337', scopes: [SCOPE] });
    expect(await provider.getCode(smart.address)).toBe('0x');
    const message = `0x${Buffer.from('smart account').toString('hex')}` as Hex;
    const signature = await signed<Hex>(snap, smart, 'personal_sign', [message, smart.address]);
    expect(await recoverPersonal(message, signature)).toBe(owner);
  });

  it('prepares an empty account with one node batch; funded after prepare, its first operation deploys it and moves ETH', async () => {
    expect(await provider.getBalance(smart.address)).toBe(0n);
    nodeProxy.reset();
    const details = await prepare(smart, [
      { to: RECIPIENT, value: ethers.toQuantity(10n ** 17n), data: '0x' },
    ]);
    expect(nodeProxy.requests()).toEqual([['eth_getCode', 'eth_call']]);
    await provider.send('anvil_setBalance', [smart.address, ethers.toQuantity(10n ** 18n)]);
    expect(details.initCode.toLowerCase().startsWith(contracts.factory)).toBe(true);
    expect(details.nonce).toBe('0x0');
    expect(details.bundlerUrl).toBe(alto.url);
    expect(details.dummyPaymasterAndData).toBe('0x');
    expect(ethers.getBytes(details.dummySignature)).toHaveLength(65);
    expect(() => ethers.Signature.from(details.dummySignature)).not.toThrow();
    for (const limit of Object.values(details.gasLimits)) {
      expect(BigInt(limit)).toBeGreaterThan(0n);
    }

    const before = await provider.getBalance(RECIPIENT);
    const op = await patchAndSign(smart, await draft(smart, details));
    expect(op.paymasterAndData).toBe('0x');
    await checkSignature(op, smart.options.owner as string);
    const receipt = await sendAndWait(op);
    expect(receipt.success).toBe(true);
    expect(await provider.getCode(smart.address)).not.toBe('0x');
    expect(await provider.getBalance(RECIPIENT)).toBe(before + 10n ** 17n);
  });

  it('executes a two-intent batch: both calls run', async () => {
    const factory = new ethers.Contract(contracts.factory, FACTORY_ABI, provider);
    const owners = [ethers.Wallet.createRandom().address, ethers.Wallet.createRandom().address];
    const data = owners.map((owner) =>
      factory.interface.encodeFunctionData('createAccount', [owner, 7]),
    );
    const targets = await Promise.all(
      owners.map((owner) => factory['getAddress(address,uint256)'](owner, 7) as Promise<string>),
    );
    const details = await prepare(smart, [
      { to: contracts.factory, value: '0x0', data: data[0] },
      { to: contracts.factory, data: data[1] },
    ]);
    expect(details.initCode).toBe('0x');
    expect(details.nonce).toBe('0x1');
    expect(
      details.callData.startsWith(ethers.id('executeBatch(address[],bytes[])').slice(0, 10)),
    ).toBe(true);
    const op = await patchAndSign(smart, await draft(smart, details));
    await checkSignature(op, smart.options.owner as string);
    expect((await sendAndWait(op)).success).toBe(true);
    for (const target of targets) {
      expect(await provider.getCode(target)).not.toBe('0x');
    }
  });

  it('refuses a batch that moves ETH, naming the intent', async () => {
    const answer = await submit(snap, smart, 'eth_prepareUserOperation', [
      { to: RECIPIENT, value: '0x1', data: '0x' },
      { to: RECIPIENT, value: '0x0', data: '0x' },
    ]);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('"request.params[0].value"');
    const creation = await submit(snap, smart, 'eth_prepareUserOperation', [
      { to: null, value: '0x0', data: '0x6000' },
    ]);
    expect(creation.error?.message).toContain('"request.params[0].to"');
    const empty = await submit(snap, smart, 'eth_prepareUserOperation', []);
    expect(empty.error?.message).toContain('"request.params"');
  });

  it('a paymaster-sponsored operation leaves the account balance unchanged', async () => {
    await setChain(paymasterService.url);
    const entryPoint = new ethers.Contract(contracts.entryPoint, ENTRY_POINT_ABI, provider);
    const balance = await provider.getBalance(smart.address);
    const deposit = (await entryPoint.balanceOf(contracts.paymaster)) as bigint;
    const before = await provider.getBalance(RECIPIENT);
    const details = await prepare(smart, [{ to: RECIPIENT, value: '0x0', data: '0x' }]);
    expect(details.dummyPaymasterAndData.startsWith(contracts.paymaster)).toBe(true);
    const op = await patchAndSign(smart, await draft(smart, details));
    expect(op.paymasterAndData.startsWith(contracts.paymaster)).toBe(true);
    expect(ethers.getBytes(op.paymasterAndData)).toHaveLength(20 + 64 + 65);
    // The estimate already carried the stub (same length), so patch keeps prepare's limits.
    expect(op.verificationGasLimit).toBe(details.gasLimits.verificationGasLimit);
    await checkSignature(op, smart.options.owner as string);
    expect((await sendAndWait(op)).success).toBe(true);
    expect(await provider.getBalance(smart.address)).toBe(balance);
    expect((await entryPoint.balanceOf(contracts.paymaster)) as bigint).toBeLessThan(deposit);
    expect(await provider.getBalance(RECIPIENT)).toBe(before);
    expect(paymasterService.requests()).toEqual(
      expect.arrayContaining(['pm_getPaymasterStubData', 'pm_getPaymasterData']),
    );
    await setChain(null);
  });

  it('an operation tampered with after signing is refused by the bundler and changes nothing', async () => {
    const entryPoint = new ethers.Contract(contracts.entryPoint, ENTRY_POINT_ABI, provider);
    const details = await prepare(smart, [
      { to: RECIPIENT, value: ethers.toQuantity(5n), data: '0x' },
    ]);
    const op = await patchAndSign(smart, await draft(smart, details));
    const nonce = (await entryPoint.getNonce(smart.address, 0)) as bigint;
    const balance = await provider.getBalance(smart.address);
    const recipient = await provider.getBalance(RECIPIENT);
    const otherCall = new ethers.Interface([
      'function execute(address dest, uint256 value, bytes func)',
    ]).encodeFunctionData('execute', [RECIPIENT, 10n ** 17n, '0x']);
    const flipped =
      `${op.signature.slice(0, 20)}${op.signature[20] === 'a' ? 'b' : 'a'}${op.signature.slice(21)}` as Hex;
    for (const tampered of [
      { ...op, callData: otherCall as Hex },
      { ...op, signature: flipped },
    ]) {
      const sent = await bundler('eth_sendUserOperation', [tampered, contracts.entryPoint]);
      expect(sent.error).toBeDefined();
      expect(sent.result).toBeUndefined();
    }
    expect((await entryPoint.getNonce(smart.address, 0)) as bigint).toBe(nonce);
    expect(await provider.getBalance(smart.address)).toBe(balance);
    expect(await provider.getBalance(RECIPIENT)).toBe(recipient);
  });

  it('signs [userOp] alone (the bridge shape) for the entry point of the scope chain', async () => {
    const details = await prepare(smart, [{ to: RECIPIENT, value: '0x0', data: '0x' }]);
    const op = await draft(smart, details);
    const alone = await signed<Hex>(snap, smart, 'eth_signUserOperation', [op]);
    const withEntryPoint = await signed<Hex>(snap, smart, 'eth_signUserOperation', [
      op,
      contracts.entryPoint,
    ]);
    expect(alone).toBe(withEntryPoint);
    await checkSignature({ ...op, signature: alone }, smart.options.owner as string);
    const tooMany = await submit(snap, smart, 'eth_signUserOperation', [
      op,
      contracts.entryPoint,
      '0x',
    ]);
    expect(tooMany.error?.message).toContain('"request.params"');
  });

  it('returns the operation without gasLimits when the bundler cannot estimate', async () => {
    const pending = snap.request({
      origin: SITE,
      method: 'keyring_setChainConfig',
      params: {
        chainId: '31337',
        rpcUrl: nodeProxy.url,
        bundlerUrl: 'http://127.0.0.1:9/rpc',
        entryPoint: contracts.entryPoint,
        factory: contracts.factory,
      },
    });
    await answerDialog(pending, true);
    await pending;
    try {
      const details = await prepareOnly(smart, [{ to: RECIPIENT, value: '0x0', data: '0x' }]);
      expect(details.gasLimits).toBeUndefined();
      expect(details).toMatchObject({ initCode: '0x', bundlerUrl: 'http://127.0.0.1:9/rpc' });
      expect(BigInt(details.nonce)).toBeGreaterThan(0n);
    } finally {
      await setChain(null);
    }
  });

  it('refuses another entry point, another sender, another chain and EOA-only methods', async () => {
    const details = await prepare(smart, [{ to: RECIPIENT, value: '0x0', data: '0x' }]);
    const op = await draft(smart, details);
    const wrongEntry = await submit(snap, smart, 'eth_signUserOperation', [op, RECIPIENT]);
    expect(wrongEntry.error?.message).toContain('"request.params[1]"');
    const wrongSender = await submit(snap, smart, 'eth_signUserOperation', [
      { ...op, sender: eoa.address },
      contracts.entryPoint,
    ]);
    expect(wrongSender.error?.message).toContain('"request.params[0].sender"');
    const { callGasLimit: _omitted, ...incomplete } = op;
    const missing = await submit(snap, smart, 'eth_patchUserOperation', [incomplete]);
    expect(missing.error?.message).toContain('"request.params[0].callGasLimit"');
    const otherChain = await submit(
      snap,
      smart,
      'eth_signUserOperation',
      [op, contracts.entryPoint],
      {
        scope: 'eip155:1',
      },
    );
    expect(otherChain.error?.message).toContain('"scope"');
    const eoaOnly = await submit(snap, smart, 'eth_signTransaction', [{ type: '0x2' }]);
    expect(eoaOnly.error?.code).toBe(-32004);
    expect(
      resultOf(
        await keyring(snap, 'keyring_filterAccountChains', {
          id: smart.id,
          chains: ['eip155:1', SCOPE],
        }),
      ),
    ).toEqual([SCOPE]);
  });
});

/**
 * A node that misbehaves on purpose, in front of the real anvil. Its URL carries a secret in
 * the path, as a hosted node's API key would be: `/<key>/<mode>`. Modes: `lie` answers the
 * factory's getAddress with another address (everything else is forwarded), `echo` answers a
 * JSON-RPC error quoting the URL it was called at, `fail` answers HTTP 500, `hang` sends its
 * headers and half a body and then nothing.
 */
const SECRET = 'k3y-0f-a-h0sted-n0de';

async function startBadNode(): Promise<{
  url: (mode: string) => string;
  close: () => Promise<void>;
}> {
  const server = await serveHttp(async (request, response, body) => {
    const mode = (request.url ?? '').split('/').at(-1);
    if (mode === 'fail') {
      response.writeHead(500).end('upstream exploded');
      return;
    }
    if (mode === 'hang') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"jsonrpc":"2.0","id":1,');
      return;
    }
    const call = JSON.parse(body) as { id: number; method: string; params: unknown[] };
    response.writeHead(200, { 'content-type': 'application/json' });
    if (mode === 'echo') {
      const message = `rate limit for ${server.url}${request.url}: invalid key ${SECRET}`;
      response.end(
        JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message } }),
      );
      return;
    }
    const answer = (await postJson(stack.anvilUrl, body)).json as { result?: string };
    const isGetAddress =
      call.method === 'eth_call' &&
      String((call.params[0] as { data?: string }).data).startsWith(
        ethers.id('getAddress(address,uint256)').slice(0, 10),
      );
    if (isGetAddress) {
      answer.result = ethers.zeroPadValue('0x000000000000000000000000000000000000dEaD', 32);
    }
    response.end(JSON.stringify(answer));
  });
  return {
    url: (mode) => `${server.url}/${SECRET}/${mode}`,
    close: () => server.close(),
  };
}

describe('a node that lies, fails or hangs (its URL carries a key)', () => {
  let bad: Awaited<ReturnType<typeof startBadNode>>;

  async function useNode(rpcUrl: string, paymasterUrl: string | null = null) {
    const pending = snap.request({
      origin: SITE,
      method: 'keyring_setChainConfig',
      params: {
        chainId: '31337',
        rpcUrl,
        bundlerUrl: alto.url,
        entryPoint: contracts.entryPoint,
        factory: contracts.factory,
        paymasterUrl,
      },
    });
    await answerDialog(pending, true);
    await pending;
  }

  async function accountIds(): Promise<string[]> {
    const accounts = resultOf<Account[]>(await keyring(snap, 'keyring_listAccounts'));
    return accounts.map((account) => account.id);
  }

  beforeAll(async () => {
    bad = await startBadNode();
  });

  afterAll(async () => {
    await bad?.close();
    await setChain(null);
  });

  it('a node whose factory answers another address cannot substitute the account', async () => {
    await useNode(bad.url('lie'));
    const before = await accountIds();
    const answer = await keyring(snap, 'keyring_createAccount', {
      options: { type: 'eip155:erc4337' },
    });
    expect(answer.error?.code).toBe(-32603);
    expect(answer.error?.message).toMatch(/getAddress 0x0+dEaD, but CREATE2 .* gives 0x/iu);
    expect(answer.error?.message).not.toContain(SECRET);
    expect(await accountIds()).toEqual(before);
  });

  it.each(['echo', 'fail', 'hang'])(
    'a node that answers "%s" is named by host only, never by its URL',
    async (mode) => {
      await useNode(bad.url(mode));
      const answer = await keyring(snap, 'keyring_createAccount', {
        options: { type: 'eip155:erc4337' },
      });
      const host = new URL(bad.url(mode)).host;
      expect(answer.error?.code).toBe(-32603);
      expect(answer.error?.message).toContain(`node ${host}`);
      expect(answer.error?.message).not.toContain(SECRET);
      if (mode === 'hang') {
        // The timeout covers the body read: the half-sent answer fails, it does not hang.
        expect(answer.error?.message).toMatch(/within \d+ ms/u);
      }
    },
    30_000,
  );

  it('a paymaster that fails is named by host only', async () => {
    await useNode(stack.anvilUrl, bad.url('echo'));
    const answer = await submit(snap, smart, 'eth_prepareUserOperation', [
      { to: RECIPIENT, value: '0x0', data: '0x' },
    ]);
    expect(answer.error?.message).toContain(`paymaster ${new URL(bad.url('echo')).host}`);
    expect(answer.error?.message).not.toContain(SECRET);
  });
});
