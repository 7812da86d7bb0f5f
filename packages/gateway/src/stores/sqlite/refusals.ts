/** Refusal counts in the SQLite file: one row per key, day and cause. */
import type { RefusalCause } from '../../auth/access';
import { utcDay } from '../../credits/ledger';
import type { RefusalCounts, RefusalRow, RefusalStore } from '../../credits/refusals';
import type { SqliteDatabase } from './database';

export class SqliteRefusals implements RefusalStore {
  private readonly stmts;
  private readonly write;

  constructor(db: SqliteDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS refusals (
      key TEXT NOT NULL, day TEXT NOT NULL, cause TEXT NOT NULL, count INTEGER NOT NULL,
      PRIMARY KEY (key, day, cause)) WITHOUT ROWID;`);
    this.stmts = {
      add: db.prepare(
        `INSERT INTO refusals (key, day, cause, count) VALUES (?, ?, ?, ?)
         ON CONFLICT (key, day, cause) DO UPDATE SET count = count + excluded.count`,
      ),
      day: db.prepare('SELECT cause, count FROM refusals WHERE key = ? AND day = ?'),
    };
    this.write = db.transaction((rows: RefusalRow[]) => {
      for (const r of rows) this.stmts.add.run(r.hash, r.day, r.cause, r.count);
    });
  }

  async add(rows: RefusalRow[]): Promise<void> {
    this.write(rows);
  }

  async counts(hash: string, nowMs: number): Promise<RefusalCounts> {
    const rows = this.stmts.day.all(hash, utcDay(nowMs)) as { cause: string; count: number }[];
    const counts: RefusalCounts = {};
    for (const { cause, count } of rows) counts[cause as RefusalCause] = count;
    return counts;
  }
}
