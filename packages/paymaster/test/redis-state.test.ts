/**
 * The Redis state and rate limits on a real redis-server, as two paymasters see them (two
 * connections): budgets never overspent by racing reservations, turns with owners and leases,
 * tracking ids readable from the other, rate limits counted together, amounts beyond 2^53 exact.
 */
import { type RedisService, startRedis } from '@l2wallet/testkit';

import { RedisRateLimits } from '../src/flows/rateLimits';
import { TrackingStore } from '../src/relayer/tracking';
import { openRedis, RedisState } from '../src/store/redis';

let redis: RedisService;
let a: RedisState;
let b: RedisState;

beforeAll(async () => {
  redis = await startRedis();
  a = new RedisState(await openRedis(redis.url));
  b = new RedisState(await openRedis(redis.url));
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});

it('never reserves more than a budget when two instances race for it', async () => {
  const big = 10n ** 18n;
  const attempts = Array.from({ length: 60 }, (_, i) =>
    (i % 2 ? a : b).reserveSponsor('key1', 20_000, 3n * big + 1n, 100n * big),
  );
  const granted = (await Promise.all(attempts)).filter(Boolean).length;
  expect(granted).toBe(33);
  expect(await a.sponsorSpent('key1', 20_000)).toBe(33n * (3n * big + 1n));
  // Gives back concurrently from both: exact, and never below 0.
  await Promise.all([a.adjustSponsor('key1', 20_000, -big), b.adjustSponsor('key1', 20_000, -big)]);
  expect(await b.sponsorSpent('key1', 20_000)).toBe(33n * (3n * big + 1n) - 2n * big);
  await a.adjustSponsor('key1', 20_000, -1000n * big);
  expect(await b.sponsorSpent('key1', 20_000)).toBe(0n);
  expect(await a.reserveSponsor('key1', 20_000, 100n * big + 1n, 100n * big)).toBe(false);
});

it('keeps debts exact beyond 2^53 under concurrent changes', async () => {
  const account = 0xabcn;
  const step = 2n ** 60n + 7n;
  await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).addDebt(account, step)));
  expect(await b.debt(account)).toBe(20n * step);
  await a.addDebt(account, -21n * step);
  expect(await b.debt(account)).toBe(0n);
});

it('reads a tracking id written by the other instance', async () => {
  await a.putTracking(0x123n, 0xfeedn, 42);
  expect(await b.getTracking(0x123n)).toEqual({ hash: 0xfeedn, createdAt: 42 });
  expect(await b.getTracking(0x124n)).toBeUndefined();
});

it("gives an account's turn to one holder; only it releases it; a dead holder's lease ends", async () => {
  // Leases that only end when the test means them to (a loaded machine's Redis round trips
  // cannot outlast them), but for the one that runs out.
  const LONG = 60_000;
  const SHORT = 300;
  expect(await a.takeTurn('0x1', 'a:1', Date.now(), LONG)).toBe(true);
  expect(await b.takeTurn('0x1', 'b:1', Date.now(), LONG)).toBe(false);
  // Another holder's release does nothing.
  await b.releaseTurn('0x1', 'b:1');
  expect(await b.takeTurn('0x1', 'b:1', Date.now(), LONG)).toBe(false);
  await a.releaseTurn('0x1', 'a:1');
  expect(await b.takeTurn('0x1', 'b:1', Date.now(), LONG)).toBe(true);
  // b "dies" holding it: a gets it once the lease has run out, not before. b's last take (the
  // holder's own, renewing it) leaves it a short lease.
  expect(await a.takeTurn('0x1', 'a:2', Date.now(), LONG)).toBe(false);
  expect(await b.takeTurn('0x1', 'b:1', Date.now(), SHORT)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, SHORT + 100));
  expect(await a.takeTurn('0x1', 'a:2', Date.now(), LONG)).toBe(true);
  // The late release of the dead holder does not end the new holder's turn.
  await b.releaseTurn('0x1', 'b:1');
  expect(await b.takeTurn('0x1', 'b:2', Date.now(), LONG)).toBe(false);
  await a.releaseTurn('0x1', 'a:2');
});

it('counts rate limits of both instances together', async () => {
  // 8 a minute: a burst of 2.
  const first = new RedisRateLimits(a.redis, 8);
  const second = new RedisRateLimits(b.redis, 8);
  await first.take('client:10.0.0.1', 'the client');
  await second.take('client:10.0.0.1', 'the client');
  await expect(first.take('client:10.0.0.1', 'the client')).rejects.toMatchObject({
    code: -32005,
  });
  await expect(second.take('client:10.0.0.1', 'the client')).rejects.toMatchObject({
    code: -32005,
  });
  // Another client is counted apart.
  await second.take('client:10.0.0.2', 'the client');
});

it('still answers a sent transaction when Redis is away, saying the id was not stored', async () => {
  const away = new RedisState(await openRedis(redis.url));
  await away.close();
  const lost: string[] = [];
  const tracking = new TrackingStore(away, (request, error) =>
    lost.push(`${request.id}: ${error.message}`),
  );
  const request = await tracking.create(0xabcn, 0x77n);
  expect(request).toMatchObject({ id: 0x77n, hash: 0xabcn });
  expect(lost).toHaveLength(1);
  await expect(away.debt(0x1n)).rejects.toMatchObject({
    code: 163,
    data: expect.stringMatching(/the paymaster's state \(Redis\) is unavailable/),
  });
});
