/**
 * Refusals counted per key, UTC day and cause (secret, JWT, allowlist, credit, rate), for the
 * usage report and `keys usage`. A refused call costs nothing and does no store work in its own
 * path: counts are summed in memory and written every FLUSH_MS (and at shutdown), so a flood of
 * refused calls is one write per key and cause, not one per call.
 */
import type { RefusalCause } from '../auth/access';
import { utcDay } from './ledger';

export type RefusalCounts = Partial<Record<RefusalCause, number>>;

export interface RefusalRow {
  hash: string;
  day: string;
  cause: RefusalCause;
  count: number;
}

/** Where the counts are kept: beside the ledger (the same SQLite file, or Redis). */
export interface RefusalStore {
  add(rows: RefusalRow[]): Promise<void>;
  /** The key's counts for the UTC day of `nowMs`. */
  counts(hash: string, nowMs: number): Promise<RefusalCounts>;
}

const FLUSH_MS = 250;

export class RefusalTally {
  private pending = new Map<string, RefusalRow>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly store: RefusalStore) {}

  add(hash: string, cause: RefusalCause, nowMs: number): void {
    const day = utcDay(nowMs);
    const id = `${hash}:${day}:${cause}`;
    const row = this.pending.get(id);
    if (row) row.count += 1;
    else this.pending.set(id, { hash, day, cause, count: 1 });
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    this.timer.unref?.();
  }

  /** Writes what is pending; a failed write keeps it for the next one. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    if (rows.length === 0) return this.writing;
    this.writing = this.writing
      .then(() => this.store.add(rows))
      .catch(() => {
        for (const row of rows) {
          const id = `${row.hash}:${row.day}:${row.cause}`;
          const kept = this.pending.get(id);
          if (kept) kept.count += row.count;
          else this.pending.set(id, row);
        }
        this.timer ??= setTimeout(() => void this.flush(), 4 * FLUSH_MS);
        this.timer.unref?.();
      });
    return this.writing;
  }

  /** The day's counts as written, with what this process has not written yet. */
  async counts(hash: string, nowMs: number): Promise<RefusalCounts> {
    const counts = await this.store.counts(hash, nowMs);
    const day = utcDay(nowMs);
    for (const row of this.pending.values()) {
      if (row.hash === hash && row.day === day) {
        counts[row.cause] = (counts[row.cause] ?? 0) + row.count;
      }
    }
    return counts;
  }
}
