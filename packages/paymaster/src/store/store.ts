/**
 * What the paymaster keeps across a restart and shares between its instances: one SQLite file
 * (store/state.ts, instances on one host) or one Redis (store/redis.ts, instances anywhere).
 * Amounts are FRI. Every method is atomic on its own.
 */
import type { Felt } from '../protocol/felt';

export interface StateStore {
  putTracking(id: Felt, hash: Felt, createdAt?: number): Promise<void>;
  getTracking(id: Felt): Promise<{ hash: Felt; createdAt: number } | undefined>;
  /** What `account` owes, in FRI, for reverted executions the relayer paid for. */
  debt(account: Felt): Promise<bigint>;
  /** Adds `fri` (negative: paid) to the account's debt, never below 0. */
  addDebt(account: Felt, fri: bigint): Promise<void>;
  /** What the sponsor key `keyId` spent (or holds reserved) on `day`, in FRI. */
  sponsorSpent(keyId: string, day: number): Promise<bigint>;
  /** Reserves `fri` of the key's budget for `day` when it fits in `limit`; false when not. */
  reserveSponsor(keyId: string, day: number, fri: bigint, limit: bigint): Promise<boolean>;
  /** Gives back (negative) or adds spending to a day already reserved on, never below 0. */
  adjustSponsor(keyId: string, day: number, fri: bigint): Promise<void>;
  /**
   * Takes the account's turn for `holder` for `leaseMs` when no one holds it (or a holder's
   * lease ran out: a paymaster that died); false when another holds it.
   */
  takeTurn(account: string, holder: string, nowMs: number, leaseMs: number): Promise<boolean>;
  /** Ends `holder`'s turn (only its own). */
  releaseTurn(account: string, holder: string): Promise<void>;
  close(): Promise<void>;
}

/** The UTC day of a unix time in ms: budgets reset at 00:00 UTC. */
export const utcDay = (ms: number): number => Math.floor(ms / 86_400_000);
