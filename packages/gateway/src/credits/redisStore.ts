/**
 * Redis ledger, shared by any number of gateway instances. A debit is one Lua script: it checks
 * the daily total and this second's window and charges both, or nothing, atomically. Keys of one
 * API key share a hash tag ({hash}) so the script also runs on a Redis Cluster.
 */
import Redis from 'ioredis';
import type { KeyRecord } from '../auth/keys';
import {
  type DebitOutcome,
  epochMinute,
  epochSecond,
  lastHourFrom,
  type Store,
  type Usage,
  utcDay,
} from './store';

// KEYS: day hash, second counter, hour hash. ARGV: cost, daily limit, per-second limit, method, minute.
const DEBIT = `
local cost = tonumber(ARGV[1])
local used = tonumber(redis.call('HGET', KEYS[1], '*') or '0')
if used + cost > tonumber(ARGV[2]) then return 1 end
local second = tonumber(redis.call('GET', KEYS[2]) or '0')
if second + cost > tonumber(ARGV[3]) then return 2 end
redis.call('INCRBY', KEYS[2], cost)
redis.call('PEXPIRE', KEYS[2], 2000)
redis.call('HINCRBY', KEYS[1], '*', cost)
redis.call('HINCRBY', KEYS[1], ARGV[4], cost)
redis.call('EXPIRE', KEYS[1], 172800)
redis.call('HINCRBY', KEYS[3], ARGV[5], cost)
redis.call('EXPIRE', KEYS[3], 7200)
return 0
`;

const REFUND = `
local cost = tonumber(ARGV[1])
redis.call('HINCRBY', KEYS[1], '*', -cost)
redis.call('HINCRBY', KEYS[1], ARGV[2], -cost)
redis.call('HINCRBY', KEYS[2], ARGV[3], -cost)
return 0
`;

type LedgerRedis = Redis & {
  gwDebit(...args: (string | number)[]): Promise<number>;
  gwRefund(...args: (string | number)[]): Promise<number>;
};

const dayKey = (hash: string, ms: number) => `gw:{${hash}}:day:${utcDay(ms)}`;
const secondKey = (hash: string, ms: number) => `gw:{${hash}}:sec:${epochSecond(ms)}`;
const hourKey = (hash: string, minute: number) => `gw:{${hash}}:hour:${Math.floor(minute / 60)}`;
const recordKey = (hash: string) => `gw:key:${hash}`;
const KEY_SET = 'gw:keys';

export class RedisStore implements Store {
  private readonly redis: LedgerRedis;

  constructor(url: string) {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    redis.defineCommand('gwDebit', { numberOfKeys: 3, lua: DEBIT });
    redis.defineCommand('gwRefund', { numberOfKeys: 2, lua: REFUND });
    this.redis = redis as LedgerRedis;
  }

  async addKey(record: KeyRecord): Promise<void> {
    await this.redis
      .multi()
      .set(recordKey(record.hash), JSON.stringify(record))
      .rpush(KEY_SET, record.hash)
      .exec();
  }

  async getKey(hash: string): Promise<KeyRecord | undefined> {
    const text = await this.redis.get(recordKey(hash));
    return text ? (JSON.parse(text) as KeyRecord) : undefined;
  }

  async listKeys(): Promise<KeyRecord[]> {
    const hashes = await this.redis.lrange(KEY_SET, 0, -1);
    const records = await Promise.all(hashes.map((h) => this.getKey(h)));
    return records.filter((r): r is KeyRecord => r !== undefined);
  }

  async revokeKey(hash: string): Promise<boolean> {
    const record = await this.getKey(hash);
    if (!record) return false;
    record.revokedAt = new Date().toISOString();
    await this.redis.set(recordKey(hash), JSON.stringify(record));
    return true;
  }

  async debit(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<DebitOutcome> {
    const minute = epochMinute(nowMs);
    const outcome = await this.redis.gwDebit(
      dayKey(key.hash, nowMs),
      secondKey(key.hash, nowMs),
      hourKey(key.hash, minute),
      cost,
      key.dailyCredits,
      key.creditsPerSecond,
      method,
      minute,
    );
    return outcome === 0 ? 'ok' : outcome === 1 ? 'daily' : 'rate';
  }

  /** A debit is in Redis when its script has answered. */
  async durable(): Promise<void> {}

  async refund(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<void> {
    const minute = epochMinute(nowMs);
    await this.redis.gwRefund(
      dayKey(key.hash, nowMs),
      hourKey(key.hash, minute),
      cost,
      method,
      minute,
    );
  }

  async usage(hash: string, nowMs: number): Promise<Usage> {
    const minute = epochMinute(nowMs);
    const [day, thisHour, lastHour] = await Promise.all([
      this.redis.hgetall(dayKey(hash, nowMs)),
      this.redis.hgetall(hourKey(hash, minute)),
      this.redis.hgetall(hourKey(hash, minute - 60)),
    ]);
    const methods: Record<string, number> = {};
    let total = 0;
    for (const [method, credits] of Object.entries(day)) {
      if (method === '*') total = Number(credits);
      else if (Number(credits) !== 0) methods[method] = Number(credits);
    }
    const perMinute = new Map<number, number>();
    for (const [m, credits] of [...Object.entries(lastHour), ...Object.entries(thisHour)]) {
      perMinute.set(Number(m), Number(credits));
    }
    return { total, methods, lastHour: lastHourFrom(perMinute, nowMs) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
