/**
 * A key's controls on the Redis ledger: a control changed in the registry (`keys allow` writes
 * the same record) reaches a running gateway once its record is KEY_TTL_MS old; refusals are
 * counted in Redis by cause; the credit headers follow the key's balance.
 */
import { type AnvilService, type RedisService, startAnvil, startRedis } from '@l2wallet/testkit';
import { withAllowlists } from '../src/auth/controls';
import { sha256 } from '../src/auth/keys';
import { KEY_TTL_MS } from '../src/calls';
import { startGateway, type RunningGateway } from '../src/server';
import { makeKey, sleep } from './accessHelpers';
import { call, gatewayConfig, post, usageOf } from './helpers';

let anvil: AnvilService;
let redis: RedisService;
let gw: RunningGateway;
/** How far the gateway's clock is ahead of Date.now(): moved to pass the key records' TTL. */
let ahead = 0;

beforeAll(async () => {
  [anvil, redis] = await Promise.all([startAnvil(), startRedis()]);
  gw = await startGateway(gatewayConfig(anvil.url, { ledger: { redis: redis.url } }), {
    now: () => Date.now() + ahead,
  });
});

afterAll(async () => {
  await gw?.close();
  await redis?.stop();
  await anvil?.stop();
});

it('applies a changed allowlist once the record is KEY_TTL_MS old and counts refusals in Redis', async () => {
  // A daily limit of its own: the remaining credit it shows is known.
  const { key, url } = await makeKey(gw, { dailyCredits: 1_000_000 });
  const first = await post(url, call('eth_blockNumber'));
  expect(first.status).toBe(200);
  expect(first.headers['x-credits-cost']).toBe('80');
  expect(first.headers['x-credits-remaining']).toBe('999920');

  const record = (await gw.gateway.keys.get(sha256(key)))!;
  expect(await gw.gateway.keys.update(withAllowlists(record, { methods: ['eth_chainId'] }))).toBe(
    true,
  );
  // On the gateway's clock, not the test's: however late a loaded machine runs the call, the
  // record it holds is past its TTL, whenever it was read.
  ahead += KEY_TTL_MS + 1;
  expect((await post(url, call('eth_blockNumber'))).status).toBe(403);
  expect((await post(url, call('eth_chainId'))).status).toBe(200);
  const refused = async (of: RunningGateway) =>
    ((await usageOf(of, key)) as unknown as { refused: Record<string, number> }).refused;
  expect((await refused(gw)).allowlist).toBe(1);
  // Written to Redis (every 250 ms): a second gateway on it sees the same count.
  const other = await startGateway(gatewayConfig(anvil.url, { ledger: { redis: redis.url } }));
  try {
    const writtenFrom = Date.now();
    while ((await refused(other)).allowlist === 0) {
      // Only so a count never written fails here: 40 of the writes' intervals.
      expect(Date.now() - writtenFrom).toBeLessThan(10_000);
      await sleep(50);
    }
    expect(await refused(other)).toEqual({ secret: 0, jwt: 0, allowlist: 1, credit: 0, rate: 0 });
  } finally {
    await other.close();
  }
  // An unknown key is not created by an update.
  expect(await gw.gateway.keys.update({ ...record, hash: '0'.repeat(64) })).toBe(false);
});
