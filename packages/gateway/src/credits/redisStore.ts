/**
 * Redis ledger, shared by any number of gateway instances, on one Redis or on a Redis Cluster.
 * Debits of one key go to Redis together as one Lua script call (group commit: what arrives
 * while a call is in flight goes in the next one): in order, the script checks each against the
 * daily total and this second's window and charges it, or refuses it, all atomically. Under load
 * that is one round trip and one script run per key and round trip, not per call. Every Redis key
 * of one API key shares its hash tag ({hash}), so each script touches one slot of a cluster; on a
 * cluster, group commit works per node (the master that holds the key's slot): a node that is
 * slow or down holds and fails only the debits of its own keys. ioredis follows MOVED and ASK
 * redirects (nothing ran) and learns the new slot map after a failover or a restart.
 *
 * Exact across Redis failures: ioredis never resends a command after a reconnect, and commands
 * fail at once while Redis is down (the calls answer 503, retryable; nothing is served unmetered).
 * Each batch of debits carries an id, recorded beside what it charged for ID_TTL_MS, so a batch
 * whose answer was lost is voided once Redis answers again, if it was applied at all; refunds
 * carry an id too and are retried until applied, exactly once.
 */
import { randomBytes } from 'node:crypto';
import Redis, { Cluster, Command } from 'ioredis';
import type { KeyRecord } from '../auth/keys';
import {
  ALREADY_DURABLE,
  type DebitOutcome,
  type Durable,
  epochMinute,
  epochSecond,
  lastHourFrom,
  type Store,
  type Usage,
  utcDay,
} from './store';

/**
 * How long Redis remembers a batch or refund id: a batch whose answer was lost is voided if Redis
 * is back within this time (after it, the debits stay: never served, at worst charged). Ids take
 * Redis memory in proportion to the batch rate (about 100 bytes each).
 */
const ID_TTL_MS = 20_000;

/** How long a command may wait for Redis before its call answers 503 (retryable). */
export const COMMAND_TIMEOUT_MS = 2000;

// KEYS: day hash, second counter, hour hash, this second's batch ids.
// ARGV: daily limit, per-second limit, minute, batch id, then cost and method of each debit.
// Returns one outcome per debit: 0 charged, 1 over the daily limit, 2 over the per-second limit.
// What the batch charged is kept under its id (per method, as JSON) for a void.
const DEBIT = `
local daily = tonumber(ARGV[1])
local perSecond = tonumber(ARGV[2])
local used = tonumber(redis.call('HGET', KEYS[1], '*') or '0')
local second = tonumber(redis.call('GET', KEYS[2]) or '0')
local outcomes = {}
local methods = {}
local total = 0
for i = 5, #ARGV, 2 do
  local cost = tonumber(ARGV[i])
  if used + cost > daily then
    outcomes[#outcomes + 1] = 1
  elseif second + cost > perSecond then
    outcomes[#outcomes + 1] = 2
  else
    used = used + cost
    second = second + cost
    total = total + cost
    methods[ARGV[i + 1]] = (methods[ARGV[i + 1]] or 0) + cost
    outcomes[#outcomes + 1] = 0
  end
end
if total > 0 then
  redis.call('INCRBY', KEYS[2], total)
  redis.call('PEXPIRE', KEYS[2], 2000)
  redis.call('HINCRBY', KEYS[1], '*', total)
  for method, credits in pairs(methods) do redis.call('HINCRBY', KEYS[1], method, credits) end
  redis.call('EXPIRE', KEYS[1], 172800)
  redis.call('HINCRBY', KEYS[3], ARGV[3], total)
  redis.call('EXPIRE', KEYS[3], 7200)
  redis.call('HSET', KEYS[4], ARGV[4], cjson.encode(methods))
  redis.call('PEXPIRE', KEYS[4], ${ID_TTL_MS})
end
return outcomes
`;

// Gives back what a batch whose answer was lost charged, if it was applied at all, once.
// KEYS: day hash, hour hash, the batch ids' hash. ARGV: batch id, minute.
const VOID = `
local charged = redis.call('HGET', KEYS[3], ARGV[1])
if not charged then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
local total = 0
for method, credits in pairs(cjson.decode(charged)) do
  redis.call('HINCRBY', KEYS[1], method, -credits)
  total = total + credits
end
redis.call('HINCRBY', KEYS[1], '*', -total)
redis.call('HINCRBY', KEYS[2], ARGV[2], -total)
return 1
`;

// Gives credits back once per refund id. KEYS: day hash, hour hash, the refund ids' hash.
// ARGV: cost, method, minute, refund id.
const REFUND = `
if redis.call('HSETNX', KEYS[3], ARGV[4], 1) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[3], ${ID_TTL_MS})
local cost = tonumber(ARGV[1])
redis.call('HINCRBY', KEYS[1], '*', -cost)
redis.call('HINCRBY', KEYS[1], ARGV[2], -cost)
redis.call('HINCRBY', KEYS[2], ARGV[3], -cost)
return 1
`;

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

