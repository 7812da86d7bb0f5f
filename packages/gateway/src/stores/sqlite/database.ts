/** The SQLite file of one gateway process: opened once, shared by its key registry and ledger. */
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** WAL (a commit is a write to the -wal file), NORMAL sync, and a wait for a busy file. */
export function openDatabase(path: string): SqliteDatabase {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
