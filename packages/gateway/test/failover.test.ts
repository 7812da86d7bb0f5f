/**
 * Upstream failures: eth_getProof failover to an independent partner anvil (started with
 * --load-state from the primary's dump, not --fork-url), and retry of reads past a dead or a
 * hanging upstream.
 */
import path from 'node:path';
import {
  type AnvilService,
  type ScriptedUpstream,
  startAnvil,
  startScriptedUpstream,
} from '@l2wallet/testkit';
import { request } from 'undici';
import type { RunningGateway } from '../src/server';
import {
  addKey,
  call,
  gatewayConfig,
  post,
  seedChain,
  type Seeded,
  tempDir,
  usageOf,
} from './helpers';
import { startGateway } from '../src/server';

let primary: AnvilService;
let partner: AnvilService;
let seeded: Seeded;
let gw: RunningGateway;
let hanging: ScriptedUpstream;

beforeAll(async () => {
  const state = path.join(tempDir(), 'state.json');
  const first = await startAnvil({ args: ['--dump-state', state] });
  seeded = await seedChain(first.url);
  await first.stop(); // SIGTERM writes the dump
  [primary, partner] = await Promise.all([
    startAnvil({ args: ['--load-state', state] }),
    startAnvil({ args: ['--load-state', state] }),
  ]);
  // An upstream that reads each request and never answers; it counts the calls it received.
  hanging = await startScriptedUpstream(partner.url);
  hanging.set({ hang: true });
  const hangingUrl = hanging.url;
  gw = await startGateway(
    gatewayConfig(primary.url, {
      upstreamTimeoutMs: 500,
      healthIntervalMs: 200,
      chains: [
        { name: 'local', hosts: ['127.0.0.1'], upstreams: [primary.url], partner: partner.url },
        {
          name: 'several',
          hosts: ['several.test'],
          upstreams: ['http://127.0.0.1:9', hangingUrl, partner.url],
        },
      ],
    }),
  );
});

afterAll(async () => {
  await gw?.close();
  await hanging?.stop();
  await Promise.all([primary?.stop(), partner?.stop()]);
});

it('retries reads past a dead and a hanging upstream, then skips them', async () => {
  const key = await addKey(gw, { plan: 'free' });
  const url = `${gw.url}/v3/${key}`;
  const host = { host: 'several.test' };
  const answers = await Promise.all(
    [1, 2, 3].map((i) => post(url, call('eth_chainId', [], i), host)),
  );
  expect(answers.map((a) => a.json.result)).toEqual(['0x7a69', '0x7a69', '0x7a69']);
  // Their probes (health checks and head polls) time out: both are reported unhealthy.
  const upstreamsHealth = async () => {
    const health = (await (await request(`${gw.url}/healthz`)).body.json()) as {
      chains: { name: string; upstreams: { healthy: boolean }[] }[];
    };
    return health.chains[1].upstreams.map((u) => u.healthy);
  };
  const waitedFrom = Date.now();
  while ((await upstreamsHealth()).join() !== 'false,false,true') {
    // Only so a gateway that never marks them fails here: their probes time out in 0.5 s.
    expect(Date.now() - waitedFrom).toBeLessThan(20_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Reads that go upstream (a chain id is kept in memory; a `latest` read skips any upstream
  // behind the head, healthy or not), each of another address: none reaches the hanging one.
  const block = (await post(partner.url, call('eth_blockNumber'))).json.result as string;
  for (let i = 0; i < 5; i++) {
    const address = `0x${'f'.repeat(39)}${i}`;
    const answer = await post(url, call('eth_getBalance', [address, block]), host);
    expect(answer.json.result).toBe('0x0');
  }
  expect(hanging.count('eth_getBalance')).toBe(0);
  expect((await usageOf(gw, key)).total).toBe(3 * 5 + 5 * 80);
});

it('answers eth_getProof from the partner for failover keys when the primary is down', async () => {
  const team = await addKey(gw, { plan: 'team' });
  const flagged = await addKey(gw, { plan: 'free', failover: true });
  const plain = await addKey(gw, { plan: 'free' });
  const proof = call('eth_getProof', [seeded.contract, ['0x' + '00'.repeat(32)], 'latest'], 5);
  const fromPrimary = await post(`${gw.url}/v3/${team}`, proof);
  expect(fromPrimary.text).toBe((await post(primary.url, proof)).text);

  await primary.stop();
  const fromPartner = (await post(partner.url, proof)).text;
  for (const key of [team, flagged]) {
    const answer = await post(`${gw.url}/v3/${key}`, proof);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(fromPartner);
    expect(answer.json.result.storageProof[0].value).toBe('0x2a');
  }
  expect((await usageOf(gw, flagged)).total).toBe(150);
  // Another slot: the answer above may still be served from memory until the next head.
  const otherSlot = call('eth_getProof', [
    seeded.contract,
    ['0x' + '00'.repeat(31) + '01'],
    'latest',
  ]);
  const refused = await post(`${gw.url}/v3/${plain}`, otherSlot);
  expect(refused.status).toBe(503);
  expect((await usageOf(gw, plain)).total).toBe(0);
  // Failover is for eth_getProof only.
  expect((await post(`${gw.url}/v3/${team}`, call('eth_blockNumber'))).status).toBe(503);
});
