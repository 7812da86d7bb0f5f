/**
 * One key's leases in this instance, as bookkeeping with no store and no timer: the lease in
 * hand, the key's demand (what sizes the next lease), and what its leases were used for per day
 * until they are settled. The LeasedLedger of leases.ts drives it.
 */
import type { KeyRecord } from '../auth/keys';
import { type DebitOutcome, epochMinute, epochSecond, utcDay } from './ledger';
import { LEASE, type LeaseGrant, type LeaseRequest, maxLease, type Settlement } from './leaseStore';

/** A call waiting for a lease. */
export interface Waiter {
  method: string;
  cost: number;
  nowMs: number;
  resolve(outcome: DebitOutcome | Promise<DebitOutcome>): void;
  reject(error: Error): void;
}

/** What this instance's leases of one day were used for, not yet settled. */
export interface Tally {
  dayMs: number;
  methods: Map<string, number>;
  minutes: Map<number, number>;
}

/** One key's leases in this instance. */
export interface KeyState {
  key: KeyRecord;
  /** The lease in hand: its second (-1: none), credits left, and its last grant's size. */
  second: number;
  left: number;
  granted: number;
  /** This instance's calls and credits of the key in `demandSecond` and the second before. */
  demandSecond: number;
  calls: number;
  credits: number;
  prevCalls: number;
  prevCredits: number;
  /** Call by call for the rest of this second (window past its lease half) or this day. */
  perCallSecond: number;
  perCallDay: string;
  /** Leased days not yet settled, and settlements sent but not confirmed (oldest first). */
  tallies: Map<string, Tally>;
  unapplied: Settlement[];
  /** Days asked to be settled now. */
  closing: Set<string>;
  /** Calls waiting for the store step in flight; the step itself; who waits for it to end. */
  waiters: Waiter[];
  busy: boolean;
  idle: (() => void)[];
  topUp: boolean;
  /** The cost of the key's last call (a lease asked ahead covers LEASE.minCalls of them). */
  lastCost: number;
  /** A second in which no other instance held a lease of the key (refusals need not wait). */
  quietSecond: number;
  /**
   * Settlements of the key this instance has seen applied: a daily refusal decided while one
   * was on its way (its credit not yet back) is decided again.
   */
  settlements: number;
}

export function newKeyState(key: KeyRecord): KeyState {
  return {
    key,
    second: -1,
    left: 0,
    granted: 0,
    demandSecond: -1,
    calls: 0,
    credits: 0,
    prevCalls: 0,
    prevCredits: 0,
    perCallSecond: -1,
    perCallDay: '',
    tallies: new Map(),
    unapplied: [],
    closing: new Set(),
    waiters: [],
    busy: false,
    idle: [],
    topUp: false,
    lastCost: 0,
    quietSecond: -1,
    settlements: 0,
  };
}

function newTally(nowMs: number): Tally {
  return { dayMs: nowMs, methods: new Map(), minutes: new Map() };
}

/** Adds `credits` (negative: a refund) to the tally's method and minute. */
export function addToTally(tally: Tally, method: string, minute: number, credits: number): void {
  tally.methods.set(method, (tally.methods.get(method) ?? 0) + credits);
  tally.minutes.set(minute, (tally.minutes.get(minute) ?? 0) + credits);
}

/** Counts a call of the key in its second (and keeps the second before). */
export function noteDemand(state: KeyState, second: number, cost: number): void {
  if (second > state.demandSecond) {
    const next = second === state.demandSecond + 1;
    state.prevCalls = next ? state.calls : 0;
    state.prevCredits = next ? state.credits : 0;
    state.demandSecond = second;
    state.calls = 0;
    state.credits = 0;
  }
  state.calls += 1;
  state.credits += cost;
}

/** Takes `cost` from the lease in hand, for the day and minute of `nowMs`. */
export function takeFromLease(state: KeyState, method: string, cost: number, nowMs: number): void {
  state.left -= cost;
  const day = utcDay(nowMs);
  let tally = state.tallies.get(day);
  if (!tally) state.tallies.set(day, (tally = newTally(nowMs)));
  addToTally(tally, method, epochMinute(nowMs), cost);
}

/** The lease to ask for: the rest of this second at this instance's rate, with room. */
export function leaseRequest(state: KeyState, cost: number, nowMs: number): LeaseRequest {
  const elapsed = nowMs - epochSecond(nowMs) * 1000;
  const rate = Math.max(state.prevCredits, (state.credits * 1000) / Math.max(elapsed, 100));
  const min = Math.ceil(LEASE.minCalls * cost);
  const want = Math.ceil((rate * (1000 - elapsed) * 1.25) / 1000);
  return {
    nowMs,
    want: Math.min(Math.max(want, min), maxLease(state.key)),
    min,
    dayShare: LEASE.dayShare,
    windowFloor: Math.floor(state.key.creditsPerSecond * (1 - LEASE.windowShare)),
  };
}

/**
 * A grant in hand: more credit for this second's lease, or a new one. None: call by call for
 * the rest of the day (near the daily limit) or of this second (past the window's lease half).
 */
export function applyGrant(state: KeyState, grant: LeaseGrant, request: LeaseRequest): void {
  const second = epochSecond(request.nowMs);
  if (grant.granted > 0) {
    if (state.second === second) state.left += grant.granted;
    else {
      state.second = second;
      state.left = grant.granted;
    }
    state.granted = grant.granted;
    const day = utcDay(request.nowMs);
    if (!state.tallies.has(day)) state.tallies.set(day, newTally(request.nowMs));
  } else if (Math.floor(grant.dayLeft / request.dayShare) < request.min) {
    state.perCallDay = utcDay(request.nowMs); // near the daily limit: call by call
  } else {
    state.perCallSecond = second; // past this second's lease half: call by call
  }
}
