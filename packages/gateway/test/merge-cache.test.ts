/**
 * Merged in-flight calls and the head-aware cache against a real anvil, with the upstream calls
 * counted by a proxy between the gateway and anvil: identical calls share one upstream request
 * and are each charged; a failing or hung leader fails and refunds every follower; writes are
 * never merged; `latest` answers never outlive the next head (polled, or from newHeads over a
 * WebSocket upstream); deep blocks are kept, pending and null never.
 */
import {
  ANVIL_ACCOUNTS,
  type AnvilService,
  type ScriptedUpstream,
  startAnvil,
  startScriptedUpstream,
} from '@l2wallet/testkit';
import { request } from 'undici';
import { createPublicClient, createWalletClient, http as viemHttp } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { ChainConfig } from '../src/config';
import type { RunningGateway } from '../src/server';
import { call, deployCode, gatewayConfig, post, startWithKey, usageOf } from './helpers';

/** A fresh account with 100 ETH on anvil (set directly, not through the gateway). */
async function funded() {
  const account = privateKeyToAccount(generatePrivateKey());
  await post(anvil.url, call('anvil_setBalance', [account.address, '0x56bc75e2d63100000']));
  return account;
}
const someAddress = () => privateKeyToAccount(generatePrivateKey()).address;

let anvil: AnvilService;
/**
 * A pass-through to anvil that counts the calls the gateway forwards for clients (its own head
 * polls and health checks are batches, which `count` leaves out), and that can hold answers
 * back, never answer, or fail with a 502.
 */
let proxy: ScriptedUpstream;
let contract: string;

beforeAll(async () => {
  anvil = await startAnvil();
  const account = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
  const wallet = createWalletClient({ account, chain: foundry, transport: viemHttp(anvil.url) });
  // Runtime: SSTORE(0, 0x2a); LOG0(0, 0); STOP.
  const hash = await wallet.sendTransaction({ data: deployCode('602a60005560006000a000') });
  // anvil may answer the hash before its block holds the receipt (seen under load): wait for it.
  const client = createPublicClient({ chain: foundry, transport: viemHttp(anvil.url) });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  contract = receipt.contractAddress!;
  proxy = await startScriptedUpstream(anvil.url);
});

afterAll(async () => {
  await proxy?.stop();
  await anvil?.stop();
});

/** A gateway in front of the counting proxy (timeout 1 s), with a fresh key. */
async function gatewayOnProxy(chain: Partial<ChainConfig> = {}, extra = {}) {
  const config = gatewayConfig(proxy.url, { upstreamTimeoutMs: 1000, ...extra });
  Object.assign(config.chains[0], chain);
  return startWithKey(config);
}

/**
 * Until the gateway holds anvil's head with its hash (a block number answered through it gives
 * the height alone; the hash, from the next poll, starts a new head generation).
 */
