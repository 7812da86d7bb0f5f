/**
 * SQLite ledger (better-sqlite3). Every debit is one IMMEDIATE transaction, committed before the
 * call goes upstream; WAL mode makes each commit a write to the WAL file, so a `kill -9` of the
 * gateway loses no debit. The per-second window lives in memory: one SQLite file serves one
 * gateway process (use Redis for several).
 */
import Database from 'better-sqlite3';
import type { KeyRecord } from '../auth/keys';
import {
  type DebitOutcome,
  epochMinute,
  lastHourFrom,
  type Store,
  type Usage,
  utcDay,
} from './store';
import { PerSecondWindow } from './perSecond';

const TOTAL = '*';

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly window = new PerSecondWindow();
  private readonly stmts;
  private readonly debitTx;
  private readonly refundTx;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS keys (hash TEXT PRIMARY KEY, record TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS usage (
        key TEXT NOT NULL, day TEXT NOT NULL, method TEXT NOT NULL, credits INTEGER NOT NULL,
        PRIMARY KEY (key, day, method)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS usage_minute (
        key TEXT NOT NULL, minute INTEGER NOT NULL, credits INTEGER NOT NULL,
        PRIMARY KEY (key, minute)) WITHOUT ROWID;
    `);
    const db = this.db;
    this.stmts = {
      addKey: db.prepare('INSERT INTO keys (hash, record) VALUES (?, ?)'),
      getKey: db.prepare('SELECT record FROM keys WHERE hash = ?').pluck(),
      listKeys: db.prepare('SELECT record FROM keys ORDER BY rowid').pluck(),
      setKey: db.prepare('UPDATE keys SET record = ? WHERE hash = ?'),
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
    this.debitTx = db.transaction(
      (key: KeyRecord, method: string, cost: number, nowMs: number): DebitOutcome => {
        const day = utcDay(nowMs);
        const used = (this.stmts.total.get(key.hash, day, TOTAL) as number | undefined) ?? 0;
        if (used + cost > key.dailyCredits) return 'daily';
        if (!this.window.take(key.hash, cost, key.creditsPerSecond, nowMs)) return 'rate';
        this.stmts.add.run(key.hash, day, TOTAL, cost);
        this.stmts.add.run(key.hash, day, method, cost);
        this.stmts.addMinute.run(key.hash, epochMinute(nowMs), cost);
        return 'ok';
      },
    );
    this.refundTx = db.transaction(
      (key: KeyRecord, method: string, cost: number, nowMs: number) => {
        const day = utcDay(nowMs);
        this.stmts.add.run(key.hash, day, TOTAL, -cost);
        this.stmts.add.run(key.hash, day, method, -cost);
        this.stmts.addMinute.run(key.hash, epochMinute(nowMs), -cost);
      },
    );
  }

  async addKey(record: KeyRecord): Promise<void> {
    this.stmts.addKey.run(record.hash, JSON.stringify(record));
  }

  async getKey(hash: string): Promise<KeyRecord | undefined> {
    const text = this.stmts.getKey.get(hash) as string | undefined;
    return text ? (JSON.parse(text) as KeyRecord) : undefined;
  }

  async listKeys(): Promise<KeyRecord[]> {
    return (this.stmts.listKeys.all() as string[]).map((t) => JSON.parse(t) as KeyRecord);
  }

  async revokeKey(hash: string): Promise<boolean> {
    const record = await this.getKey(hash);
    if (!record) return false;
    record.revokedAt = new Date().toISOString();
    this.stmts.setKey.run(JSON.stringify(record), hash);
    return true;
  }

  async debit(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<DebitOutcome> {
    return this.debitTx.immediate(key, method, cost, nowMs);
  }

  async refund(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<void> {
    this.refundTx.immediate(key, method, cost, nowMs);
  }

  async usage(hash: string, nowMs: number): Promise<Usage> {
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

  async close(): Promise<void> {
    this.db.close();
  }
}