interface LedgerScripts {
  gwDebit(...args: (string | number)[]): Promise<number[]>;
  gwVoid(...args: (string | number)[]): Promise<number>;
  gwRefund(...args: (string | number)[]): Promise<number>;
}
type LedgerRedis = (Redis | Cluster) & LedgerScripts;

/** One Redis (a URL), or a Redis Cluster given by some of its nodes (seed URLs). */
export type RedisTarget = string | { cluster: string[] };

const dayKey = (hash: string, ms: number) => `gw:{${hash}}:day:${utcDay(ms)}`;
const secondKey = (hash: string, ms: number) => `gw:{${hash}}:sec:${epochSecond(ms)}`;
const hourKey = (hash: string, minute: number) => `gw:{${hash}}:hour:${Math.floor(minute / 60)}`;
const callsKey = (hash: string, ms: number) => `gw:{${hash}}:calls:${epochSecond(ms)}`;
const refundsKey = (hash: string, ms: number) => `gw:{${hash}}:refunds:${epochSecond(ms)}`;
const recordKey = (hash: string) => `gw:key:${hash}`;
const KEY_SET = 'gw:keys';

/** A give-back (void or refund) waiting for Redis; dropped once its id would have expired. */
interface GiveBack {
  script: 'gwVoid' | 'gwRefund';
  args: (string | number)[];
  until: number;
}

/** Where the ledger is, for messages: host and port only (the URL may carry a password). */
function where(target: RedisTarget): string {
  const one = (url: string) => {
    try {
      const parsed = new URL(url);
      return `${parsed.protocol}//${parsed.host}`;
    } catch {
      return 'the configured Redis';
    }
  };
  return typeof target === 'string'
    ? one(target)
    : `the Redis Cluster of ${target.cluster.map(one).join(', ')}`;
}

/** A cluster node's address and options from its URL (password and TLS, if any). */
function clusterNode(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 6379) };
}

// Options of every connection: see the constructor.
const CONNECTION_OPTIONS = {
  enableAutoPipelining: true,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: COMMAND_TIMEOUT_MS,
} as const;

