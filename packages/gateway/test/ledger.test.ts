/**
 * The ledger stores behind the one interface (SQLite, Redis, a 3-master Redis Cluster): atomic
 * debits under concurrency, the daily reset at 00:00 UTC, refunds (to the day of the debit),
 * per-minute history and the per-second window.
 *
 * Then leases (src/credits/leases.ts) on Redis and the Cluster, with several ledger instances
 * sharing one key as several gateway processes do: a busy key is debited without a script call
 * per debit; the second's window is shared and a lease ends with its second; a lease never spans
 * midnight and a refund goes to the day of its debit; a key near its daily limit gets exactly its
 * credit across instances; what a crash costs is bounded by a lease and a clean close costs
 * nothing; the usage report is exact after settlement.
 */
import path from 'node:path';
import {
  type RedisClusterService,
  type RedisService,
  startRedis,
  startRedisCluster,
} from '@l2wallet/testkit';
import Redis from 'ioredis';
import { type KeyRecord, newKey, type NewKeyOptions } from '../src/auth/keys';
import { LeasedLedger } from '../src/credits/leases';
import { LEASE, maxLease } from '../src/credits/leaseStore';
import type { DebitOutcome } from '../src/credits/ledger';
import type { LedgerConfig } from '../src/config';
import { openStores, type Stores } from '../src/stores/open';
import { RedisConnection } from '../src/stores/redis/connection';
import { RedisLedger } from '../src/stores/redis/ledger';
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

/** Script calls Redis (every master of the cluster) has run so far. */
async function scriptCalls(kind: 'redis' | 'cluster'): Promise<number> {
  const stats =
    kind === 'redis'
      ? [await withClient(redis.url, (client) => client.info('commandstats'))]
      : await Promise.all(cluster.nodes.map((_, i) => cluster.cli(i, ['info', 'commandstats'])));
  let calls = 0;
  for (const text of stats) {
    for (const match of text.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) {
      calls += Number(match[1]);
    }
  }
  return calls;
}

async function withClient<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url);
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

