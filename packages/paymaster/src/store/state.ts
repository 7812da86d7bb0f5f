/**
 * What the paymaster keeps across a restart, in one SQLite file (an in-memory database when no
 * file is named): tracking ids and the latest relayer transaction of each, what an account owes
 * for a reverted execution the relayer paid for, and what each sponsor key spent per UTC day.
 * Amounts are FRI, stored as decimal text (they exceed 64 bits). Accounts' turns (one execution
 * of an account at a time) are leases here too, so paymasters sharing the file take turns.
 */
import Database from 'better-sqlite3';

import { type Felt, toHex } from '../protocol/felt';
import type { StateStore } from './store';

export { utcDay } from './store';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tracking (id TEXT PRIMARY KEY, hash TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS debts (account TEXT PRIMARY KEY, fri TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS account_turns (
  account TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sponsor_spend (
  key_id TEXT NOT NULL, day INTEGER NOT NULL, fri TEXT NOT NULL, PRIMARY KEY (key_id, day));
`;

export class PaymasterState implements StateStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path = ':memory:') {
    this.db = new Database(path);
    if (path !== ':memory:') {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma('busy_timeout = 5000');
    }
    this.db.exec(SCHEMA);
    const db = this.db;
    this.statements = {
      putTracking: db.prepare(
        'INSERT OR REPLACE INTO tracking (id, hash, created_at) VALUES (?, ?, ?)',
      ),
      getTracking: db.prepare('SELECT hash, created_at FROM tracking WHERE id = ?'),
      getDebt: db.prepare('SELECT fri FROM debts WHERE account = ?'),
      putDebt: db.prepare('INSERT OR REPLACE INTO debts (account, fri) VALUES (?, ?)'),
      dropDebt: db.prepare('DELETE FROM debts WHERE account = ?'),
      getSpend: db.prepare('SELECT fri FROM sponsor_spend WHERE key_id = ? AND day = ?'),
      putSpend: db.prepare(
        'INSERT OR REPLACE INTO sponsor_spend (key_id, day, fri) VALUES (?, ?, ?)',
      ),
      getTurn: db.prepare('SELECT holder, expires_at FROM account_turns WHERE account = ?'),
      putTurn: db.prepare(
        'INSERT OR REPLACE INTO account_turns (account, holder, expires_at) VALUES (?, ?, ?)',
      ),
      dropTurn: db.prepare('DELETE FROM account_turns WHERE account = ? AND holder = ?'),
    };
  }

  async putTracking(id: Felt, hash: Felt, createdAt = Date.now()): Promise<void> {
    this.statements.putTracking.run(toHex(id), toHex(hash), createdAt);
  }

  async getTracking(id: Felt): Promise<{ hash: Felt; createdAt: number } | undefined> {
    const row = this.statements.getTracking.get(toHex(id)) as
      { hash: string; created_at: number } | undefined;
    return row && { hash: BigInt(row.hash), createdAt: row.created_at };
  }

  /** What `account` owes, in FRI, for reverted executions the relayer paid for. */
  async debt(account: Felt): Promise<bigint> {
    return this.debtNow(account);
  }

  private debtNow(account: Felt): bigint {
    const row = this.statements.getDebt.get(toHex(account)) as { fri: string } | undefined;
    return row ? BigInt(row.fri) : 0n;
  }

  /** Adds `fri` (negative: paid) to the account's debt, never below 0. */
  async addDebt(account: Felt, fri: bigint): Promise<void> {
    const next = this.debtNow(account) + fri;
    if (next <= 0n) this.statements.dropDebt.run(toHex(account));
    else this.statements.putDebt.run(toHex(account), next.toString());
  }

  /** What the sponsor key `keyId` spent (or holds reserved) on `day`, in FRI. */
  async sponsorSpent(keyId: string, day: number): Promise<bigint> {
    return this.spentNow(keyId, day);
  }

  private spentNow(keyId: string, day: number): bigint {
    const row = this.statements.getSpend.get(keyId, day) as { fri: string } | undefined;
    return row ? BigInt(row.fri) : 0n;
  }

  /**
   * Reserves `fri` of the key's budget for `day` when it fits in `limit`, atomically (a read and a
   * write in one SQLite transaction): false when it does not fit.
   */
  async reserveSponsor(keyId: string, day: number, fri: bigint, limit: bigint): Promise<boolean> {
    return this.db.transaction(() => {
      const spent = this.spentNow(keyId, day);
      if (spent + fri > limit) return false;
      this.statements.putSpend.run(keyId, day, (spent + fri).toString());
      return true;
    })();
  }

  /** Gives back (negative) or adds spending to a day already reserved on. */
  async adjustSponsor(keyId: string, day: number, fri: bigint): Promise<void> {
    const next = this.spentNow(keyId, day) + fri;
    this.statements.putSpend.run(keyId, day, (next < 0n ? 0n : next).toString());
  }

  /**
   * Takes the account's turn for `holder` until `nowMs + leaseMs` when no one holds it (or a
   * holder's lease ran out: a paymaster that died), atomically; false when another holds it.
   */
  async takeTurn(
    account: string,
    holder: string,
    nowMs: number,
    leaseMs: number,
  ): Promise<boolean> {
    return this.db
      .transaction(() => {
        const row = this.statements.getTurn.get(account) as
          { holder: string; expires_at: number } | undefined;
        if (row && row.holder !== holder && row.expires_at > nowMs) return false;
        this.statements.putTurn.run(account, holder, nowMs + leaseMs);
        return true;
      })
      .immediate();
  }

  async releaseTurn(account: string, holder: string): Promise<void> {
    this.statements.dropTurn.run(account, holder);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
