/**
 * The ledger: each key's daily balance, per-second window and usage, behind one interface (the
 * stores are in ../stores: SQLite for one gateway process, Redis or a Redis Cluster for any
 * number). Days are UTC dates, so balances reset at 00:00 UTC.
 */
import type { KeyRecord } from '../auth/keys';

/** The ledger can no longer be trusted (its file was deleted or replaced): paid calls stop. */
export class LedgerLost extends Error {}

/** ok: charged. daily: the balance cannot take the cost. rate: over the credits per second. */
export type DebitOutcome = 'ok' | 'daily' | 'rate';

export interface Usage {
  total: number;
  methods: Record<string, number>;
  /** Credits per minute over the last 60 minutes, oldest first (the last entry is this minute). */
  lastHour: number[];
  /**
   * Credits taken from today's balance by leases of other gateway instances that are not
   * settled yet (see leases.ts): not in `total` until their calls are, and not available.
   */
  reserved?: number;
}

/** Resolves once the debits it was taken after are on disk; calling it asks for that write. */
export type Durable = () => Promise<void>;

const settled = Promise.resolve();
/** Nothing is waiting to be written (or a store's debits are durable once decided). */
export const ALREADY_DURABLE: Durable = () => settled;

export interface Ledger {
  /**
   * Atomically takes `cost` from the key's balance for the day of `nowMs`, or nothing. A store
   * may decide first and write a moment later: see durable().
   */
  debit(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<DebitOutcome>;
  /**
   * A handle on every debit and refund made so far: calling it asks for them to be written now,
   * and resolves once they are on disk (the gateway answers a call after its debit is).
   */
  durable(): Durable;
  /**
   * Gives back a debit whose call failed or was never delivered (not charged), to the day and
   * minute of the debit (`debitMs`), whatever the time now.
   */
  refund(key: KeyRecord, method: string, cost: number, debitMs: number): Promise<void>;
  usage(hash: string, nowMs: number): Promise<Usage>;
  /**
   * The usage as the store has it now, without settling anything first (leases.ts): for the
   * remaining-credits header. Stores without leases leave it out (usage() is that).
   */
  peek?(hash: string, nowMs: number): Promise<Usage>;
}

let dayCache = { start: 0, end: 0, day: '' };
/** The UTC date of `ms` (YYYY-MM-DD); remembered, since every debit asks. */
export function utcDay(ms: number): string {
  if (ms < dayCache.start || ms >= dayCache.end) {
    const start = ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
    dayCache = { start, end: start + 86_400_000, day: new Date(start).toISOString().slice(0, 10) };
  }
  return dayCache.day;
}
export const epochMinute = (ms: number): number => Math.floor(ms / 60_000);
export const epochSecond = (ms: number): number => Math.floor(ms / 1000);

export function lastHourFrom(perMinute: Map<number, number>, nowMs: number): number[] {
  const now = epochMinute(nowMs);
  return Array.from({ length: 60 }, (_, i) => perMinute.get(now - 59 + i) ?? 0);
}
