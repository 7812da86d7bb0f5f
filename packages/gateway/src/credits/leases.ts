/**
 * Leases: credit a shared ledger (Redis, a Redis Cluster) has already reserved for this process,
 * so a call of a busy key in good standing is debited here, with no round trip, and still never
 * goes upstream unpaid. Transport-free: the store's primitives are the LeaseStore interface and
 * the LEASE.* sizes and times below are one table, both in leaseStore.ts; one key's bookkeeping
 * (its lease in hand, demand and tallies) is in leaseState.ts. When a key gets a lease, its size,
 * settlement, exact refusals and what a crash costs: docs/architecture/gateway.md#leases.
 */
import type { KeyRecord } from '../auth/keys';
import {
  type DebitOutcome,
  type Durable,
  epochMinute,
  epochSecond,
  type Ledger,
  type Usage,
  utcDay,
} from './ledger';
import {
  addToTally,
  applyGrant,
  type KeyState,
  leaseRequest,
  newKeyState,
  noteDemand,
  takeFromLease,
  type Waiter,
} from './leaseState';
import { LEASE, type LeaseGrant, type LeaseStore, maxLease, type Settlement } from './leaseStore';

const OK: Promise<DebitOutcome> = Promise.resolve('ok');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Ledger whose busy keys are debited from leases of `store` (the same ledger as `inner`). */
export class LeasedLedger implements Ledger {
  /** Debits taken from leases, and debits sent to the ledger call by call, so far. */
  readonly debits = { leased: 0, ledger: 0 };
  private readonly states = new Map<string, KeyState>();
  private nextSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly inner: Ledger,
    private readonly store: LeaseStore,
    /** The clock debits are stamped with (tests move it); timers run on real time. */
    private readonly now: () => number = Date.now,
  ) {
    store.onBack(() => {
      for (const state of this.states.values()) if (state.unapplied.length) void this.work(state);
    });
  }

  debit(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<DebitOutcome> {
    let state = this.states.get(key.hash);
    if (!state) {
      state = newKeyState(key);
      this.states.set(key.hash, state);
      this.scheduleTick();
    }
    state.key = key;
    state.lastCost = cost;
    const second = epochSecond(nowMs);
    noteDemand(state, second, cost);
    if (state.second === second && state.left >= cost) {
      this.take(state, method, cost, nowMs);
      if (state.left < state.granted / 4 && !state.busy && !this.closed) {
        state.topUp = true;
        void this.work(state);
      }
      return OK;
    }
    if (!this.leasable(state, cost, nowMs)) return this.perCall(state, method, cost, nowMs);
    return new Promise((resolve, reject) => {
      state.waiters.push({ method, cost, nowMs, resolve, reject });
      void this.work(state);
    });
  }

  durable(): Durable {
    return this.inner.durable();
  }

  /**
   * A refund of a day this instance has leased for and not settled goes with that settlement
   * (to the minute of the debit); any other goes to the ledger now.
   */
  async refund(key: KeyRecord, method: string, cost: number, debitMs: number): Promise<void> {
    const tally = this.states.get(key.hash)?.tallies.get(utcDay(debitMs));
    if (!tally) return this.inner.refund(key, method, cost, debitMs);
    addToTally(tally, method, epochMinute(debitMs), -cost);
  }

  /** Settles this instance's leases of the key first, so what it answered is in the report. */
  async usage(hash: string, nowMs: number): Promise<Usage> {
    const state = this.states.get(hash);
    if (state) await this.settleNow(state);
    return this.inner.usage(hash, nowMs);
  }

  /** What the store has now: leases out (this instance's too) count as reserved. */
  peek(hash: string, nowMs: number): Promise<Usage> {
    return this.inner.usage(hash, nowMs);
  }

  /** Settles every lease (what is unused goes back); for a clean shutdown. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all([...this.states.values()].map((state) => this.settleNow(state)));
  }

  /** Whether calls of this key may be debited from a lease now. */
  private leasable(state: KeyState, cost: number, nowMs: number): boolean {
    return (
      !this.closed &&
      maxLease(state.key) >= LEASE.minCalls * cost &&
      (state.calls >= LEASE.afterCalls || state.prevCalls >= LEASE.afterCalls) &&
      state.perCallSecond !== epochSecond(nowMs) &&
      state.perCallDay !== utcDay(nowMs) &&
      state.unapplied.length === 0
    );
  }

  /** Takes `cost` from the lease in hand, for the day and minute of `nowMs`. */
  private take(state: KeyState, method: string, cost: number, nowMs: number): void {
    this.debits.leased += 1;
    takeFromLease(state, method, cost, nowMs);
  }

  /**
   * A call debited in the ledger itself. Refused by the day while leases may hold credit of it,
   * it is decided again once they are settled (this instance's at once, others' as they end).
   */
  private async perCall(
    state: KeyState,
    method: string,
    cost: number,
    nowMs: number,
  ): Promise<DebitOutcome> {
    this.debits.ledger += 1;
    const day = utcDay(nowMs);
    let outcome: DebitOutcome;
    // This instance's leases of the day may hold credit, or be on their way back while the
    // debit is decided (a settlement in flight, or applied meanwhile): settle them, then decide
    // again, until no settlement of the key came between (a few times at most).
    for (let tries = 0; ; tries += 1) {
      const settledBefore = state.settlements;
      outcome = await this.inner.debit(state.key, method, cost, nowMs);
      if (outcome !== 'daily' || maxLease(state.key) < LEASE.minCalls * cost) return outcome;
      const ownMayHold =
        state.tallies.has(day) ||
        state.unapplied.length > 0 ||
        state.busy ||
        state.settlements !== settledBefore;
      if (!ownMayHold || tries === 3) break;
      await this.settleNow(state);
    }
    const second = epochSecond(this.now());
    if (state.quietSecond === second) return outcome;
    // Other instances' leases: wait (a moment) for them to be settled. The debit is decided
    // again after the last look finds none, since one may have landed after it was decided.
    const deadline = Date.now() + LEASE.settleWaitMs;
    while ((await this.store.liveLeases(state.key, nowMs)) > 0) {
      if (Date.now() > deadline) return outcome;
      await sleep(100);
      outcome = await this.inner.debit(state.key, method, cost, nowMs);
      if (outcome !== 'daily') return outcome;
    }
    outcome = await this.inner.debit(state.key, method, cost, nowMs);
    if (outcome === 'daily') state.quietSecond = second;
    return outcome;
  }

  /** Asks for every unsettled day of the key to be settled, and waits until it is. */
  private async settleNow(state: KeyState): Promise<void> {
    for (const day of state.tallies.keys()) state.closing.add(day);
    if (state.busy) await new Promise<void>((resolve) => state.idle.push(resolve));
    else await this.work(state);
  }

  /**
   * The key's store steps, one at a time: settlements not yet confirmed, then a lease for the
   * waiting calls (settling the lease before it in the same step), then a lease asked ahead,
   * then settlements asked for.
   */
  private async work(state: KeyState): Promise<void> {
    if (state.busy) return;
    state.busy = true;
    try {
      for (;;) {
        if (state.unapplied.length > 0) {
          try {
            await this.store.lease(state.key, undefined, state.unapplied[0]);
            state.unapplied.shift();
            state.settlements += 1;
            continue;
          } catch {
            // Retried by the tick and when the store is back; calls go to the ledger meanwhile.
            this.toPerCall(state);
            state.topUp = false;
            state.closing.clear();
            break;
          }
        }
        if (state.waiters.length > 0) {
          await this.leaseForWaiters(state);
          continue;
        }
        if (state.topUp) {
          state.topUp = false;
          await this.leaseAhead(state);
          continue;
        }
        const day = state.closing.values().next().value;
        if (day !== undefined) {
          state.closing.delete(day);
          await this.settle(state, this.closeDay(state, day));
          continue;
        }
        break;
      }
    } finally {
      state.busy = false;
      for (const resolve of state.idle.splice(0)) resolve();
    }
  }

  private async leaseForWaiters(state: KeyState): Promise<void> {
    // A lease asked ahead may have come while they waited: they take from it first, and only
    // the rest ask for more (a second grant for the same calls would be unused credit that a
    // crash keeps, beyond the lease in hand).
    state.waiters = this.takeForWaiters(state);
    if (state.waiters.length === 0) return;
    const first = state.waiters[0];
    if (!this.leasable(state, first.cost, first.nowMs)) return this.toPerCall(state);
    const day = utcDay(first.nowMs);
    const second = epochSecond(first.nowMs);
    // Leases of other days are over: settled on their own.
    for (const other of [...state.tallies.keys()]) {
      if (other !== day) await this.settle(state, this.closeDay(state, other));
    }
    if (state.unapplied.length > 0) return this.toPerCall(state);
    // The lease in hand is of an earlier second: settled in the same step as the new one.
    const settle = state.second !== second ? this.closeDay(state, day) : undefined;
    let grant: LeaseGrant;
    const request = leaseRequest(state, first.cost, first.nowMs);
    try {
      grant = await this.store.lease(state.key, request, settle);
      if (settle) state.settlements += 1;
    } catch (error) {
      if (settle) state.unapplied.push(settle);
      for (const waiter of state.waiters.splice(0)) waiter.reject(error as Error);
      return;
    }
    applyGrant(state, grant, request);
    // Waiters of this lease's second take from it; the rest ask again (another lease while
    // this one gave some), or go to the ledger call by call.
    const rest = this.takeForWaiters(state);
    if (grant.granted > 0)
      state.waiters.push(...rest.filter((w) => epochSecond(w.nowMs) >= second));
    for (const waiter of rest) {
      if (grant.granted === 0 || epochSecond(waiter.nowMs) < second) {
        waiter.resolve(this.perCall(state, waiter.method, waiter.cost, waiter.nowMs));
      }
    }
  }

  /** Waiters of the lease in hand's second take from it while it lasts; returns the others. */
  private takeForWaiters(state: KeyState): Waiter[] {
    const rest: Waiter[] = [];
    for (const waiter of state.waiters.splice(0)) {
      if (epochSecond(waiter.nowMs) === state.second && state.left >= waiter.cost) {
        this.take(state, waiter.method, waiter.cost, waiter.nowMs);
        waiter.resolve('ok');
      } else rest.push(waiter);
    }
    return rest;
  }

  /** More credit for the lease in hand before it runs out (its calls go on meanwhile). */
  private async leaseAhead(state: KeyState): Promise<void> {
    const nowMs = this.now();
    const cost = state.lastCost;
    if (state.second !== epochSecond(nowMs) || !this.leasable(state, cost, nowMs)) return;
    const request = leaseRequest(state, cost, nowMs);
    try {
      applyGrant(state, await this.store.lease(state.key, request, undefined), request);
    } catch {
      // The calls go on with what is left, then wait for a lease or go to the ledger.
    }
  }

  /** Ends the key's leases of `day`: what they came to, to settle (the lease in hand is gone). */
  private closeDay(state: KeyState, day: string): Settlement | undefined {
    const tally = state.tallies.get(day);
    if (state.second >= 0 && utcDay(state.second * 1000) === day) {
      state.second = -1;
      state.left = 0;
      state.granted = 0;
    }
    if (!tally) return undefined;
    state.tallies.delete(day);
    return {
      dayMs: tally.dayMs,
      seq: ++this.nextSeq,
      methods: tally.methods,
      minutes: tally.minutes,
    };
  }

  private async settle(state: KeyState, settlement: Settlement | undefined): Promise<void> {
    if (!settlement) return;
    try {
      await this.store.lease(state.key, undefined, settlement);
      state.settlements += 1;
    } catch {
      state.unapplied.push(settlement);
    }
  }

  /** The waiting calls go to the ledger call by call. */
  private toPerCall(state: KeyState): void {
    for (const waiter of state.waiters.splice(0)) {
      waiter.resolve(this.perCall(state, waiter.method, waiter.cost, waiter.nowMs));
    }
  }

  /**
   * Just after each second: settles leases whose second is over, retries settlements not yet
   * confirmed, and forgets keys with nothing left to settle that were quiet for two seconds.
   */
  private scheduleTick(): void {
    if (this.timer || this.closed) return;
    const delay = 1000 - (Date.now() % 1000) + LEASE.settleDelayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, delay);
    this.timer.unref();
  }

  private tick(): void {
    const nowMs = this.now();
    const second = epochSecond(nowMs);
    const today = utcDay(nowMs);
    for (const [hash, state] of this.states) {
      for (const day of state.tallies.keys()) {
        if (state.second !== second || day !== today) state.closing.add(day);
      }
      if (state.closing.size > 0 || state.unapplied.length > 0) void this.work(state);
      else if (!state.busy && state.tallies.size === 0 && state.demandSecond < second - 2) {
        this.states.delete(hash);
      }
    }
    if (this.states.size > 0) this.scheduleTick();
  }
}
