/** The key registry in the SQLite file: one row per key hash, the record as JSON. */
import type { KeyRecord } from '../../auth/keys';
import type { KeyRegistry } from '../../auth/registry';
import type { SqliteDatabase } from './database';

export class SqliteKeyRegistry implements KeyRegistry {
  private readonly stmts;

  constructor(db: SqliteDatabase) {
    db.exec('CREATE TABLE IF NOT EXISTS keys (hash TEXT PRIMARY KEY, record TEXT NOT NULL);');
    this.stmts = {
      add: db.prepare('INSERT INTO keys (hash, record) VALUES (?, ?)'),
      get: db.prepare('SELECT record FROM keys WHERE hash = ?').pluck(),
      list: db.prepare('SELECT record FROM keys ORDER BY rowid').pluck(),
      set: db.prepare('UPDATE keys SET record = ? WHERE hash = ?'),
    };
  }

  async add(record: KeyRecord): Promise<void> {
    this.stmts.add.run(record.hash, JSON.stringify(record));
  }

  async get(hash: string): Promise<KeyRecord | undefined> {
    const text = this.stmts.get.get(hash) as string | undefined;
    return text ? (JSON.parse(text) as KeyRecord) : undefined;
  }

  async list(): Promise<KeyRecord[]> {
    return (this.stmts.list.all() as string[]).map((t) => JSON.parse(t) as KeyRecord);
  }

  async update(record: KeyRecord): Promise<boolean> {
    return this.stmts.set.run(JSON.stringify(record), record.hash).changes > 0;
  }

  async revoke(hash: string): Promise<boolean> {
    const record = await this.get(hash);
    if (!record) return false;
    record.revokedAt = new Date().toISOString();
    this.stmts.set.run(JSON.stringify(record), hash);
    return true;
  }
}
