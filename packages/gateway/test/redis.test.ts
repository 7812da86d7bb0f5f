/**
 * Two gateway processes sharing one real redis-server: keys, balances and per-second limits are
 * one ledger. A key with credit for exactly N calls gets exactly N successes when 4N race
 * across both instances, and the ledger agrees.
 */
import { call, post, tempDir } from './helpers';
import {
  type AnvilService,
  type RedisService,
  createGatewayKey as createKey,
  ensureGatewayBuilt as ensureBuilt,
  gatewayCli as cli,
  serveGateway as serve,
  startAnvil,
  startRedis,
  writeGatewayConfig as writeConfig,
} from '@l2wallet/testkit';

let anvil: AnvilService;
let redis: RedisService;
let configFile: string;
let gateways: Awaited<ReturnType<typeof serve>>[] = [];

beforeAll(async () => {
  await ensureBuilt();
  [anvil, redis] = await Promise.all([startAnvil(), startRedis()]);
  configFile = writeConfig(tempDir(), {
    listen: { host: '127.0.0.1', port: 1 },
    ledger: { redis: redis.url },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
  });
  gateways = await Promise.all([serve(configFile), serve(configFile)]);
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await redis?.stop();
  await anvil?.stop();
});

it('gives exactly N successes of 4N racing calls across two instances', async () => {
  const N = 60;
  const key = await createKey(configFile, ['--plan', 'team', '--daily-credits', String(N * 80)]);
  const answers = await Promise.all(
    Array.from({ length: 4 * N }, (_, i) =>
      post(
        `${gateways[i % 2].url}/v3/${key}`,
        call('eth_call', [{ to: '0x' + '00'.repeat(20) }, 'latest'], i),
      ),
    ),
  );
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 402);
  expect(ok).toHaveLength(N);
  expect(refused).toHaveLength(3 * N);
  expect(ok.every((a) => a.json.result === '0x')).toBe(true);
  expect(refused.every((a) => a.json.error.code === -33000)).toBe(true);
  const usage = JSON.parse((await cli(['keys', 'usage', key, '--config', configFile])).stdout);
  expect(usage).toMatchObject({ total: N * 80, limit: N * 80, methods: { eth_call: N * 80 } });
  // Each refusal is counted once (each instance writes its counts within 250 ms).
  expect(usage.refused.credit).toBeLessThanOrEqual(3 * N);
});

it('shares the per-second limit across instances', async () => {
  const key = await createKey(configFile, [
    '--plan',
    'free',
    '--credits-per-second',
    String(3 * 80),
  ]);
  // Start at the top of a second so all calls land in one window.
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
  const from = Math.floor(Date.now() / 1000);
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      post(`${gateways[i % 2].url}/v3/${key}`, call('eth_blockNumber', [], i)),
    ),
  );
  // The seconds the calls were debited in (the gateways read this machine's clock): one, unless
  // a loaded machine made them reach the next. At most 3 in each: unshared, it would be 6.
  const windows = Math.floor(Date.now() / 1000) - from + 1;
  const ok = answers.filter((a) => a.status === 200).length;
  expect(ok).toBeGreaterThanOrEqual(3);
  expect(ok).toBeLessThanOrEqual(3 * windows);
  const limited = answers.filter((a) => a.status === 429);
  expect(limited).toHaveLength(8 - ok);
  expect(limited[0].json.error).toMatchObject({ code: -33200, data: { backoff_seconds: 1 } });
  const usage = JSON.parse((await cli(['keys', 'usage', key, '--config', configFile])).stdout);
  expect(usage.total).toBe(ok * 80);
});

it('sees a key revoked through either instance', async () => {
  const key = await createKey(configFile, ['--plan', 'free']);
  expect((await post(`${gateways[1].url}/v3/${key}`, call('eth_chainId'))).status).toBe(200);
  await cli(['keys', 'revoke', key, '--config', configFile]);
  await new Promise((resolve) => setTimeout(resolve, 600));
  for (const g of gateways)
    expect((await post(`${g.url}/v3/${key}`, call('eth_chainId'))).status).toBe(401);
});

it('warns at start when Redis does not persist (this one runs without AOF)', () => {
  for (const g of gateways) {
    expect(g.output()).toMatch(
      /warning: Redis at redis:\/\/127\.0\.0\.1:\d+ has append-only persistence off/,
    );
  }
});

it('warns at start when Redis answers writes before they are on disk (appendfsync everysec)', async () => {
  // With everysec, Redis answers a debit it has not yet written while an fsync is in progress:
  // a kill -9 of Redis then loses the debits of answers already sent (they were free).
  const outputs: Record<string, string> = {};
  for (const appendfsync of ['everysec', 'always'] as const) {
    const dir = tempDir();
    const persistent = await startRedis({ persistDir: dir, appendfsync });
    const gateway = await serve(
      writeConfig(dir, {
        listen: { host: '127.0.0.1', port: 1 },
        ledger: { redis: persistent.url },
        chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
      }),
    );
    // Read once it has exited: the warning goes to stderr, and serve() returns when the
    // listening line shows on stdout, which another pipe may bring first.
    await gateway.stop();
    outputs[appendfsync] = gateway.output();
    await persistent.stop();
  }
  expect(outputs.everysec).toMatch(
    /warning: Redis at redis:\/\/127\.0\.0\.1:\d+ syncs its append-only file with appendfsync everysec, so a crash can lose the debits of answers already sent \(run redis-server with --appendfsync always\)/,
  );
  expect(outputs.always).not.toMatch(/warning/);
});
