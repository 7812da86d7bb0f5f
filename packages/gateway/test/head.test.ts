/**
 * The head as (number, hash), against real anvil nodes: a same-height reorg made with
 * evm_snapshot / evm_revert drops the `latest` answers and the answers cached above the fork
 * point, and counts in /metrics; with two upstreams at different heights the head is the
 * higher one and never moves back, `latest` reads never go to the one that lags, and
 * eth_blockNumber never goes back for any client; finalityDepth and headPollMs are checked.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AnvilService,
  type ScriptedUpstream,
  startAnvil,
  startScriptedUpstream,
} from '@l2wallet/testkit';
import { request } from 'undici';
import { loadConfig } from '../src/config';
import { startGateway, type RunningGateway } from '../src/server';
import { call, gatewayConfig, post, startWithKey, tempDir, usageOf } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hex = (n: bigint) => `0x${n.toString(16)}`;
const WHO = '0x' + '42'.repeat(20);

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${String(value)}`);
    await sleep(50);
  }
}

async function metric(gw: RunningGateway, pattern: RegExp): Promise<number> {
  const text = await (await request(`${gw.url}/metrics`)).body.text();
  return Number(pattern.exec(text)?.[1] ?? NaN);
}

const headOf = async (url: string) =>
  BigInt((await post(url, call('eth_blockNumber'))).json.result);

describe('a same-height reorg (evm_snapshot / evm_revert)', () => {
  let anvil: AnvilService;
  let upstream: ScriptedUpstream;
  beforeAll(async () => {
    anvil = await startAnvil();
    upstream = await startScriptedUpstream(anvil.url);
  });
  afterAll(async () => {
    await upstream?.stop();
    await anvil?.stop();
  });

  it('drops latest answers and those above the fork point, counts it, and never goes back', async () => {
    const config = gatewayConfig(upstream.url);
    Object.assign(config.chains[0], { finalityDepth: 1, headPollMs: 100 });
    const { gw, key, rpcUrl } = await startWithKey(config);
    try {
      const start = await headOf(anvil.url);
      const snapshot = (await post(anvil.url, call('evm_snapshot'))).json.result;
      // The first branch: WHO gets 1 wei in block start+1, then two empty blocks.
      await post(anvil.url, call('anvil_setBalance', [WHO, '0x1']));
      await post(anvil.url, call('evm_mine'));
      await post(anvil.url, call('anvil_mine', ['0x2']));
      const top = start + 3n;
      await until(
        'the head',
        () => headOf(rpcUrl),
        (n) => n === top,
      );
      // A poll with the head's hash (it starts a new generation of `latest` answers).
      const { head } = gw.gateway.router.chains[0];
      await until(
        "the head's hash",
        async () => head.hash,
        (hash) => hash !== undefined && head.number === top,
      );
      const reads = [
        call('eth_getBlockByNumber', [hex(start + 1n), false]), // final (depth 1): kept for good
        call('eth_getBalance', [WHO, hex(start + 1n)]), // at a final block: kept for good
        call('eth_getBalance', [WHO, 'latest']), // kept until the next head
      ];
      const first = await Promise.all(reads.map((body) => post(rpcUrl, body)));
      expect(first[1].json.result).toBe('0x1');
      expect(first[2].json.result).toBe('0x1');
      const forwarded = () =>
        upstream.count('eth_getBlockByNumber') + upstream.count('eth_getBalance');
      const before = forwarded();
      const again = await Promise.all(reads.map((body) => post(rpcUrl, body)));
      expect(again.map((a) => a.json)).toEqual(first.map((a) => a.json));
      expect(forwarded()).toBe(before); // all three from memory

      // The second branch from the same parent, to the same height: WHO gets 2 wei.
      await post(anvil.url, call('evm_revert', [snapshot]));
      await post(anvil.url, call('anvil_setBalance', [WHO, '0x2']));
      await post(anvil.url, call('evm_mine'));
      await post(anvil.url, call('anvil_mine', ['0x2']));
      expect(await headOf(anvil.url)).toBe(top);
      const newBlock = (await post(anvil.url, reads[0])).json.result;
      expect(newBlock.hash).not.toBe(first[0].json.result.hash);

      await until(
        'the reorg in /metrics',
        () => metric(gw, /gateway_reorgs_total\{chain="local"\} (\d+)/),
        (n) => n >= 1,
      );
      // The block number never went back. A poll may have caught the upstream mid-way up the new
      // branch (below the head): latest reads are then refused, retryable, until it is back at
      // the head, never answered from behind. The first number answered is the head.
      const answered = await until(
        'eth_blockNumber answered',
        () => post(rpcUrl, call('eth_blockNumber')),
        (answer) => answer.status === 200 && answer.json.result !== undefined,
      );
      expect(BigInt(answered.json.result)).toBe(top);
      // And every answer is of the new branch.
      const after = await until(
        'answers of the new branch',
        () => Promise.all(reads.map((body) => post(rpcUrl, body))),
        (answers) => answers.every((a) => a.status === 200),
      );
      expect(after[0].json.result.hash).toBe(newBlock.hash);
      expect(after[1].json.result).toBe('0x2');
      expect(after[2].json.result).toBe('0x2');
      const health = (await (await request(`${gw.url}/healthz`)).body.json()) as {
        chains: { head: number; reorgs: number }[];
      };
      expect(health.chains[0].head).toBe(Number(top));
      expect(health.chains[0].reorgs).toBeGreaterThanOrEqual(1);
      // Every answer was charged; none was free.
      expect((await usageOf(gw, key)).methods.eth_getBalance).toBeGreaterThanOrEqual(4 * 80);
    } finally {
      await gw.close();
    }
  });
});

describe('two upstreams at different heights', () => {
  let behind: AnvilService;
  let ahead: AnvilService;
  let toBehind: ScriptedUpstream;
  let toAhead: ScriptedUpstream;
  let gw: RunningGateway;
  let rpcUrl: string;
  let key: string;

  beforeAll(async () => {
    [behind, ahead] = await Promise.all([startAnvil(), startAnvil()]);
    // Same chain id, different heights and state: WHO holds 5 wei only on the one ahead.
    await post(ahead.url, call('anvil_mine', ['0x5']));
    await post(ahead.url, call('anvil_setBalance', [WHO, '0x5']));
    await post(ahead.url, call('evm_mine'));
    [toBehind, toAhead] = await Promise.all([
      startScriptedUpstream(behind.url),
      startScriptedUpstream(ahead.url),
    ]);
    const config = gatewayConfig(toBehind.url, { healthIntervalMs: 200 });
    config.chains[0].upstreams = [toBehind.url, toAhead.url];
    config.chains[0].headPollMs = 100;
    ({ gw, key, rpcUrl } = await startWithKey(config));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([toBehind?.stop(), toAhead?.stop()]);
    await Promise.all([behind?.stop(), ahead?.stop()]);
  });
  afterEach(() => {
    toBehind.reset();
    toAhead.reset();
  });

  it('follows the higher upstream; latest reads never reach the one that lags', async () => {
    const top = await headOf(ahead.url);
    expect(await headOf(behind.url)).toBeLessThan(top);
    await until(
      'the head',
      () => headOf(rpcUrl),
      (n) => n === top,
    );
    const behindBefore = toBehind.calls().length;
    const heads: bigint[] = [];
    const balances: string[] = [];
    for (let i = 0; i < 30; i++) {
      heads.push(await headOf(rpcUrl));
      balances.push((await post(rpcUrl, call('eth_getBalance', [WHO, 'latest'], i))).json.result);
      const latest = (await post(rpcUrl, call('eth_getBlockByNumber', ['latest', false]))).json;
      expect(BigInt(latest.result.number)).toBe(top);
      await sleep(20); // across several head polls of both
    }
    expect(heads.every((n) => n === top)).toBe(true);
    expect(new Set(balances)).toEqual(new Set(['0x5']));
    // The client calls that reached the lagging upstream: none of these latest reads.
    const toLagging = toBehind
      .calls()
      .slice(behindBefore)
      .filter((c) => !c.batch)
      .map((c) => c.method);
    expect(toLagging).not.toContain('eth_getBalance');
    expect(toLagging).not.toContain('eth_getBlockByNumber');
    expect(toLagging).not.toContain('eth_blockNumber');
    // Other reads use both.
    for (let i = 0; i < 6; i++) await post(rpcUrl, call('eth_chainId', [], i));
  });

  it('with the upstream at the head refusing, latest reads fail uncharged, never older, and the head holds', async () => {
    const top = await headOf(ahead.url);
    const used = (await usageOf(gw, key)).total;
    toAhead.set({ status: 503, body: 'unavailable' });
    // Not asked before (an answer already in memory for this head would still be served).
    const other = '0x' + '43'.repeat(20);
    const answers = await Promise.all(
      [0, 1, 2].map((i) => post(rpcUrl, call('eth_getBalance', [other, 'latest'], i))),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.json.error).toMatchObject({ code: -32010, data: { retryable: true } });
    }
    // A read that needs no head is served by the one behind meanwhile, and charged.
    expect((await post(rpcUrl, call('eth_chainId'))).json.result).toBe('0x7a69');
    expect((await usageOf(gw, key)).total).toBe(used + 5);
    const health = (await (await request(`${gw.url}/healthz`)).body.json()) as {
      chains: { head: number; upstreams: { healthy: boolean; atHead: boolean }[] }[];
    };
    expect(health.chains[0].head).toBe(Number(top));
    expect(health.chains[0].upstreams.map((u) => u.atHead)).toEqual([false, true]);
    expect(health.chains[0].upstreams[1].healthy).toBe(false);
  });

  it('moves to the other upstream once it passes the head, and the number still never goes back', async () => {
    const top = await headOf(ahead.url);
    toAhead.set({ status: 503, body: 'unavailable' });
    await post(behind.url, call('anvil_mine', [hex(top - (await headOf(behind.url)) + 2n)]));
    const passed = await until(
      'the head to pass',
      () => headOf(rpcUrl),
      (n) => n > top,
    );
    expect(passed).toBe(top + 2n);
    expect((await post(rpcUrl, call('eth_getBalance', [WHO, 'latest']))).json.result).toBe('0x0');
    toAhead.reset();
    // The one that was ahead is behind now: the number does not go back to it.
    for (let i = 0; i < 10; i++) {
      expect(await headOf(rpcUrl)).toBeGreaterThanOrEqual(passed);
      await sleep(30);
    }
    expect(await metric(gw, /gateway_head\{chain="local"\} (\d+)/)).toBe(Number(passed));
  });
});

describe('finalityDepth and headPollMs', () => {
  it('refuses a finality depth or a head poll that could serve a reorged block as final', async () => {
    const dir = tempDir();
    const write = (chain: object) => {
      const file = path.join(dir, 'gateway.json');
      writeFileSync(
        file,
        JSON.stringify({
          ledger: { sqlite: 'gateway.db' },
          chains: [{ name: 'local', hosts: ['*'], upstreams: ['http://127.0.0.1:9'], ...chain }],
        }),
      );
      return file;
    };
    expect(() => loadConfig(write({ finalityDepth: 0 }))).toThrow(
      /finalityDepth must be an integer of at least 1/,
    );
    expect(() => loadConfig(write({ finalityDepth: 1.5 }))).toThrow(/finalityDepth/);
    expect(() => loadConfig(write({ headPollMs: 0 }))).toThrow(
      /headPollMs must be an integer from 20 to 60000/,
    );
    expect(() => loadConfig(write({ headPollMs: 600_000 }))).toThrow(/headPollMs/);
    expect(loadConfig(write({ finalityDepth: 1, headPollMs: 20 })).chains[0]).toMatchObject({
      finalityDepth: 1,
      headPollMs: 20,
    });
    // A config built by a program is checked the same way.
    const config = gatewayConfig('http://127.0.0.1:9');
    config.chains[0].finalityDepth = 0;
    await expect(startGateway(config)).rejects.toThrow(/finalityDepth/);
  });
});
