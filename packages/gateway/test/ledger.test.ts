/**
 * The ledger stores behind the one interface (SQLite, Redis, a 3-master Redis Cluster): atomic
 * debits under concurrency, the daily reset at 00:00 UTC, refunds (to the day of the debit),
 * per-minute history and the per-second window.
 */
import path from 'node:path';
import {
  type RedisClusterService,
  type RedisService,
  startRedis,
  startRedisCluster,
} from '@l2wallet/testkit';
import { newKey } from '../src/auth/keys';
import type { LedgerConfig } from '../src/config';
import { openStores, type Stores } from '../src/stores/open';
import { tempDir } from './helpers';

let redis: RedisService;
let cluster: RedisClusterService;
const ledgers: [string, () => LedgerConfig][] = [
  ['sqlite', () => ({ sqlite: path.join(tempDir(), 'ledger.db') })],
  ['redis', () => ({ redis: redis.url })],
  ['redis cluster', () => ({ redisCluster: cluster.urls })],
];

beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedis(), startRedisCluster({ masters: 3 })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()]);
});

describe.each(ledgers)('%s stores', (_name, config) => {
  let stores: Stores;
  beforeEach(async () => {
    stores = await openStores(config());
  });
  afterEach(async () => {
    await stores.close();
  });

  it('resets the balance at 00:00 UTC', async () => {
    const { record } = newKey({ plan: 'free', dailyCredits: 100, creditsPerSecond: 1000 });
    await stores.keys.add(record);
    const lastSecond = Date.parse('2026-03-01T23:59:59.500Z');
    expect(await stores.ledger.debit(record, 'eth_call', 80, lastSecond)).toBe('ok');
    expect(await stores.ledger.debit(record, 'eth_call', 80, lastSecond)).toBe('daily');
    expect(await stores.ledger.debit(record, 'eth_chainId', 20, lastSecond)).toBe('ok');
    const midnight = Date.parse('2026-03-02T00:00:00.000Z');
    expect(await stores.ledger.debit(record, 'eth_call', 80, midnight)).toBe('ok');
    expect((await stores.ledger.usage(record.hash, lastSecond)).total).toBe(100);
    expect(await stores.ledger.usage(record.hash, midnight)).toMatchObject({
      total: 80,
      methods: { eth_call: 80 },
    });
  });

  it('gives a refund back to the day of its debit, after midnight too', async () => {
    const { record } = newKey({ plan: 'free', dailyCredits: 100, creditsPerSecond: 1000 });
    await stores.keys.add(record);
    const lastSecond = Date.parse('2026-03-01T23:59:59.900Z');
    const midnight = Date.parse('2026-03-02T00:00:00.100Z');
    expect(await stores.ledger.debit(record, 'eth_call', 80, lastSecond)).toBe('ok');
    expect(await stores.ledger.debit(record, 'eth_call', 80, midnight)).toBe('ok');
    // The call debited before midnight failed after it: its refund is the first day's.
    await stores.ledger.refund(record, 'eth_call', 80, lastSecond);
    expect((await stores.ledger.usage(record.hash, lastSecond)).total).toBe(0);
    expect(await stores.ledger.usage(record.hash, midnight)).toMatchObject({
      total: 80,
      methods: { eth_call: 80 },
    });
    // Today's balance is still today's: 20 left, not 100.
    expect(await stores.ledger.debit(record, 'eth_call', 80, midnight + 1000)).toBe('daily');
    expect(await stores.ledger.debit(record, 'eth_chainId', 20, midnight + 1000)).toBe('ok');
  });

  it('takes exactly what fits when debits race, and refunds exactly', async () => {
    const { record } = newKey({ plan: 'team', dailyCredits: 80 * 25 });
    await stores.keys.add(record);
    const now = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => stores.ledger.debit(record, 'eth_call', 80, now)),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(25);
    await stores.ledger.refund(record, 'eth_call', 80, now);
    const usage = await stores.ledger.usage(record.hash, now);
    expect(usage.total).toBe(80 * 24);
    expect(usage.lastHour.at(-1)).toBe(80 * 24);
    expect(usage.lastHour).toHaveLength(60);
  });

  it('limits credits per second in one-second windows', async () => {
    const { record } = newKey({ plan: 'free', creditsPerSecond: 100 });
    await stores.keys.add(record);
    const t = Date.parse('2026-03-01T12:00:00.000Z');
    expect(await stores.ledger.debit(record, 'eth_blockNumber', 80, t)).toBe('ok');
    expect(await stores.ledger.debit(record, 'eth_blockNumber', 80, t + 500)).toBe('rate');
    expect(await stores.ledger.debit(record, 'eth_chainId', 5, t + 999)).toBe('ok');
    expect(await stores.ledger.debit(record, 'eth_blockNumber', 80, t + 1000)).toBe('ok');
    expect((await stores.ledger.usage(record.hash, t + 1000)).total).toBe(165);
  });

  it('revokes keys and lists them', async () => {
    const { record } = newKey({ plan: 'developer' });
    await stores.keys.add(record);
    expect(await stores.keys.revoke(record.hash)).toBe(true);
    expect((await stores.keys.get(record.hash))?.revokedAt).toBeTruthy();
    expect((await stores.keys.list()).map((k) => k.hash)).toContain(record.hash);
    expect(await stores.keys.revoke('0'.repeat(64))).toBe(false);
  });
});
