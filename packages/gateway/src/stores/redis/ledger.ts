/**
 * The ledger in Redis, shared by any number of gateway instances on one Redis or a Redis Cluster:
 * debits by one Lua script call per key and round trip (group commit), exact across Redis
 * failures (batch ids void a lost batch; refunds apply once), and the lease store of
 * ../../credits/leaseStore.ts. How and why: docs/architecture/gateway.md#ledgers.
 */
import { randomBytes } from 'node:crypto';
import type { KeyRecord } from '../../auth/keys';
import {
  ALREADY_DURABLE,
  type DebitOutcome,
  type Durable,
  epochMinute,
  epochSecond,
  type Ledger,
  lastHourFrom,
  type Usage,
  utcDay,
} from '../../credits/ledger';
import type { LeaseGrant, LeaseRequest, LeaseStore, Settlement } from '../../credits/leaseStore';
import type { RedisConnection } from './connection';
import { ID_TTL_MS, type LedgerScripts, SCRIPTS } from './scripts';

/** One debit waiting for its batch to go to Redis. */
interface PendingDebit {
  method: string;
  cost: number;
  resolve(outcome: DebitOutcome): void;
  reject(error: Error): void;
}

/** Debits of one key and second, waiting to go to Redis together. */
interface DebitBatch {
  key: KeyRecord;
  nowMs: number;
  debits: PendingDebit[];
}

const OUTCOMES: DebitOutcome[] = ['ok', 'daily', 'rate'];

const dayKey = (hash: string, ms: number) => `gw:{${hash}}:day:${utcDay(ms)}`;
const secondKey = (hash: string, ms: number) => `gw:{${hash}}:sec:${epochSecond(ms)}`;
const hourKey = (hash: string, minute: number) => `gw:{${hash}}:hour:${Math.floor(minute / 60)}`;
const callsKey = (hash: string, ms: number) => `gw:{${hash}}:calls:${epochSecond(ms)}`;
const refundsKey = (hash: string, ms: number) => `gw:{${hash}}:refunds:${epochSecond(ms)}`;

/** A give-back (void or refund) waiting for Redis; dropped once its id would have expired. */
interface GiveBack {
  script: 'gwVoid' | 'gwRefund';
  args: (string | number)[];
  until: number;
}

/** A lease's fields of one instance in a day's hash (see the top of this file). */
const LEASE_FIELD = /^@([rt]):(.*)$/;

