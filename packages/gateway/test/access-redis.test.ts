/**
 * A key's controls on the Redis ledger: a control changed in the registry (`keys allow` writes
 * the same record) reaches a running gateway within a second; refusals are counted in Redis by
 * cause; the credit headers follow the key's balance.
 */
import { type AnvilService, type RedisService, startAnvil, startRedis } from '@l2wallet/testkit';
import { withAllowlists } from '../src/auth/controls';
import { sha256 } from '../src/auth/keys';
import { startGateway, type RunningGateway } from '../src/server';
import { makeKey, sleep } from './accessHelpers';
import { call, gatewayConfig, post, usageOf } from './helpers';

let anvil: AnvilService;
let redis: RedisService;
let gw: RunningGateway;

beforeAll(async () => {
  [anvil, redis] = await Promise.all([startAnvil(), startRedis()]);
  gw = await startGateway(gatewayConfig(anvil.url, { ledger: { redis: redis.url } }));
});

afterAll(async () => {
  await gw?.close();
  await redis?.stop();
  await anvil?.stop();
});

it('applies a changed allowlist within a second and counts refusals in Redis', async () => {
  // Enough credit that polling for the change cannot run the key dry (a 402, not the 403 awaited).
  const { key, url } = await makeKey(gw, { dailyCredits: 1_000_000 });
  const first = await post(url, call('eth_blockNumber'));
  expect(first.status).toBe(200);
  expect(first.headers['x-credits-cost']).toBe('80');
  expect(first.headers['x-credits-remaining']).toBe('999920');

  const record = (await gw.gateway.keys.get(sha256(key)))!;
  expect(await gw.gateway.keys.update(withAllowlists(record, { methods: ['eth_chainId'] }))).toBe(
    true,
  );
  const changedAt = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - changedAt < 3000) {
    status = (await post(url, call('eth_blockNumber'))).status;
    if (status === 200) await sleep(10);
  }
  expect(status).toBe(403);
  expect(Date.now() - changedAt).toBeLessThan(1000);
  expect((await post(url, call('eth_chainId'))).status).toBe(200);
  await sleep(300);
  const usage = (await usageOf(gw, key)) as unknown as { refused: Record<string, number> };
  expect(usage.refused.allowlist).toBe(1);
  // Written to Redis: a second gateway on it sees the same count.
  const other = await startGateway(gatewayConfig(anvil.url, { ledger: { redis: redis.url } }));
  try {
    const seen = (await usageOf(other, key)) as unknown as { refused: Record<string, number> };
    expect(seen.refused).toEqual({ secret: 0, jwt: 0, allowlist: 1, credit: 0, rate: 0 });
  } finally {
    await other.close();
  }
  // An unknown key is not created by an update.
  expect(await gw.gateway.keys.update({ ...record, hash: '0'.repeat(64) })).toBe(false);
});
