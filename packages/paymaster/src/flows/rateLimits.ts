/**
 * Requests a stranger may make: per client address and per account, builds and executes share a
 * token bucket (a burst, then `perMinute` a minute). Over it: -32005 with when to come back. In
 * memory (a restart forgets them), at most `maxKeys` buckets (the oldest forgotten first).
 */
import { errors } from '../errors';

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimits {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly perMinute: number,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = Math.max(1, Math.ceil(perMinute / 4));
  }

  /** Takes one request of `key` (e.g. `client:127.0.0.1`, `account:0x…`), or throws -32005. */
  take(key: string, what: string): void {
    const now = this.now();
    const rate = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      throw errors.limitExceeded(
        `${what} made more than ${this.perMinute} builds and executes a minute`,
        Math.ceil((1 - bucket.tokens) / rate),
      );
    }
    bucket.tokens -= 1;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) {
      this.buckets.delete(this.buckets.keys().next().value as string);
    }
  }
}
