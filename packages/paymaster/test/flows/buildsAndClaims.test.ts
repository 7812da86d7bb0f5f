import { CODES } from '../../src/errors';
import {
  BuildRecords,
  type BuiltExecution,
  MAX_BUILDS_PER_ACCOUNT,
} from '../../src/flows/buildsAndClaims';
import { RateLimits } from '../../src/flows/rateLimits';

const build = (
  user: bigint,
  nonce: bigint,
  felts = 3,
  executeBefore = 10_000n,
): BuiltExecution => ({
  user,
  version: 2,
  feeMode: { mode: 'sponsored', tip: 'normal' },
  execution: {
    caller: 1n,
    nonce,
    executeAfter: 0n,
    executeBefore,
    calls: [{ to: 2n, selector: 3n, calldata: Array.from({ length: felts }, () => 1n) }],
  },
});

it('keeps memory bounded under a flood of builds: count and felts capped, oldest out first', () => {
  const records = new BuildRecords(1000, 50_000);
  for (let i = 0; i < 20_000; i++) records.add(build(BigInt(i), 1n, 98));
  // 100 felts a build (98 calldata + to + selector): the felt cap binds first.
  expect(records.size).toBe(500);
  expect(records.get(19_999n, 1n)).toBeDefined();
  expect(records.get(0n, 1n)).toBeUndefined();
});

it('keeps the MAX_BUILDS_PER_ACCOUNT newest builds of an account, without touching others', () => {
  const records = new BuildRecords();
  records.add(build(8n, 1n));
  for (let i = 0; i <= MAX_BUILDS_PER_ACCOUNT; i++) records.add(build(7n, BigInt(i)));
  expect(records.get(7n, 0n)).toBeUndefined();
  expect(records.get(7n, 1n)).toBeDefined();
  expect(records.get(7n, BigInt(MAX_BUILDS_PER_ACCOUNT))).toBeDefined();
  expect(records.get(8n, 1n)).toBeDefined();
  expect(records.size).toBe(MAX_BUILDS_PER_ACCOUNT + 1);
});

it('rate limits: a burst of a quarter of the minute, then the rate, per key', () => {
  let now = 0;
  const limits = new RateLimits(60, 10, () => now);
  for (let i = 0; i < 15; i++) limits.take('client:a', 'a');
  expect(() => limits.take('client:a', 'a')).toThrow(
    expect.objectContaining({ code: CODES.limitExceeded, data: { retry_after_ms: 1000 } }),
  );
  limits.take('client:b', 'b');
  now += 1000;
  expect(() => limits.take('client:a', 'a')).not.toThrow();
});