export class RedisLedger implements Ledger, LeaseStore {
  private readonly redis: LedgerScripts & RedisConnection['redis'];
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private nextId = 0;
  private giveBacks: GiveBack[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  /**
   * Debits not yet sent, per node (on a cluster; one Redis is one node), batched by key and second.
   */
  private readonly waiting = new Map<string, Map<string, DebitBatch>>();
  /** Script calls sent and not yet answered, per node; more debits for that node wait for them. */
  private readonly inFlight = new Map<string, number>();
  private sendScheduled = false;

  constructor(private readonly connection: RedisConnection) {
    const redis = connection.redis;
    for (const [name, script] of Object.entries(SCRIPTS)) redis.defineCommand(name, script);
    this.redis = redis as LedgerScripts & typeof redis;
    // Back after an outage: give back what waited for it.
    connection.onBack(() => void this.retryGiveBacks());
  }

  private callId(): string {
    return `${this.idPrefix}.${(this.nextId++).toString(36)}`;
  }

  /**
   * Joins the waiting batch of the key (and second); resolves once Redis decided it. Batches go at
   * the end of the turn when no script call is in flight, else as soon as the calls in flight
   * are answered (group commit): at low load a debit waits for nothing, and under load each
   * round trip decides all that came during the one before.
   */
  debit(key: KeyRecord, method: string, cost: number, nowMs: number): Promise<DebitOutcome> {
    return new Promise((resolve, reject) => {
      const node = this.connection.nodeOf(key.hash);
      let waiting = this.waiting.get(node);
      if (!waiting) this.waiting.set(node, (waiting = new Map()));
      const id = `${key.hash}:${epochSecond(nowMs)}`;
      let batch = waiting.get(id);
      if (!batch) {
        batch = { key, nowMs, debits: [] };
        waiting.set(id, batch);
      }
      batch.debits.push({ method, cost, resolve, reject });
      if (!this.inFlight.get(node)) this.sendSoon();
    });
  }

  /** At the end of the turn, sends the waiting batches of every node with nothing in flight. */
  private sendSoon(): void {
    if (this.sendScheduled) return;
    this.sendScheduled = true;
    setImmediate(() => {
      this.sendScheduled = false;
      for (const [node, waiting] of this.waiting) {
        if (this.inFlight.get(node)) continue;
        this.waiting.delete(node);
        this.inFlight.set(node, waiting.size);
        for (const batch of waiting.values()) {
          void this.sendBatch(batch).then((failure) => {
            const left = (this.inFlight.get(node) ?? 1) - 1;
            if (left > 0) this.inFlight.set(node, left);
            else this.inFlight.delete(node);
            // The node failed (down, or no answer within the timeout): what waited behind that
            // call fails with it now, instead of each batch waiting out its own timeout in turn.
            if (failure) this.failWaiting(node, failure);
            if (left <= 0 && this.waiting.has(node)) this.sendSoon();
          });
        }
      }
    });
  }

  private failWaiting(node: string, error: Error): void {
    const waiting = this.waiting.get(node);
    if (!waiting) return;
    this.waiting.delete(node);
    for (const batch of waiting.values()) for (const debit of batch.debits) debit.reject(error);
  }

  /** Sends one batch and settles its debits; returns the error when Redis failed. */
  private async sendBatch({ key, nowMs, debits }: DebitBatch): Promise<Error | undefined> {
    const minute = epochMinute(nowMs);
    const id = this.callId();
    const args: (string | number)[] = [
      dayKey(key.hash, nowMs),
      secondKey(key.hash, nowMs),
      hourKey(key.hash, minute),
      callsKey(key.hash, nowMs),
      key.dailyCredits,
      key.creditsPerSecond,
      minute,
      id,
    ];
    for (const debit of debits) args.push(debit.cost, debit.method);
    let outcomes: number[];
    try {
      outcomes = await this.redis.gwDebit(...args);
      if (outcomes.length !== debits.length) throw new Error('the debit script answered amiss');
    } catch (error) {
      // Outcome unknown (the answer may be lost after the script ran): void it if it applied.
      void this.giveBack('gwVoid', [
        dayKey(key.hash, nowMs),
        hourKey(key.hash, minute),
        callsKey(key.hash, nowMs),
        id,
        minute,
      ]);
      for (const debit of debits) debit.reject(error as Error);
      return error as Error;
    }
    this.connection.answered();
    debits.forEach((debit, i) => debit.resolve(OUTCOMES[outcomes[i]]));
    return undefined;
  }

  /** A debit is in Redis when its script has answered. */
  durable(): Durable {
    return ALREADY_DURABLE;
  }

  /** Never fails: a refund Redis cannot take now is retried (once applied, by its id). */
  async refund(key: KeyRecord, method: string, cost: number, debitMs: number): Promise<void> {
    const minute = epochMinute(debitMs);
    await this.giveBack('gwRefund', [
      dayKey(key.hash, debitMs),
      hourKey(key.hash, minute),
      refundsKey(key.hash, debitMs),
      cost,
      method,
      minute,
      this.callId(),
    ]);
  }

  private async giveBack(script: GiveBack['script'], args: (string | number)[]): Promise<void> {
    try {
      await this.redis[script](...args);
    } catch {
      this.giveBacks.push({ script, args, until: Date.now() + ID_TTL_MS - 1000 });
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.retryGiveBacks();
    }, 500);
    this.retryTimer.unref();
  }

  private async retryGiveBacks(): Promise<void> {
    const due = this.giveBacks.filter((g) => g.until > Date.now());
    this.giveBacks = [];
    for (const g of due) {
      try {
        await this.redis[g.script](...g.args);
      } catch {
        this.giveBacks.push(g);
      }
    }
    if (this.giveBacks.length > 0) this.scheduleRetry();
  }

