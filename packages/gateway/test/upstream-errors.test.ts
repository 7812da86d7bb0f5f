/**
 * Upstream errors are the upstream's, not the caller's: a provider's HTTP 429 / 401 / 403 and a
 * JSON-RPC -32005 limit fail over to the next upstream, mark the refusing one unhealthy with
 * backoff (/healthz and /metrics), and are never charged; when every upstream refuses, the
 * caller (and every merged follower) gets a retryable 503, uncharged; a write refused by one
 * provider lands through the next; upstream error text is relayed scrubbed of credentials.
 * Two scripted upstreams (the testkit's) in front of one real anvil.
 */
import {
  ANVIL_ACCOUNTS,
  type AnvilService,
  type ScriptedUpstream,
  startAnvil,
  startScriptedUpstream,
} from '@l2wallet/testkit';
import { request } from 'undici';
import { createWalletClient, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { RunningGateway } from '../src/server';
import { addKey, call, gatewayConfig, post, startWithKey, usageOf } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A provider key in the first upstream's URL: the gateway must never relay it. */
const PROVIDER_KEY = '5f3c9a0b7e2d41c6a8b9f0e1d2c3b4a5';

let anvil: AnvilService;
let first: ScriptedUpstream;
let second: ScriptedUpstream;
let gw: RunningGateway;
let key: string;
let rpcUrl: string;

beforeAll(async () => {
  anvil = await startAnvil();
  [first, second] = await Promise.all([
    startScriptedUpstream(anvil.url),
    startScriptedUpstream(anvil.url),
  ]);
  const config = gatewayConfig(first.url, { healthIntervalMs: 200 });
  config.chains[0].upstreams = [`${first.url}/v3/${PROVIDER_KEY}`, second.url];
  ({ gw, key, rpcUrl } = await startWithKey(config, { plan: 'team' }));
  await post(rpcUrl, call('eth_blockNumber'));
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([first?.stop(), second?.stop()]);
  await anvil?.stop();
});
afterEach(async () => {
  first.reset();
  second.reset();
  // Both healthy again before the next case (a backoff ends, then a health check passes).
  for (let i = 0; i < 100; i++) {
    const health = await healthOf();
    if (health.upstreams.every((u) => u.healthy)) return;
    await sleep(100);
  }
});

interface UpstreamHealth {
  upstream: string;
  healthy: boolean;
  backoffSeconds: number;
  lastFailure?: string;
}
async function healthOf(): Promise<{ upstreams: UpstreamHealth[] }> {
  const body = (await (await request(`${gw.url}/healthz`)).body.json()) as {
    chains: { upstreams: UpstreamHealth[] }[];
  };
  return body.chains[0];
}
const metrics = async () => (await request(`${gw.url}/metrics`)).body.text();

let distinct = 0;
const freshCall = (id = 1) =>
  call(
    'eth_call',
    [{ to: '0x' + '11'.repeat(20), data: `0x${(++distinct).toString(16).padStart(8, '0')}` }],
    id,
  );

describe.each([
  ['an HTTP 429 with a -32005 body and Retry-After', { status: 429, retry: true }],
  ['an HTTP 401', { status: 401, retry: false }],
  ['an HTTP 403', { status: 403, retry: false }],
  ['a JSON-RPC -32005 limit error at HTTP 200', { status: 200, retry: false }],
])('a provider refusing with %s', (_what, { status, retry }) => {
  it('fails over to the next upstream, charges only the answer, and backs the refuser off', async () => {
    first.set({
      status,
      error: { code: -32005, message: `daily request count exceeded for project ${PROVIDER_KEY}` },
      ...(retry ? { headers: { 'retry-after': '2' } } : {}),
    });
    const apiKey = await addKey(gw, { plan: 'free' });
    const url = `${gw.url}/v3/${apiKey}`;
    const began = Date.now();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(url, freshCall(i)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.json.result).toBe('0x');
    }
    expect((await usageOf(gw, apiKey)).total).toBe(6 * 80);
    // The refuser is backed off by a client's call or by the next health check (every 200 ms),
    // whichever reaches it first: on a loaded machine the calls may all have gone to the other.
    let health = await healthOf();
    for (let i = 0; i < 50 && health.upstreams[0].healthy; i++) {
      await sleep(100);
      health = await healthOf();
    }
    expect(health.upstreams[0]).toMatchObject({ healthy: false, lastFailure: 'refused' });
    expect(health.upstreams[0].backoffSeconds).toBeGreaterThan(0);
    if (retry) {
      // Retry-After: 2 (not the 1 s base): the backoff ends at least 2 s after the first call.
      const endsAfterStartMs = health.upstreams[0].backoffSeconds * 1000 + (Date.now() - began);
      expect(endsAfterStartMs).toBeGreaterThanOrEqual(1900);
    }
    expect(health.upstreams[1].healthy).toBe(true);
    const text = await metrics();
    expect(text).toMatch(
      /gateway_upstream_failures_total\{upstream="local\/0",reason="refused"\} [1-9]/,
    );
    expect(text).toMatch(/gateway_upstream_healthy\{upstream="local\/0"\} 0/);
    expect(text).not.toContain(PROVIDER_KEY);
  });
});

