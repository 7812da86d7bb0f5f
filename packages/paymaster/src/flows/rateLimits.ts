/**
 * Requests a stranger may make: per client address and per account, builds and executes share a
 * token bucket (a burst, then `perMinute` a minute). Over it: -32005 with when to come back. In
 * memory (a restart forgets them), at most `maxKeys` buckets (the oldest forgotten first); or, with
 * Redis, in Redis, so paymasters sharing it count each client and account together.
 */
import type Redis from 'ioredis';

import { errors } from '../errors';

/** Takes one request of `key` (e.g. `client:127.0.0.1`, `account:0x…`), or throws -32005. */
export interface RateLimiter {
  take(key: string, what: string): void | Promise<void>;
}

const overLimit = (what: string, perMinute: number, waitMs: number) =>
  errors.limitExceeded(`${what} made more than ${perMinute} builds and executes a minute`, waitMs);

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimits implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = Math.max(1, Math.ceil(perMinute / 4));
  }

  take(key: string, what: string): void {
    const now = this.now();
    const rate = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      throw overLimit(what, this.perMinute, Math.ceil((1 - bucket.tokens) / rate));
    }
    bucket.tokens -= 1;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) {
      this.buckets.delete(this.buckets.keys().next().value as string);
    }
  }
}

// The same bucket as one Lua step on Redis, timed by Redis's clock (paymasters' clocks differ).
// KEYS: the bucket. ARGV: burst, tokens per ms. Returns 0 when taken, else the ms to wait.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or burst)
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or now)
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if tokens < 1 then wait = math.ceil((1 - tokens) / rate) else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
return wait
`;

export class RedisRateLimits implements RateLimiter {
  private readonly burst: number;

  constructor(
    private readonly redis: Redis,
    private readonly perMinute: number,
    private readonly prefix = 'l2-paymaster:',
  ) {
    this.burst = Math.max(1, Math.ceil(perMinute / 4));
    redis.defineCommand('takeRate', { numberOfKeys: 1, lua: TAKE });
  }

  async take(key: string, what: string): Promise<void> {
    const rate = this.perMinute / 60_000;
    const taker = this.redis as unknown as {
      takeRate(key: string, burst: number, rate: string): Promise<number>;
    };
    let wait: number;
    try {
      wait = await taker.takeRate(`${this.prefix}rate:${key}`, this.burst, String(rate));
    } catch (error) {
      throw errors.unknown(
        `the paymaster's rate limits (Redis) are unavailable (${(error as Error).message}); try again`,
      );
    }
    if (wait > 0) throw overLimit(what, this.perMinute, wait);
  }
}