  /** Give-backs still waiting for Redis (tests wait for none). */
  get pendingGiveBacks(): number {
    return this.giveBacks.length;
  }

  /**
   * Settles (once) and leases in one script call (gwLease, in scripts.ts): this instance's
   * leases of the day are released and their calls added to their methods and minutes.
   */
  async lease(
    key: KeyRecord,
    request: LeaseRequest | undefined,
    settle: Settlement | undefined,
  ): Promise<LeaseGrant> {
    const atMs = request?.nowMs ?? settle!.dayMs;
    const keys = [dayKey(key.hash, atMs), secondKey(key.hash, atMs)];
    const args: (string | number)[] = [this.idPrefix, settle?.seq ?? 0];
    args.push(settle?.methods.size ?? 0);
    for (const [method, credits] of settle?.methods ?? []) args.push(method, credits);
    args.push(settle?.minutes.size ?? 0);
    for (const [minute, credits] of settle?.minutes ?? []) {
      const hour = hourKey(key.hash, minute);
      let index = keys.indexOf(hour);
      if (index === -1) index = keys.push(hour) - 1;
      args.push(index + 1, minute, credits);
    }
    args.push(
      request?.want ?? 0,
      request?.min ?? 0,
      key.dailyCredits,
      key.creditsPerSecond,
      request?.dayShare ?? 1,
      request?.windowFloor ?? 0,
      epochSecond(atMs),
    );
    const [, granted, dayLeft, windowLeft] = await this.redis.gwLease(
      keys.length,
      ...keys,
      ...args,
    );
    this.connection.answered();
    return { granted, dayLeft, windowLeft };
  }

  /** What other instances hold in leases of the key's day granted in the last two seconds. */
  async liveLeases(key: KeyRecord, nowMs: number): Promise<number> {
    const day = await this.redis.hgetall(dayKey(key.hash, nowMs));
    return leases(day, epochSecond(nowMs), this.idPrefix);
  }

  onBack(listener: () => void): void {
    this.connection.onBack(listener);
  }

  /**
   * Today's charges: `total` and `methods` are what calls were charged (leases settled), and
   * `reserved` what live leases of other instances still hold (a lease left unsettled for two
   * seconds, by an instance that died, counts as charged).
   */
  async usage(hash: string, nowMs: number): Promise<Usage> {
    const minute = epochMinute(nowMs);
    const [day, thisHour, lastHour] = await Promise.all([
      this.redis.hgetall(dayKey(hash, nowMs)),
      this.redis.hgetall(hourKey(hash, minute)),
      this.redis.hgetall(hourKey(hash, minute - 60)),
    ]);
    const methods: Record<string, number> = {};
    const reserved = leases(day, epochSecond(nowMs));
    let total = 0;
    for (const [method, credits] of Object.entries(day)) {
      if (method === '*') total = Number(credits) - reserved;
      else if (!method.startsWith('@') && Number(credits) !== 0) methods[method] = Number(credits);
    }
    const perMinute = new Map<number, number>();
    for (const [m, credits] of [...Object.entries(lastHour), ...Object.entries(thisHour)]) {
      perMinute.set(Number(m), Number(credits));
    }
    return { total, methods, lastHour: lastHourFrom(perMinute, nowMs), reserved };
  }

  /** Gives back what it still can (before the connection is closed). */
  async flushAll(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.giveBacks.length > 0 && !this.connection.isDown) await this.retryGiveBacks();
  }
}

/**
 * Credits held in a day's hash by leases granted in the last two seconds (older ones were
 * never settled: their instance died), except those of instance `except`.
 */
function leases(day: Record<string, string>, second: number, except?: string): number {
  const held = new Map<string, { credits: number; second: number }>();
  for (const [field, value] of Object.entries(day)) {
    const match = LEASE_FIELD.exec(field);
    if (!match || match[2] === except) continue;
    const lease = held.get(match[2]) ?? { credits: 0, second: 0 };
    if (match[1] === 'r') lease.credits = Number(value);
    else lease.second = Number(value);
    held.set(match[2], lease);
  }
  let live = 0;
  for (const lease of held.values()) if (lease.second >= second - 2) live += lease.credits;
  return live;
}