it('backs off a provider whose -32005 refusal at HTTP 200 a health check meets, as refused', async () => {
  // No call of a client reaches it first: its health check alone meets the refusal.
  first.set({ status: 200, error: { code: -32005, message: 'daily request count exceeded' } });
  let health = await healthOf();
  for (let i = 0; i < 50 && health.upstreams[0].healthy; i++) {
    await sleep(100);
    health = await healthOf();
  }
  expect(health.upstreams[0]).toMatchObject({ healthy: false, lastFailure: 'refused' });
  expect(health.upstreams[1].healthy).toBe(true);
  expect(await metrics()).toMatch(
    /gateway_upstream_failures_total\{upstream="local\/0",reason="refused"\} [1-9]/,
  );
});

it('sends a write refused by one provider to the next, where it lands once', async () => {
  first.set({ status: 429, error: { code: -32005, message: 'rate limited' } });
  const account = privateKeyToAccount(ANVIL_ACCOUNTS[2].privateKey);
  const wallet = createWalletClient({ account, chain: foundry, transport: viemHttp(anvil.url) });
  const raw = await wallet.signTransaction(
    await wallet.prepareTransactionRequest({ to: ANVIL_ACCOUNTS[1].address, value: 1n }),
  );
  const used = (await usageOf(gw, key)).total;
  // Whichever upstream the rotation starts with, the write reaches anvil once.
  const sent = await post(rpcUrl, call('eth_sendRawTransaction', [raw]));
  expect(sent.status).toBe(200);
  expect(sent.json.error).toBeUndefined();
  expect(sent.json.result).toMatch(/^0x[0-9a-f]{64}$/);
  expect(second.count('eth_sendRawTransaction')).toBe(1);
  expect((await usageOf(gw, key)).total).toBe(used + 80);
});

it('relays an upstream error answer scrubbed of credentials, and charges it (it is the chain’s answer)', async () => {
  const bearer = 'abcDEF123456ghiJKL789';
  second.set({
    methods: ['eth_getLogs'],
    error: {
      code: -32000,
      message: `query failed at https://svc:hunter2secret@node.example/v3/${PROVIDER_KEY} (Authorization: Bearer ${bearer})`,
      data: { upstream: `https://node.example/rpc?apikey=${PROVIDER_KEY}` },
    },
  });
  first.set({
    methods: ['eth_getLogs'],
    error: { code: -32000, message: `bad filter for /v3/${PROVIDER_KEY}` },
  });
  const used = (await usageOf(gw, key)).total;
  const answer = await post(rpcUrl, call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x1' }]));
  expect(answer.status).toBe(200);
  expect(answer.json.error.code).toBe(-32000);
  for (const secret of [PROVIDER_KEY, 'hunter2secret', bearer]) {
    expect(answer.text).not.toContain(secret);
  }
  expect(answer.text).toContain('***');
  expect((await usageOf(gw, key)).total).toBe(used + 255);
});

it('serves from the refusing upstream again once its backoff is over and it answers', async () => {
  first.set({
    status: 429,
    headers: { 'retry-after': '1' },
    error: { code: 429, message: 'slow down' },
  });
  for (let i = 0; i < 4; i++) expect((await post(rpcUrl, freshCall(i))).status).toBe(200);
  expect((await healthOf()).upstreams[0].healthy).toBe(false);
  first.reset();
  // Retry-After 1 s, and the backoff doubles if a probe met the refusal too. Once it is over, a
  // health check (every 200 ms) probes it; the 10 s after that are only so one never made fails.
  let backoffOverAt: number | undefined;
  for (;;) {
    const [upstream] = (await healthOf()).upstreams;
    if (upstream.healthy) break;
    backoffOverAt = upstream.backoffSeconds > 0 ? undefined : (backoffOverAt ?? Date.now());
    if (backoffOverAt !== undefined) expect(Date.now() - backoffOverAt).toBeLessThan(10_000);
    await sleep(100);
  }
  const before = first.count('eth_call');
  for (let i = 0; i < 6; i++) expect((await post(rpcUrl, freshCall(i))).status).toBe(200);
  expect(first.count('eth_call')).toBeGreaterThan(before);
});

// Last: both upstreams end in a long backoff.
it('when every upstream refuses: a retryable 503 for the caller and every merged follower, uncharged', async () => {
  first.set({ status: 429, error: { code: -32005, message: 'rate limited' } });
  second.set({ status: 200, error: { code: -32005, message: 'limit exceeded' }, delayMs: 200 });
  const apiKey = await addKey(gw, { plan: 'team' });
  const url = `${gw.url}/v3/${apiKey}`;
  const same = freshCall();
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => post(url, { ...same, id: i })),
  );
  for (const [i, answer] of answers.entries()) {
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({
      jsonrpc: '2.0',
      id: i,
      error: {
        code: -32010,
        message: 'upstream unavailable; not charged',
        data: { retryable: true },
      },
    });
  }
  expect((await usageOf(gw, apiKey)).total).toBe(0);
});