export class RedisStore implements Store {
  private readonly redis: LedgerRedis;
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private nextId = 0;
  private down = false;
  private giveBacks: GiveBack[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  /** Debits not yet sent, per node (on a cluster; one Redis is one node), batched by key and second. */
  private readonly waiting = new Map<string, Map<string, DebitBatch>>();
  /** Script calls sent and not yet answered, per node; more debits for that node wait for them. */
  private readonly inFlight = new Map<string, number>();
  private sendScheduled = false;
  private readonly cluster: Cluster | undefined;
  private readonly slots = new Map<string, number>();

  /** Connects (or throws a clear error); `serve` also warns when Redis does not persist. */
  static async open(
    target: RedisTarget,
    options: { warnIfVolatile?: boolean } = {},
  ): Promise<RedisStore> {
    const store = new RedisStore(target);
    try {
      await store.redis.ping();
    } catch (error) {
      store.redis.disconnect();
      throw new Error(
        `cannot reach the Redis ledger at ${where(target)} (${(error as Error).message})`,
      );
    }
    if (options.warnIfVolatile) await store.warnIfVolatile();
    return store;
  }

  constructor(private readonly target: RedisTarget) {
    // Nothing sent before a drop is sent again after a reconnect: a debit applies at most once.
    // A Redis that holds the connection but does not answer (stopped, swapping) fails the calls
    // waiting on it after COMMAND_TIMEOUT_MS (503, retryable) instead of holding them: a debit
    // whose answer was lost is voided, by its id, once Redis answers again.
    let redis: Redis | Cluster;
    if (typeof target === 'string') {
      redis = new Redis(target, {
        ...CONNECTION_OPTIONS,
        retryStrategy: (times) => Math.min(times * 100, 1000),
      });
    } else {
      const first = new URL(target.cluster[0]);
      redis = new Cluster(target.cluster.map(clusterNode), {
        redisOptions: {
          ...CONNECTION_OPTIONS,
          ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
          ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
          ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
        },
        // A command whose connection closed may have run: it is never sent again (its debit is
        // voided by id instead), and a cluster that is down fails calls at once (503) rather
        // than holding them. MOVED, ASK and TRYAGAIN mean nothing ran: they are followed.
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        retryDelayOnTryAgain: 100,
        maxRedirections: 16,
        slotsRefreshInterval: 2000,
        clusterRetryStrategy: (times) => Math.min(times * 100, 1000),
      });
      this.cluster = redis;
    }
    redis.defineCommand('gwDebit', { numberOfKeys: 4, lua: DEBIT });
    redis.defineCommand('gwVoid', { numberOfKeys: 3, lua: VOID });
    redis.defineCommand('gwRefund', { numberOfKeys: 3, lua: REFUND });
    // One line per outage, not one per reconnect attempt (a cluster node's errors too).
    const unavailable = (error: Error) => {
      if (this.down) return;
      this.down = true;
      process.stderr.write(
        `l2-gateway: the Redis ledger at ${where(target)} is unavailable (${error.message}); ` +
          'paid calls answer 503 until it is back\n',
      );
    };
    redis.on('error', unavailable);
    redis.on('node error', unavailable);
    redis.on('ready', () => {
      // Commands wait for the first connection only; after that, while Redis is away they fail
      // at once (a 503 for the call) instead of queuing.
      if (!this.cluster) (redis as Redis).options.enableOfflineQueue = false;
      this.answered();
    });
    this.redis = redis as LedgerRedis;
  }

  /** Redis answered: if it was down, say it is back and give back what waited. */
  private answered(): void {
    if (!this.down) return;
    this.down = false;
    process.stderr.write(`l2-gateway: the Redis ledger at ${where(this.target)} is back\n`);
    void this.retryGiveBacks();
  }

  private async warnIfVolatile(): Promise<void> {
    const nodes = this.cluster ? this.cluster.nodes('master') : [this.redis as Redis];
    for (const node of nodes) {
      try {
        const info = await node.info('persistence');
        if (/aof_enabled:0/.test(info)) {
          process.stderr.write(
            `l2-gateway: warning: Redis at ${where(this.target)} has append-only persistence ` +
              'off, so a Redis restart loses every key and balance (run redis-server with ' +
              '--appendonly yes)\n',
          );
          return;
        }
      } catch {
        // INFO may be disabled on a managed Redis: nothing to say then.
      }
    }
  }

  async addKey(record: KeyRecord): Promise<void> {
    if (this.cluster) {
      // Two slots: the record first, so a key that is listed can always be read.
      await this.redis.set(recordKey(record.hash), JSON.stringify(record));
      await this.redis.rpush(KEY_SET, record.hash);
      return;
    }
    await this.redis
      .multi()
      .set(recordKey(record.hash), JSON.stringify(record))
      .rpush(KEY_SET, record.hash)
      .exec();
  }

  async getKey(hash: string): Promise<KeyRecord | undefined> {
    const text = await this.redis.get(recordKey(hash));
    return text ? (JSON.parse(text) as KeyRecord) : undefined;
  }

  async listKeys(): Promise<KeyRecord[]> {
    const hashes = await this.redis.lrange(KEY_SET, 0, -1);
    const records = await Promise.all(hashes.map((h) => this.getKey(h)));
    return records.filter((r): r is KeyRecord => r !== undefined);
  }

  async revokeKey(hash: string): Promise<boolean> {
    const record = await this.getKey(hash);
    if (!record) return false;
    record.revokedAt = new Date().toISOString();
    await this.redis.set(recordKey(hash), JSON.stringify(record));
    return true;
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
      const node = this.nodeOf(key.hash);
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

  /**
   * The node whose batches go together: on a cluster, the master that holds the slot of the
   * key's hash tag (as ioredis last learned it); one Redis is one node.
   */
  private nodeOf(hash: string): string {
    if (!this.cluster) return '';
    let slot = this.slots.get(hash);
    if (slot === undefined) {
      slot = new Command('get', [`{${hash}}`]).getSlot() as number;
      if (this.slots.size > 100_000) this.slots.clear();
      this.slots.set(hash, slot);
    }
    return this.cluster.slots[slot]?.[0] ?? `slot:${slot}`;
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
    if (this.down) this.answered();
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

  async usage(hash: string, nowMs: number): Promise<Usage> {
    const minute = epochMinute(nowMs);
    const [day, thisHour, lastHour] = await Promise.all([
      this.redis.hgetall(dayKey(hash, nowMs)),
      this.redis.hgetall(hourKey(hash, minute)),
      this.redis.hgetall(hourKey(hash, minute - 60)),
    ]);
    const methods: Record<string, number> = {};
    let total = 0;
    for (const [method, credits] of Object.entries(day)) {
      if (method === '*') total = Number(credits);
      else if (Number(credits) !== 0) methods[method] = Number(credits);
    }
    const perMinute = new Map<number, number>();
    for (const [m, credits] of [...Object.entries(lastHour), ...Object.entries(thisHour)]) {
      perMinute.set(Number(m), Number(credits));
    }
    return { total, methods, lastHour: lastHourFrom(perMinute, nowMs) };
  }

  async close(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.giveBacks.length > 0 && !this.down) await this.retryGiveBacks();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
