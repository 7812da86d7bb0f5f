/**
 * What a shared ledger (Redis, a Redis Cluster) offers for leases, and their sizes and times:
 * the protocol between the LeasedLedger of leases.ts (what a lease is and when there is one is
 * told at its top) and the store that takes and settles leases atomically (stores/redis).
 */
import type { KeyRecord } from '../auth/keys';

/** The sizes and times of leases (see the top of leases.ts). */
export const LEASE = {
  /** A lease covers at least this many calls of the cost of the call that asks for it. */
  minCalls: 8,
  /** A lease is at most 1/secondShare of the key's credits per second. */
  secondShare: 16,
  /** A lease is at most 1/dayShare of what the key's day has left. */
  dayShare: 16,
  /** Leases come only from the first half of each second's window (the rest goes call by call). */
  windowShare: 0.5,
  /** Calls of a key, in this second or the last, before this instance leases for it. */
  afterCalls: 16,
  /** How long after the end of a second its leases are settled. */
  settleDelayMs: 20,
  /** How long a refusal waits at most for other instances' leases to settle. */
  settleWaitMs: 2500,
} as const;

/** The most one lease of `key` can hold: what a kill -9 can cost it, per lease. */
export function maxLease(key: KeyRecord): number {
  return Math.floor(key.creditsPerSecond / LEASE.secondShare);
}

/** A lease asked of the store. */
export interface LeaseRequest {
  /** The instant of the lease: its day and its second. */
  nowMs: number;
  /** Credits wanted, and the fewest worth having (less: no lease). */
  want: number;
  min: number;
  /** At most 1/dayShare of what the day has left. */
  dayShare: number;
  /** Only while this second's window keeps more than this after the lease. */
  windowFloor: number;
}

export interface LeaseGrant {
  /** Credits leased (0: none). */
  granted: number;
  /** What the key's day and this second's window have left after it, across instances. */
  dayLeft: number;
  windowLeft: number;
}

/**
 * What this instance's leases of one day came to: it releases every credit this instance still
 * has reserved for that day, and adds the net credits per method and per minute.
 */
export interface Settlement {
  /** Any instant of the day it settles. */
  dayMs: number;
  /** Increasing per instance: a settlement applies once, and never after a later one. */
  seq: number;
  /** Net credits (debits from leases, minus refunds) per method and per epoch minute. */
  methods: Map<string, number>;
  minutes: Map<number, number>;
}

/** What a shared ledger offers for leases (stores/redis implements it). */
export interface LeaseStore {
  /**
   * Applies `settle` (once: a settlement seen before is skipped), then leases for `request`, in
   * one atomic step; either may be missing. `settle` is of the request's day. Throws when the
   * store did not answer: the settlement is then sent again (with its sequence number).
   */
  lease(
    key: KeyRecord,
    request: LeaseRequest | undefined,
    settle: Settlement | undefined,
  ): Promise<LeaseGrant>;
  /** Credits of the day other instances still hold in leases of the last two seconds. */
  liveLeases(key: KeyRecord, nowMs: number): Promise<number>;
  /** Calls `listener` when the store is back after an outage. */
  onBack(listener: () => void): void;
}
