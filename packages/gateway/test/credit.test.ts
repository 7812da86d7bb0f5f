/**
 * Credit before work, read as an abuser would: a key that cannot pay makes no upstream call.
 * The upstream is a real anvil behind the testkit's scripted upstream, which counts every call
 * the gateway forwards. A key at its daily limit, a batch of 100 calls from a key in good
 * standing with credit for 10, a batch over the credits per second, merged followers that cannot
 * pay, WebSocket batches, on the SQLite, the Redis and the Redis Cluster ledger (whose busy keys
 * are debited from leases: src/credits/leases.ts); and a reservation whose call fails is released.
 */
import {
  type AnvilService,
  type RedisClusterService,
  type RedisService,
  type ScriptedUpstream,
  startAnvil,
  startRedis,
  startRedisCluster,
  startScriptedUpstream,
} from '@l2wallet/testkit';
import WebSocket from 'ws';
import type { RunningGateway } from '../src/server';
import { newKey } from '../src/auth/keys';
import type { LeasedLedger } from '../src/credits/leases';
import { addKey, call, gatewayConfig, post, tempDir, usageOf } from './helpers';
import { startGateway } from '../src/server';

let anvil: AnvilService;
let redis: RedisService;
let cluster: RedisClusterService;
let upstream: ScriptedUpstream;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  [anvil, redis, cluster] = await Promise.all([
    startAnvil(),
    startRedis(),
    // No node is restarted here: no append-only files to sync on every write.
    startRedisCluster({ masters: 3, persist: false }),
  ]);
  upstream = await startScriptedUpstream(anvil.url);
}, 60_000);
afterAll(async () => {
  await upstream?.stop();
  await Promise.all([anvil?.stop(), redis?.stop(), cluster?.stop()]);
});
afterEach(() => upstream.reset());

let distinct = 0;
/** An eth_call nobody else sends: never merged, never cached, one upstream call each. */
const freshCall = (id: number) =>
  call(
    'eth_call',
    [
      { to: '0x' + '11'.repeat(20), data: `0x${(++distinct).toString(16).padStart(8, '0')}` },
      'latest',
    ],
    id,
  );

