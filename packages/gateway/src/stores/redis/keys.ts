/**
 * The key registry in Redis: each record at `gw:key:<hash>` (JSON), and the list of hashes at
 * `gw:keys`. On one Redis a key is added in one MULTI; on a cluster the two are in different
 * slots, so the record goes first: a key that is listed can always be read.
 */
import type { KeyRecord } from '../../auth/keys';
import type { KeyRegistry } from '../../auth/registry';
import type { RedisConnection } from './connection';

const recordKey = (hash: string) => `gw:key:${hash}`;
const KEY_SET = 'gw:keys';

export class RedisKeyRegistry implements KeyRegistry {
  constructor(private readonly connection: RedisConnection) {}

  private get redis() {
    return this.connection.redis;
  }

  async add(record: KeyRecord): Promise<void> {
    if (this.connection.cluster) {
      await this.redis.set(recordKey(record.hash), JSON.stringify(record));
      await this.redis.rpush(KEY_SET, record.hash);
      return;
    }
    await this.redis
      .multi()
      .set(recordKey(record.hash), JSON.stringify(record))
      .rpush(KEY_SET, record.hash)
      .exec();
  }

  async get(hash: string): Promise<KeyRecord | undefined> {
    const text = await this.redis.get(recordKey(hash));
    return text ? (JSON.parse(text) as KeyRecord) : undefined;
  }

  async list(): Promise<KeyRecord[]> {
    const hashes = await this.redis.lrange(KEY_SET, 0, -1);
    const records = await Promise.all(hashes.map((h) => this.get(h)));
    return records.filter((r): r is KeyRecord => r !== undefined);
  }

  async update(record: KeyRecord): Promise<boolean> {
    // XX: only a key that exists is replaced.
    const set = await this.redis.set(recordKey(record.hash), JSON.stringify(record), 'XX');
    return set === 'OK';
  }

  async revoke(hash: string): Promise<boolean> {
    const record = await this.get(hash);
    if (!record) return false;
    record.revokedAt = new Date().toISOString();
    await this.redis.set(recordKey(hash), JSON.stringify(record));
    return true;
  }
}