describe.each([
  ['Redis', 'redis' as const, (): LedgerConfig => ({ redis: redis.url })],
  ['Redis Cluster', 'cluster' as const, (): LedgerConfig => ({ redisCluster: cluster.urls })],
])('leases on %s', (_name, kind, config) => {
  /** The instances' clock: a fixed instant a test sets, else real time. */
  let clock: number | undefined;
  const now = () => clock ?? Date.now();
  let instances: Stores[] = [];
  const open = async (count: number) => {
    const opened = await Promise.all(
      Array.from({ length: count }, () => openStores(config(), { now })),
    );
    instances.push(...opened);
    return opened;
  };
  afterEach(async () => {
    clock = undefined;
    await Promise.all(instances.map((stores) => stores.close()));
    instances = [];
  });
  const keyOf = async (stores: Stores, options: NewKeyOptions): Promise<KeyRecord> => {
    const { record } = newKey(options);
    await stores.keys.add(record);
    return record;
  };

  it('debits a busy key from leases, with far fewer script calls than debits; exact once settled', async () => {
    const [one] = await open(1);
    const key = await keyOf(one, { plan: 'team', dailyCredits: 1e12, creditsPerSecond: 1e9 });
    clock = Date.parse('2026-03-01T12:00:00.000Z');
    const before = await scriptCalls(kind);
    const outcomes = await Promise.all(
      Array.from({ length: 2000 }, () => one.ledger.debit(key, 'eth_call', 80, clock!)),
    );
    const scripts = (await scriptCalls(kind)) - before;
    expect(outcomes.every((o) => o === 'ok')).toBe(true);
    // The first calls go one by one (a key is leased for once it is busy), then leases.
    expect(scripts).toBeLessThan(LEASE.afterCalls + 20);
    // Settled on asking for the usage: what the calls used, in their method and minute.
    const usage = await one.ledger.usage(key.hash, clock);
    expect(usage).toMatchObject({ total: 2000 * 80, methods: { eth_call: 2000 * 80 } });
    expect(usage.lastHour.at(-1)).toBe(2000 * 80);
    expect(usage.reserved).toBe(0);
  });

  it("shares the second's window across instances, and a lease ends with its second", async () => {
    const three = await open(3);
    const perSecond = 2 * LEASE.secondShare * LEASE.minCalls * 80; // 256 calls a second
    const key = await keyOf(three[0], {
      plan: 'team',
      dailyCredits: 1e9,
      creditsPerSecond: perSecond,
    });
    const second = Date.parse('2026-03-01T12:00:10.000Z');
    /** Each instance debits until the window refuses it; the credits answered 'ok'. */
    const fill = async (at: number) => {
      const ok = await Promise.all(
        three.map(async (stores) => {
          let credits = 0;
          // (At most twice the window: a runaway is a failure, not a hang.)
          for (let outcome: DebitOutcome = 'ok', n = 0; outcome === 'ok' && n < 600; n++) {
            outcome = await stores.ledger.debit(key, 'eth_call', 80, at);
            if (outcome === 'ok') credits += 80;
            else expect(outcome).toBe('rate');
          }
          return credits;
        }),
      );
      return ok.reduce((a, b) => a + b, 0);
    };
    clock = second + 100;
    const first = await fill(clock);
    // Never more than the window; less only by what each instance's lease has left, under one
    // call's cost each.
    expect(first).toBeLessThanOrEqual(perSecond);
    expect(first).toBeGreaterThan(perSecond - 3 * 80);
    // The next second: a new window, and the leases of the last one are over.
    clock = second + 1100;
    const next = await fill(clock);
    expect(next).toBeLessThanOrEqual(perSecond);
    expect(next).toBeGreaterThan(perSecond - 3 * 80);
    // Settled (each instance's usage call settles its own): the day has exactly what was taken.
    for (const stores of three) await stores.ledger.usage(key.hash, clock);
    const usage = await three[0].ledger.usage(key.hash, clock);
    expect(usage.total).toBe(first + next);
    expect(usage.methods).toEqual({ eth_call: first + next });
    expect(usage.reserved).toBe(0);
  });

  it('never spans midnight, and refunds a leased call after midnight to the day of its debit', async () => {
    const [one] = await open(1);
    const key = await keyOf(one, { plan: 'team', dailyCredits: 1e9, creditsPerSecond: 1e7 });
    const lastSecond = Date.parse('2026-03-01T23:59:59.500Z');
    const midnight = Date.parse('2026-03-02T00:00:00.200Z');
    clock = lastSecond;
    const before = await scriptCalls(kind);
    for (const at of [lastSecond, midnight]) {
      clock = at;
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, () => one.ledger.debit(key, 'eth_call', 80, at)),
      );
      expect(outcomes.every((o) => o === 'ok')).toBe(true);
    }
    expect((await scriptCalls(kind)) - before).toBeLessThan(2 * (LEASE.afterCalls + 10));
    // A call debited before midnight failed after it: its credits go back to the first day.
    await one.ledger.refund(key, 'eth_call', 80, lastSecond);
    expect(await one.ledger.usage(key.hash, lastSecond)).toMatchObject({
      total: 99 * 80,
      methods: { eth_call: 99 * 80 },
    });
    const second = await one.ledger.usage(key.hash, midnight);
    expect(second).toMatchObject({ total: 100 * 80, methods: { eth_call: 100 * 80 } });
    expect(second.lastHour.at(-1)).toBe(100 * 80);
  });

  it('gives a key near its daily limit exactly its credit across four instances', async () => {
    const four = await open(4);
    const N = 300; // leased while the day has 16 leases left, then call by call
    const key = await keyOf(four[0], { plan: 'team', dailyCredits: N * 80, creditsPerSecond: 1e6 });
    const before = await scriptCalls(kind);
    const answered = await Promise.all(
      four.flatMap((stores) =>
        Array.from({ length: 4 }, async () => {
          let ok = 0;
          for (;;) {
            const outcome = await stores.ledger.debit(key, 'eth_call', 80, Date.now());
            if (outcome !== 'ok') {
              expect(outcome).toBe('daily');
              return ok;
            }
            ok += 1;
          }
        }),
      ),
    );
    expect(answered.reduce((a, b) => a + b, 0)).toBe(N);
    expect((await scriptCalls(kind)) - before).toBeLessThan(N);
    // Both ways were taken: leases while the day had room, then call by call.
    const debits = four.map((stores) => (stores.ledger as LeasedLedger).debits);
    expect(debits.reduce((sum, d) => sum + d.leased, 0)).toBeGreaterThan(N / 4);
    expect(debits.reduce((sum, d) => sum + d.ledger, 0)).toBeGreaterThan(LEASE.afterCalls);
    for (const stores of four) await stores.ledger.usage(key.hash, Date.now());
    expect(await four[0].ledger.usage(key.hash, Date.now())).toMatchObject({
      total: N * 80,
      methods: { eth_call: N * 80 },
      reserved: 0,
    });
  });

  it("waits for another instance's lease to settle before refusing: the key gets exactly its credit", async () => {
    const [quiet, busy] = await open(2);
    const N = 300;
    const key = await keyOf(quiet, { plan: 'team', dailyCredits: N * 80, creditsPerSecond: 1e6 });
    // One instance leases, serves 40 calls and goes quiet with credit left in its lease.
    const first = await Promise.all(
      Array.from({ length: 40 }, () => quiet.ledger.debit(key, 'eth_call', 80, Date.now())),
    );
    expect(first.every((o) => o === 'ok')).toBe(true);
    expect((quiet.ledger as LeasedLedger).debits.leased).toBeGreaterThan(0);
    // The other calls until refused: its last calls wait for that lease to be settled.
    let ok = 0;
    while ((await busy.ledger.debit(key, 'eth_call', 80, Date.now())) === 'ok') ok += 1;
    expect(40 + ok).toBe(N);
    expect(await busy.ledger.usage(key.hash, Date.now())).toMatchObject({
      total: N * 80,
      methods: { eth_call: N * 80 },
    });
  });

  it('loses no debit to a crash, which costs at most its unused lease; a clean close costs nothing', async () => {
    const [clean, reader] = await open(2);
    // An instance whose connection the test cuts, as a kill -9 would: nothing more reaches Redis.
    const connection = await RedisConnection.open(
      kind === 'redis' ? redis.url : { cluster: cluster.urls },
    );
    const store = new RedisLedger(connection);
    const crashing = { ledger: new LeasedLedger(store, store, now) };
    const options = { plan: 'team' as const, dailyCredits: 1e12, creditsPerSecond: 1e7 };
    const [crashed, closed] = [await keyOf(reader, options), await keyOf(reader, options)];
    clock = Date.parse('2026-03-01T12:00:20.300Z');
    for (const [stores, key] of [
      [crashing, crashed],
      [clean, closed],
    ] as const) {
      const outcomes = await Promise.all(
        Array.from({ length: 500 }, () => stores.ledger.debit(key, 'eth_call', 80, clock!)),
      );
      expect(outcomes.every((o) => o === 'ok')).toBe(true);
    }
    // One dies with its lease in hand; the other shuts down.
    connection.redis.disconnect();
    await clean.close();
    instances.splice(instances.indexOf(clean), 1);
    // Read once the crashed lease is past its second (then it counts as charged).
    const later = clock + 3000;
    const lost = await reader.ledger.usage(crashed.hash, later);
    expect(lost.total).toBeGreaterThanOrEqual(500 * 80);
    expect(lost.total - 500 * 80).toBeLessThanOrEqual(1.25 * maxLease(crashed));
    expect(lost.methods.eth_call ?? 0).toBeLessThanOrEqual(500 * 80);
    expect(await reader.ledger.usage(closed.hash, later)).toMatchObject({
      total: 500 * 80,
      methods: { eth_call: 500 * 80 },
    });
  });
});