async function headSettled(gw: RunningGateway): Promise<void> {
  const head = gw.gateway.router.chains[0].head;
  const top = BigInt((await post(anvil.url, call('eth_blockNumber'))).json.result);
  while (head.number === undefined || head.number < top || head.hash === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ethCall = (id: number, block: unknown = 'latest') =>
  call('eth_call', [{ to: contract, data: '0x01' }, block], id);

describe('merging identical calls in flight', () => {
  let gw: RunningGateway;
  let key: string;
  let rpcUrl: string;

  beforeAll(async () => {
    // The cache off: only merging can save upstream calls here.
    // A 2 s upstream timeout: the held answers below (800 ms) keep all callers in flight together
    // even on a loaded machine.
    ({ gw, key, rpcUrl } = await gatewayOnProxy({}, { cacheEntries: 0, upstreamTimeoutMs: 2000 }));
    // Merging is per head: let the gateway settle on its first one before counting.
    await post(rpcUrl, call('eth_blockNumber'));
    await headSettled(gw);
  });
  afterAll(() => gw?.close());
  afterEach(() => proxy.reset());

  it('50 identical eth_calls in flight make one upstream call; each gets its id and is charged', async () => {
    const expected = (await post(anvil.url, ethCall(1))).json.result;
    proxy.set({ delayMs: 800 });
    const before = proxy.count('eth_call');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(rpcUrl, ethCall(1000 + i))),
    );
    expect(proxy.count('eth_call') - before).toBe(1);
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ jsonrpc: '2.0', id: 1000 + i, result: expected });
    });
    // A batch of 50 identical calls: one upstream call too.
    const batch = await post(
      rpcUrl,
      Array.from({ length: 50 }, (_, i) => ethCall(i)),
    );
    expect(proxy.count('eth_call') - before).toBe(2);
    expect(batch.json.map((a: { id: number }) => a.id)).toEqual([...Array(50).keys()]);
    const usage = await usageOf(gw, key);
    expect(usage.methods.eth_call).toBe(100 * 80);
    const metrics = await (await request(`${gw.url}/metrics`)).body.text();
    expect(metrics).toMatch(/gateway_merged_total\{method="eth_call"\} 98/);
  });

  it('calls that differ in params or block are not merged', async () => {
    proxy.set({ delayMs: 200 });
    const before = proxy.count('eth_call');
    await Promise.all([
      post(rpcUrl, ethCall(1)),
      post(rpcUrl, ethCall(2, 'pending')),
      post(rpcUrl, call('eth_call', [{ to: contract, data: '0x02' }, 'latest'])),
    ]);
    expect(proxy.count('eth_call') - before).toBe(3);
  });

  it('a failing leader fails every follower with the same error, and refunds them all', async () => {
    const usedBefore = (await usageOf(gw, key)).total;
    proxy.set({ delayMs: 800, status: 502, body: 'bad gateway' });
    const before = proxy.count('eth_getBalance');
    const who = someAddress();
    const balance = (id: number) => call('eth_getBalance', [who, 'latest'], id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(rpcUrl, balance(i))),
    );
    expect(proxy.count('eth_getBalance') - before).toBe(1);
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(503);
      expect(answer.json.id).toBe(i);
      expect(answer.json.error).toEqual({
        code: -32010,
        message: 'upstream unavailable; not charged',
        data: { retryable: true },
      });
    }
    expect((await usageOf(gw, key)).total).toBe(usedBefore);
  });

  it('a hung upstream fails the leader and every follower at the upstream timeout, refunded', async () => {
    const usedBefore = (await usageOf(gw, key)).total;
    proxy.set({ hang: true });
    const before = proxy.count('eth_blockNumber');
    const first = post(rpcUrl, call('eth_blockNumber', [], 1));
    // Followers join once the leader hangs at the upstream.
    while (proxy.count('eth_blockNumber') === before) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const followers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(rpcUrl, call('eth_blockNumber', [], 10 + i))),
    );
    const leader = await first;
    for (const answer of [leader, ...followers]) {
      expect(answer.status).toBe(504);
      expect(answer.json.error).toEqual({
        code: -32011,
        message: 'upstream timeout; not charged',
        data: { retryable: true },
      });
    }
    // One upstream request for all eleven: no follower went on to wait out a timeout of its own.
    expect(proxy.count('eth_blockNumber') - before).toBe(1);
    expect((await usageOf(gw, key)).total).toBe(usedBefore);
  });

  it('never merges eth_sendRawTransaction', async () => {
    const account = await funded();
    const wallet = createWalletClient({ account, chain: foundry, transport: viemHttp(anvil.url) });
    const raw = await wallet.signTransaction(
      await wallet.prepareTransactionRequest({ to: someAddress(), value: 1n }),
    );
    proxy.set({ delayMs: 200 });
    const before = proxy.count('eth_sendRawTransaction');
    const answers = await Promise.all(
      [1, 2].map((id) => post(rpcUrl, call('eth_sendRawTransaction', [raw], id))),
    );
    expect(proxy.count('eth_sendRawTransaction') - before).toBe(2);
    // The same signed transaction twice: one lands; anvil answers the second itself.
    expect(answers.some((a) => typeof a.json.result === 'string')).toBe(true);
  });
});

