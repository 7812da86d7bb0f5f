/**
 * The key registry: API key records by the SHA-256 of the key (the stores are in ../stores,
 * beside the ledger they share a file or a Redis with).
 */
import type { KeyRecord } from './keys';

export interface KeyRegistry {
  add(record: KeyRecord): Promise<void>;
  get(hash: string): Promise<KeyRecord | undefined>;
  /** Every key, oldest first, revoked ones included. */
  list(): Promise<KeyRecord[]>;
  /** Replaces an existing key's record (its controls); false when there is no such key. */
  update(record: KeyRecord): Promise<boolean>;
  /** Marks the key revoked; false when there is no such key. */
  revoke(hash: string): Promise<boolean>;
}
