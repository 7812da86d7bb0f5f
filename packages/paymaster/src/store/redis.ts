/**
 * The paymaster's state in one Redis, shared by paymasters on any number of hosts, the way the
 * gateway keeps its ledger (ioredis; each step one Lua script, so it is atomic across instances).
 *
 * Amounts are FRI and exceed what Lua's numbers hold exactly, so they are decimal text changed by
 * compare-and-set: the new value is computed with bigints here and written only if the key still
 * holds what was read (else read again). An account's turn is `SET NX PX` with an owner token,
 * ended by a compare-and-delete, so a paymaster that died holds an account only until its lease
 * runs out. Every script touches one key.
 */
import Redis from 'ioredis';

import { errors } from '../errors';
import { type Felt, toHex } from '../protocol/felt';
import type { StateStore } from './store';

/** How long a command may wait for Redis before the request fails (retryable). */
export const COMMAND_TIMEOUT_MS = 2000;

// Sponsor spending is kept a few days after its UTC day (for /metrics and disputes), then dropped.
const SPEND_TTL_S = 3 * 86_400;

// KEYS: the amount. ARGV: the value read ('' when none), the value to write ('' deletes), a ttl
// in seconds (0: none). 1 when written, 0 when the key changed since it was read.
const COMPARE_AND_SET = `
local now = redis.call('GET', KEYS[1]) or ''
if now ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1])
elseif tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`;

// KEYS: the account's turn. ARGV: holder, lease in ms. Taken (or renewed by its holder): 1.
const TAKE_TURN = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

// KEYS: the account's turn. ARGV: holder. Deletes it only when this holder still holds it.
const RELEASE_TURN = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

interface Scripts {
  compareAndSet(key: string, read: string, write: string, ttlS: number): Promise<number>;
  takeTurn(key: string, holder: string, leaseMs: number): Promise<number>;
  releaseTurn(key: string, holder: string): Promise<number>;
}

/** Where Redis is, for messages: host and port only (the URL may carry a password). */
export function redisWhere(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the configured Redis';
  }
}

/** Opens one Redis for the state (and the rate limits): a clear error when it cannot be reached. */
export async function openRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    // A command whose connection closed may have run: never sent again.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 100, 1000),
    lazyConnect: true,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redisWhere(url)} (${(error as Error).message})`);
  }
  return redis;
}

export class RedisState implements StateStore {
  private readonly scripts: Scripts;

  /** `prefix` names this paymaster deployment's keys (several may share one Redis). */
  constructor(
    readonly redis: Redis,
    private readonly prefix = 'l2-paymaster:',
  ) {
    redis.defineCommand('compareAndSet', { numberOfKeys: 1, lua: COMPARE_AND_SET });
    redis.defineCommand('takeTurn', { numberOfKeys: 1, lua: TAKE_TURN });
    redis.defineCommand('releaseTurn', { numberOfKeys: 1, lua: RELEASE_TURN });
    this.scripts = redis as unknown as Scripts;
  }

  private key(kind: string, id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  async putTracking(id: Felt, hash: Felt, createdAt = Date.now()): Promise<void> {
    await this.guard(() =>
      this.redis.hset(this.key('tracking', toHex(id)), { hash: toHex(hash), at: createdAt }),
    );
  }

  async getTracking(id: Felt): Promise<{ hash: Felt; createdAt: number } | undefined> {
    const row = await this.guard(() => this.redis.hgetall(this.key('tracking', toHex(id))));
    return row.hash ? { hash: BigInt(row.hash), createdAt: Number(row.at) } : undefined;
  }

  async debt(account: Felt): Promise<bigint> {
    return BigInt(
      (await this.guard(() => this.redis.get(this.key('debt', toHex(account))))) ?? '0',
    );
  }

  async addDebt(account: Felt, fri: bigint): Promise<void> {
    await this.update(this.key('debt', toHex(account)), 0, (debt) => debt + fri);
  }

  async sponsorSpent(keyId: string, day: number): Promise<bigint> {
    const key = this.key('sponsor', `${keyId}:${day}`);
    return BigInt((await this.guard(() => this.redis.get(key))) ?? '0');
  }

  async reserveSponsor(keyId: string, day: number, fri: bigint, limit: bigint): Promise<boolean> {
    const key = this.key('sponsor', `${keyId}:${day}`);
    return this.update(key, SPEND_TTL_S, (spent) =>
      spent + fri > limit ? undefined : spent + fri,
    );
  }

  async adjustSponsor(keyId: string, day: number, fri: bigint): Promise<void> {
    const key = this.key('sponsor', `${keyId}:${day}`);
    await this.update(key, SPEND_TTL_S, (spent) => spent + fri);
  }

  async takeTurn(account: string, holder: string, _nowMs: number, leaseMs: number) {
    const key = this.key('turn', account);
    return (await this.guard(() => this.scripts.takeTurn(key, holder, leaseMs))) === 1;
  }

  async releaseTurn(account: string, holder: string): Promise<void> {
    await this.guard(() => this.scripts.releaseTurn(this.key('turn', account), holder));
  }

  /** Redis's failures as a clear error (what was sent is said by the flow that called). */
  private async guard<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw errors.unknown(
        `the paymaster's state (Redis) is unavailable (${(error as Error).message}); try again`,
      );
    }
  }

  /**
   * Sets the amount at `key` to `next(amount)` (0 or below: deleted) unless it answers undefined
   * (then false), by compare-and-set: another paymaster's change in between means read again.
   */
  private async update(
    key: string,
    ttlS: number,
    next: (amount: bigint) => bigint | undefined,
  ): Promise<boolean> {
    for (;;) {
      const read = (await this.guard(() => this.redis.get(key))) ?? '';
      const value = next(BigInt(read || '0'));
      if (value === undefined) return false;
      const write = value > 0n ? value.toString() : '';
      const written = await this.guard(() => this.scripts.compareAndSet(key, read, write, ttlS));
      if (written === 1) return true;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
