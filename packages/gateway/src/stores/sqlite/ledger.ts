/**
 * The ledger in the SQLite file (better-sqlite3) of one gateway process: balances decided in
 * memory, debits group-committed and durable before the answer, one `serve` per file (lock.ts),
 * and a file deleted or replaced under it noticed (LedgerLost).
 * How and why: docs/architecture/gateway.md#ledgers.
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { KeyRecord } from '../../auth/keys';
import {
  ALREADY_DURABLE,
  type DebitOutcome,
  type Durable,
  epochMinute,
  type Ledger,
  LedgerLost,
  lastHourFrom,
  type Usage,
  utcDay,
} from '../../credits/ledger';
import { PerSecondWindow } from '../../credits/perSecond';
import type { SqliteDatabase } from './database';

const TOTAL = '*';
/** A debit no answer has asked for yet is still written this soon (the file follows memory). */
const COMMIT_WITHIN_MS = 20;

interface Entry {
  key: string;
  day: string;
  method: string;
  minute: number;
  credits: number;
}

export class SqliteLedger implements Ledger {
  private readonly window = new PerSecondWindow();
  private readonly stmts;
  private readonly write: Database.Transaction<(batch: Batch) => void>;
  /** Today's total per key hash, loaded from the file on first use. */
  private readonly used = new Map<string, { day: string; credits: number }>();
  /** Entries not yet committed, and the promise of their commit. */
  private batch: Batch | undefined;
  private readonly inode: { dev: number; ino: number };
  private lost: LedgerLost | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    /** The file `db` is: a ledger whose file is deleted or replaced stops (LedgerLost). */
    private readonly path: string,
  ) {
    const { dev, ino } = statSync(path);
    this.inode = { dev, ino };
    db.exec(`
      CREATE TABLE IF NOT EXISTS usage (
        key TEXT NOT NULL, day TEXT NOT NULL, method TEXT NOT NULL, credits INTEGER NOT NULL,
        PRIMARY KEY (key, day, method)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS usage_minute (
        key TEXT NOT NULL, minute INTEGER NOT NULL, credits INTEGER NOT NULL,
        PRIMARY KEY (key, minute)) WITHOUT ROWID;
    `);
    this.stmts = {
      total: db
        .prepare('SELECT credits FROM usage WHERE key = ? AND day = ? AND method = ?')
        .pluck(),
      add: db.prepare(
        `INSERT INTO usage (key, day, method, credits) VALUES (?, ?, ?, ?)
         ON CONFLICT (key, day, method) DO UPDATE SET credits = credits + excluded.credits`,
      ),
      addMinute: db.prepare(
        `INSERT INTO usage_minute (key, minute, credits) VALUES (?, ?, ?)
         ON CONFLICT (key, minute) DO UPDATE SET credits = credits + excluded.credits`,
      ),
      methods: db.prepare('SELECT method, credits FROM usage WHERE key = ? AND day = ?'),
      minutes: db.prepare('SELECT minute, credits FROM usage_minute WHERE key = ? AND minute > ?'),
    };
    // One transaction for a whole batch, summed per row as it was recorded.
    this.write = db.transaction((batch: Batch) => {
      for (const sums of batch.sums.values()) {
        this.stmts.add.run(sums.key, sums.day, TOTAL, sums.total);
        for (const [method, credits] of sums.methods) {
          this.stmts.add.run(sums.key, sums.day, method, credits);
        }
        this.stmts.addMinute.run(sums.key, sums.minute, sums.total);
      }
      for (const e of batch.others) {
        this.stmts.add.run(e.key, e.day, TOTAL, e.credits);
        this.stmts.add.run(e.key, e.day, e.method, e.credits);
        this.stmts.addMinute.run(e.key, e.minute, e.credits);
      }
    });
  }

  private today(hash: string, day: string): { day: string; credits: number } {
    let used = this.used.get(hash);
    if (!used || used.day !== day) {
      used = { day, credits: (this.stmts.total.get(hash, day, TOTAL) as number | undefined) ?? 0 };
      this.used.set(hash, used);
    }
    return used;
  }

  /** Adds an entry to the open batch (committed when asked for, or within COMMIT_WITHIN_MS). */
  private record(entry: Entry): Batch {
    let batch = this.batch;
    if (!batch) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const committed = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      committed.catch(() => undefined); // each waiter sees the failure; none is left unhandled
      const open: Batch = {
        sums: new Map(),
        others: [],
        committed,
        resolve,
        reject,
        asked: false,
        timer: undefined,
      };
      open.timer = setTimeout(() => this.commitSoon(open), COMMIT_WITHIN_MS);
      this.batch = batch = open;
    }
    // Summed per key as it comes (no per-entry rows to build at the commit).
    let sums = batch.sums.get(entry.key);
    if (!sums) {
      sums = { key: entry.key, day: entry.day, minute: entry.minute, total: 0, methods: new Map() };
      batch.sums.set(entry.key, sums);
    }
    if (sums.day === entry.day && sums.minute === entry.minute) {
      sums.total += entry.credits;
      sums.methods.set(entry.method, (sums.methods.get(entry.method) ?? 0) + entry.credits);
    } else {
      batch.others.push(entry); // the batch spans a minute: the rare case keeps its own rows
    }
    return batch;
  }

  /** Commits `batch` once this turn's other answers have asked too (one transaction for all). */
  private commitSoon(batch: Batch): void {
    if (batch.asked) return;
    batch.asked = true;
    setImmediate(() => this.flush(batch));
  }

  durable(): Durable {
    const batch = this.batch;
    if (!batch) return ALREADY_DURABLE;
    return () => {
      this.commitSoon(batch);
      return batch.committed;
    };
  }

  /** The file this store opened is still the one at its path (not deleted or replaced). */
  private checkFile(): void {
    if (this.lost) return;
    const now = statSync(this.path, { throwIfNoEntry: false });
    if (!now || now.ino !== this.inode.ino || now.dev !== this.inode.dev) {
      this.lost = new LedgerLost(
        `the SQLite ledger file ${this.path} was ${now ? 'replaced' : 'deleted'} while in use`,
      );
      process.stderr.write(`l2-gateway: ${this.lost.message}; paid calls are stopped\n`);
    }
  }

  private flush(batch: Batch): void {
    if (this.batch === batch) this.batch = undefined;
    else if (batch.sums.size === 0) return; // committed already
    clearTimeout(batch.timer);
    try {
      this.checkFile();
      if (this.lost) throw this.lost;
      this.write.immediate(batch);
    } catch (error) {
      // Nothing was written: give the in-memory balances back and fail every debit of the batch.
      const giveBack = (key: string, day: string, credits: number) => {
        const used = this.used.get(key);
        if (used?.day === day) used.credits -= credits;
      };
      for (const sums of batch.sums.values()) giveBack(sums.key, sums.day, sums.total);
      for (const e of batch.others) giveBack(e.key, e.day, e.credits);
      batch.reject(error as Error);
      return;
    } finally {
      batch.sums.clear();
      batch.others = [];
    }
    batch.resolve();
  }

  /** Decided at once, in memory. */
  async debit(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<DebitOutcome> {
    if (this.lost) throw this.lost;
    const day = utcDay(nowMs);
    const used = this.today(key.hash, day);
    if (used.credits + cost > key.dailyCredits) return 'daily';
    if (!this.window.take(key.hash, cost, key.creditsPerSecond, nowMs)) return 'rate';
    used.credits += cost;
    // Decided now; written with the open batch (durable() waits for that commit).
    this.record({ key: key.hash, day, method, minute: epochMinute(nowMs), credits: cost });
    return 'ok';
  }

  async refund(key: KeyRecord, method: string, cost: number, debitMs: number): Promise<void> {
    const day = utcDay(debitMs);
    // The balance in memory is today's: a refund of an earlier day's debit is written only.
    const used = this.used.get(key.hash);
    if (used?.day === day) used.credits -= cost;
    const batch = this.record({
      key: key.hash,
      day,
      method,
      minute: epochMinute(debitMs),
      credits: -cost,
    });
    this.commitSoon(batch);
    await batch.committed;
  }

  async usage(hash: string, nowMs: number): Promise<Usage> {
    await this.durable()().catch(() => undefined);
    const rows = this.stmts.methods.all(hash, utcDay(nowMs)) as {
      method: string;
      credits: number;
    }[];
    const methods: Record<string, number> = {};
    let total = 0;
    for (const { method, credits } of rows) {
      if (method === TOTAL) total = credits;
      else if (credits !== 0) methods[method] = credits;
    }
    const minutes = this.stmts.minutes.all(hash, epochMinute(nowMs) - 60) as {
      minute: number;
      credits: number;
    }[];
    const perMinute = new Map(minutes.map((m) => [m.minute, m.credits]));
    return { total, methods, lastHour: lastHourFrom(perMinute, nowMs) };
  }

  /** Commits what is still open (before the file is closed). */
  flushAll(): void {
    if (this.batch) this.flush(this.batch);
  }
}

/** What one batch adds to one key's rows (day total, per method, per minute). */
interface KeySums {
  key: string;
  day: string;
  minute: number;
  total: number;
  methods: Map<string, number>;
}

interface Batch {
  /** Entries summed per key hash. */
  sums: Map<string, KeySums>;
  /** Entries of a key whose day or minute differs from its sums' (a batch across a minute). */
  others: Entry[];
  committed: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
  /** An answer waits for it: its commit is scheduled. */
  asked: boolean;
  timer: NodeJS.Timeout | undefined;
}