describe('the head-aware cache', () => {
  const balanceOf = (address: string, id = 1) => call('eth_getBalance', [address, 'latest'], id);

  /** Sends value to `to` straight to anvil (not through the gateway): a new block. */
  async function transferDirect(to: string): Promise<void> {
    const client = createWalletClient({
      account: await funded(),
      chain: foundry,
      transport: viemHttp(anvil.url),
    });
    const hash = await client.sendTransaction({ to: to as `0x${string}`, value: 12345n });
    // The hash can come back before anvil's block holds the transfer: wait for its receipt.
    await createPublicClient({
      chain: foundry,
      transport: viemHttp(anvil.url),
    }).waitForTransactionReceipt({ hash, pollingInterval: 20 });
  }

  async function staysFresh(gw: RunningGateway, rpcUrl: string, key: string): Promise<void> {
    const target = someAddress();
    const usedBefore = (await usageOf(gw, key)).methods.eth_getBalance ?? 0;
    // The gateway's first head: from here on, a latest answer lasts until the next one.
    await post(rpcUrl, call('eth_blockNumber'));
    await headSettled(gw);
    const before = proxy.count('eth_getBalance');
    const first = await post(rpcUrl, balanceOf(target, 1));
    const second = await post(rpcUrl, balanceOf(target, 2));
    expect(second.json).toEqual({ ...first.json, id: 2 });
    expect(proxy.count('eth_getBalance') - before).toBe(1); // the second came from memory

    const headBefore = BigInt((await post(anvil.url, call('eth_blockNumber'))).json.result);
    await transferDirect(target);
    const expected = (await post(anvil.url, balanceOf(target))).json.result;
    expect(expected).not.toBe(first.json.result);
    // Once the gateway has seen the new head, no `latest` answer of the old head is served.
    const mined = Date.now();
    let reads = 2;
    for (;;) {
      const head = BigInt((await post(rpcUrl, call('eth_blockNumber'))).json.result);
      const balance = (await post(rpcUrl, balanceOf(target, 3))).json.result;
      reads += 1;
      if (head > headBefore) {
        expect(balance).toBe(expected);
        break;
      }
      // Only so a gateway that never sees the head fails here: 40 polls of 250 ms.
      expect(Date.now() - mined).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Cached or not, each answer was charged.
    expect((await usageOf(gw, key)).methods.eth_getBalance).toBe(usedBefore + reads * 80);
  }

  it('serves latest reads from memory until the next head (polled), never past it', async () => {
    const { gw, key, rpcUrl } = await gatewayOnProxy({ headPollMs: 250 });
    try {
      await staysFresh(gw, rpcUrl, key);
    } finally {
      await gw.close();
    }
  });

  it('follows the head from newHeads when a WebSocket upstream is configured', async () => {
    const { gw, key, rpcUrl } = await gatewayOnProxy({ wsUpstream: anvil.wsUrl });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300)); // subscribed
      await staysFresh(gw, rpcUrl, key);
    } finally {
      await gw.close();
    }
  });

  it('a write through the gateway ends latest answers at once', async () => {
    const { gw, rpcUrl } = await gatewayOnProxy({ headPollMs: 60_000 });
    try {
      const sender = await funded();
      const nonce = (id: number) => call('eth_getTransactionCount', [sender.address, 'latest'], id);
      await new Promise((resolve) => setTimeout(resolve, 200)); // first head seen
      const before = (await post(rpcUrl, nonce(1))).json.result;
      expect((await post(rpcUrl, nonce(2))).json.result).toBe(before);
      const client = createWalletClient({
        account: sender,
        chain: foundry,
        transport: viemHttp(rpcUrl),
      });
      const hash = await client.sendTransaction({ to: someAddress(), value: 1n });
      // anvil may answer the hash before its block holds the transfer (seen under load).
      await createPublicClient({
        chain: foundry,
        transport: viemHttp(anvil.url),
      }).waitForTransactionReceipt({ hash, pollingInterval: 20 });
      // The head poll is a minute away: the write alone made the cached nonce stale.
      expect(BigInt((await post(rpcUrl, nonce(3))).json.result)).toBe(BigInt(before) + 1n);
    } finally {
      await gw.close();
    }
  });

  it('keeps blocks below finality and the chain id; never null, pending or recent blocks', async () => {
    const { gw, key, rpcUrl } = await gatewayOnProxy({ finalityDepth: 2 });
    try {
      await post(rpcUrl, call('eth_blockNumber')); // the head, known to the gateway at once
      const head = BigInt((await post(anvil.url, call('eth_blockNumber'))).json.result);
      const hex = (n: bigint) => `0x${n.toString(16)}`;
      const block = (tag: string, id = 1) => call('eth_getBlockByNumber', [tag, false], id);
      /** Upstream calls for two of the same call; both answers alike unless made afresh. */
      const twice = async (body: (id: number) => unknown, method: string, afresh = false) => {
        const before = proxy.count(method);
        const a = await post(rpcUrl, body(1));
        const b = await post(rpcUrl, body(2));
        if (!afresh) expect(b.json).toEqual({ ...a.json, id: 2 });
        return proxy.count(method) - before;
      };
      expect(await twice((id) => block(hex(head - 3n), id), 'eth_getBlockByNumber')).toBe(1);
      expect(await twice((id) => block(hex(head), id), 'eth_getBlockByNumber')).toBe(2);
      // The pending block is made afresh for each call: anvil gives it a hash and the time of
      // the call, so two calls a second apart get two blocks.
      expect(await twice((id) => block('pending', id), 'eth_getBlockByNumber', true)).toBe(2);
      expect(await twice((id) => block(hex(head + 1000n), id), 'eth_getBlockByNumber')).toBe(2);
      expect(await twice((id) => call('eth_chainId', [], id), 'eth_chainId')).toBeLessThanOrEqual(
        1,
      );
      const usage = await usageOf(gw, key);
      expect(usage.methods.eth_getBlockByNumber).toBe(8 * 80);
      const metrics = await (await request(`${gw.url}/metrics`)).body.text();
      const entries = Number(/gateway_cache_entries\{chain="local"\} (\d+)/.exec(metrics)?.[1]);
      const bytes = Number(/gateway_cache_bytes\{chain="local"\} (\d+)/.exec(metrics)?.[1]);
      expect(entries).toBeGreaterThanOrEqual(2);
      expect(bytes).toBeGreaterThan(100);
    } finally {
      await gw.close();
    }
  });

  it('stays within its entry and byte bounds', async () => {
    const { gw, rpcUrl } = await gatewayOnProxy({ finalityDepth: 1 }, { cacheEntries: 5 });
    try {
      await post(anvil.url, call('anvil_mine', ['0x10']));
      await headSettled(gw);
      for (let n = 0; n <= 12; n++) {
        await post(rpcUrl, call('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]));
      }
      const metrics = await (await request(`${gw.url}/metrics`)).body.text();
      // At the bound it drops the oldest in bulk, down to 4 here (a sixteenth of 5, at least 1).
      const entries = Number(/gateway_cache_entries\{chain="local"\} (\d+)/.exec(metrics)?.[1]);
      expect(entries).toBeLessThanOrEqual(5);
      expect(entries).toBeGreaterThanOrEqual(4);
    } finally {
      await gw.close();
    }
  });
});