describe.each([
  ['SQLite', () => ({ sqlite: `${tempDir()}/gateway.db` })],
  ['Redis', () => ({ redis: redis.url })],
  ['Redis Cluster', () => ({ redisCluster: cluster.urls })],
])('on the %s ledger', (_name, ledger) => {
  let gw: RunningGateway;
  /** The gateway's clock: real time, or a fixed instant a test sets. */
  let clock: number | undefined;
  beforeAll(async () => {
    // A generous upstream timeout: hundreds of calls at once on a loaded machine must be
    // answered, not timed out and refunded, for the counts below to be about credit alone.
    gw = await startGateway(
      gatewayConfig(upstream.url, { ledger: ledger(), upstreamTimeoutMs: 30_000 }),
      { now: () => clock ?? Date.now() },
    );
  });
  afterEach(() => {
    clock = undefined;
  });
  afterAll(() => gw?.close());

  const forwarded = (before: number) => upstream.count('eth_call') - before;

  it('a key at its daily limit gets 402 with no upstream call, one call at a time and racing', async () => {
    const key = await addKey(gw, { plan: 'free', dailyCredits: 3 * 80 });
    const url = `${gw.url}/v3/${key}`;
    const before = upstream.count('eth_call');
    const one = [];
    for (let i = 0; i < 5; i++) one.push((await post(url, freshCall(i))).status);
    expect(one).toEqual([200, 200, 200, 402, 402]);
    expect(forwarded(before)).toBe(3);
    // A new key with room for 5, 40 calls at once: 5 reach the upstream.
    const racing = await addKey(gw, { plan: 'free', dailyCredits: 5 * 80 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(`${gw.url}/v3/${racing}`, freshCall(i))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(35);
    expect(forwarded(before)).toBe(8);
    expect((await usageOf(gw, racing)).total).toBe(5 * 80);
  });

  it('a busy key gets exactly its credit: from leases, then call by call near its limit', async () => {
    const N = 400;
    const key = await addKey(gw, { plan: 'team', dailyCredits: N * 80, creditsPerSecond: 1e6 });
    const url = `${gw.url}/v3/${key}`;
    const ledger = gw.gateway.ledger as Partial<LeasedLedger>;
    const leasedBefore = ledger.debits?.leased ?? 0;
    const before = upstream.count('eth_call');
    // Six batches of 100 at once, then one more call: 400 answered, the rest refused unsent.
    const batches = await Promise.all(
      Array.from({ length: 6 }, (_, b) =>
        post(
          url,
          Array.from({ length: 100 }, (_, i) => freshCall(b * 100 + i)),
        ),
      ),
    );
    const answers = batches.flatMap(
      (batch) => batch.json as { result?: string; error?: { code: number } }[],
    );
    // Counted by outcome, so a failure shows what the other answers were.
    const outcomes: Record<string, number> = {};
    for (const a of answers) {
      const outcome = a.result !== undefined ? 'result' : String(a.error?.code);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    // Answers, upstream calls and charges in one comparison: a failure shows all three.
    const usage = await usageOf(gw, key);
    expect({
      outcomes,
      forwarded: forwarded(before),
      total: usage.total,
      left: usage.left,
      methods: usage.methods,
    }).toEqual({
      outcomes: { result: N, '-33000': 600 - N },
      forwarded: N,
      total: N * 80,
      left: 0,
      methods: { eth_call: N * 80 },
    });
    expect((await post(url, freshCall(600))).status).toBe(402);
    expect(forwarded(before)).toBe(N);
    // A shared ledger served most of them from leases.
    if (ledger.debits) expect(ledger.debits.leased - leasedBefore).toBeGreaterThan(N / 2);
  });

  it('a batch of 100 from a key in good standing with credit for 10 sends 10 upstream', async () => {
    const key = await addKey(gw, { plan: 'team', dailyCredits: 11 * 80 });
    const url = `${gw.url}/v3/${key}`;
    expect((await post(url, freshCall(0))).status).toBe(200); // in good standing
    const before = upstream.count('eth_call');
    const batch = await post(
      url,
      Array.from({ length: 100 }, (_, i) => freshCall(i + 1)),
    );
    expect(batch.status).toBe(200);
    const results = batch.json.filter((a: { result?: string }) => a.result !== undefined);
    const refused = batch.json.filter(
      (a: { error?: { code: number } }) => a.error?.code === -33000,
    );
    expect(results).toHaveLength(10);
    expect(refused).toHaveLength(90);
    expect(forwarded(before)).toBe(10);
    expect((await usageOf(gw, key)).total).toBe(11 * 80);
  });

  it('a batch of 100 over the credits per second sends only what the second pays for', async () => {
    const key = await addKey(gw, { plan: 'free', creditsPerSecond: 4 * 80 });
    const url = `${gw.url}/v3/${key}`;
    await sleep(1000 - (Date.now() % 1000) + 20); // one window for the whole batch
    const before = upstream.count('eth_call');
    const batch = await post(
      url,
      Array.from({ length: 100 }, (_, i) => freshCall(i)),
    );
    const results = batch.json.filter((a: { result?: string }) => a.result !== undefined);
    const limited = batch.json.filter(
      (a: { error?: { code: number } }) => a.error?.code === -33200,
    );
    // A loaded machine may let the batch span two windows: never more than two seconds' worth.
    expect(results.length).toBeGreaterThanOrEqual(4);
    expect(results.length).toBeLessThanOrEqual(8);
    expect(limited).toHaveLength(100 - results.length);
    expect(forwarded(before)).toBe(results.length);
    expect((await usageOf(gw, key)).total).toBe(results.length * 80);
  });

  it('merged followers that cannot pay are refused before they join, and never see the answer', async () => {
    const key = await addKey(gw, { plan: 'free', dailyCredits: 3 * 80 });
    const url = `${gw.url}/v3/${key}`;
    const same = freshCall(0);
    upstream.set({ delayMs: 300 });
    const before = upstream.count('eth_call');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(url, { ...same, id: i })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(7);
    expect(forwarded(before)).toBe(1);
    expect((await usageOf(gw, key)).total).toBe(3 * 80);
  });

  it('a WebSocket batch from a key with credit for 4 sends 4 upstream', async () => {
    const key = await addKey(gw, { plan: 'free', dailyCredits: 4 * 80 });
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/ws/v3/${key}`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    try {
      const before = upstream.count('eth_call');
      const answer = new Promise<{ result?: string; error?: { code: number } }[]>((resolve) =>
        ws.once('message', (data) => resolve(JSON.parse(data.toString()))),
      );
      ws.send(JSON.stringify(Array.from({ length: 30 }, (_, i) => freshCall(i))));
      const batch = await answer;
      expect(batch.filter((a) => a.result !== undefined)).toHaveLength(4);
      expect(batch.filter((a) => a.error?.code === -33000)).toHaveLength(26);
      expect(forwarded(before)).toBe(4);
    } finally {
      ws.close();
    }
  });

  it('releases the reservation of a call whose upstream fails', async () => {
    const key = await addKey(gw, { plan: 'free', dailyCredits: 2 * 80 });
    const url = `${gw.url}/v3/${key}`;
    upstream.set({ status: 502, body: 'bad gateway' });
    // One after another: each failure gives its reservation back before the next is made.
    const failed = [];
    for (let i = 0; i < 3; i++) failed.push((await post(url, freshCall(i))).status);
    expect(failed).toEqual([503, 503, 503]);
    expect((await usageOf(gw, key)).total).toBe(0);
    upstream.reset();
    await sleep(1200); // the failed upstream's backoff ends (it is the only one)
    const served = await Promise.all([1, 2, 3].map((i) => post(url, freshCall(i))));
    expect(served.map((a) => a.status).sort()).toEqual([200, 200, 402]);
    expect((await usageOf(gw, key)).total).toBe(2 * 80);
  });

  it('refunds a call that failed after midnight to the day of its debit', async () => {
    const record = newKey({ plan: 'free', dailyCredits: 1000 });
    await gw.gateway.keys.add(record.record);
    const url = `${gw.url}/v3/${record.key}`;
    const before = Date.parse('2026-03-01T23:59:59.900Z');
    const after = Date.parse('2026-03-02T00:00:00.300Z');
    clock = before;
    upstream.set({ delayMs: 400, status: 502, body: 'bad gateway' });
    const sent = upstream.count('eth_call');
    const answer = post(url, freshCall(1));
    // Debited, then sent: midnight passes while the upstream holds the call (this wait's timer
    // is due long before the upstream's 400 ms one, in this same process).
    while (upstream.count('eth_call') === sent) await sleep(5);
    clock = after;
    expect((await answer).status).toBe(503);
    const ledger = gw.gateway.ledger;
    // The debit went to the first day and came back from it; the second day owes nothing.
    expect((await ledger.usage(record.record.hash, before)).total).toBe(0);
    expect((await ledger.usage(record.record.hash, after)).total).toBe(0);
    expect((await ledger.usage(record.record.hash, after)).methods).toEqual({});
  });
});
