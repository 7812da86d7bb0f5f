/**
 * What each key has left of its daily credits, for the `x-credits-remaining` header of every
 * answer: read from the ledger's usage at a key's first answer and then at most once every
 * REFRESH_MS (in the background), and followed here between reads by what this process charges
 * and refunds. So it is exact for one process on SQLite; with several instances it may lag
 * their debits by up to REFRESH_MS, and on Redis it counts leases out as spent. It is what the
 * header says, never what a debit decides.
 */
import type { KeyRecord } from '../auth/keys';
import { type Ledger, utcDay } from './ledger';

const REFRESH_MS = 1000;
const MAX_KEYS = 100_000;

interface Left {
  day: string;
  left: number;
  readAt: number;
  reading: Promise<void> | undefined;
}

export class CreditsLeft {
  private readonly byKey = new Map<string, Left>();

  constructor(private readonly ledger: Ledger) {}

  /** Makes sure `key` has a value for today (a ledger read at its first answer of the day). */
  async ensure(key: KeyRecord, nowMs: number): Promise<void> {
    const entry = this.byKey.get(key.hash);
    const day = utcDay(nowMs);
    if (entry && entry.day === day) {
      if (nowMs - entry.readAt > REFRESH_MS && !entry.reading) void this.read(key, nowMs);
      return;
    }
    await this.read(key, nowMs);
  }

  private read(key: KeyRecord, nowMs: number): Promise<void> {
    const day = utcDay(nowMs);
    let entry = this.byKey.get(key.hash);
    if (!entry || entry.day !== day) {
      if (this.byKey.size >= MAX_KEYS) this.byKey.clear();
      entry = { day, left: key.dailyCredits, readAt: 0, reading: undefined };
      this.byKey.set(key.hash, entry);
    }
    const target = entry;
    // What this process charges while the read is out is counted from here on.
    const before = target.left;
    // peek: a read of the store that settles no lease (on Redis, this instance's leases count
    // as reserved until they settle, so the header may show up to one unused lease less).
    target.reading = (this.ledger.peek ?? this.ledger.usage)
      .call(this.ledger, key.hash, nowMs)
      .then((used) => {
        const charged = before - target.left;
        target.left = key.dailyCredits - used.total - (used.reserved ?? 0) - Math.max(0, charged);
        target.readAt = nowMs;
      })
      .catch(() => undefined) // the header keeps the last value
      .finally(() => {
        target.reading = undefined;
      });
    return target.reading;
  }

  /** Credits charged (or, negative, refunded) by this process on the day of `atMs`. */
  spend(hash: string, credits: number, atMs: number): void {
    const entry = this.byKey.get(hash);
    if (entry && entry.day === utcDay(atMs)) entry.left -= credits;
  }

  /** What `key` has left today, as known here (never below 0). */
  leftOf(key: KeyRecord): number {
    const entry = this.byKey.get(key.hash);
    return Math.max(0, entry ? entry.left : key.dailyCredits);
  }
}
