/**
 * Refusal counts in Redis: a hash per key and day, `gw:{<sha256>}:refused:<day>` (the key's
 * hash tag: the same slot as its ledger), cause to count, kept for two days.
 */
import type { RefusalCause } from '../../auth/access';
import { utcDay } from '../../credits/ledger';
import type { RefusalCounts, RefusalRow, RefusalStore } from '../../credits/refusals';
import type { RedisConnection } from './connection';

const refusedKey = (hash: string, day: string) => `gw:{${hash}}:refused:${day}`;
const KEEP_SECONDS = 2 * 86_400;

export class RedisRefusals implements RefusalStore {
  constructor(private readonly connection: RedisConnection) {}

  async add(rows: RefusalRow[]): Promise<void> {
    await Promise.all(
      rows.map(async ({ hash, day, cause, count }) => {
        const key = refusedKey(hash, day);
        await this.connection.redis.hincrby(key, cause, count);
        await this.connection.redis.expire(key, KEEP_SECONDS);
      }),
    );
  }

  async counts(hash: string, nowMs: number): Promise<RefusalCounts> {
    const day = await this.connection.redis.hgetall(refusedKey(hash, utcDay(nowMs)));
    const counts: RefusalCounts = {};
    for (const [cause, count] of Object.entries(day)) counts[cause as RefusalCause] = Number(count);
    return counts;
  }
}
