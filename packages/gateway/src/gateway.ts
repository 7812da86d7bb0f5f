/**
 * The transport-free core: every request over HTTP or WebSocket goes through here, so both give
 * the same answers and the same errors. It picks the chain, authenticates the key, and for each
 * call admits it (envelope, method, allowlists, params), charges it before any upstream work,
 * forwards it, and answers; it refunds what was not delivered. It is the only place that bills:
 * calls, subscriptions and their notifications alike. It also answers the usage report (its
 * shape is credits/usageReport.ts).
 */
import {
  contractsAllowed,
  type KeyRecord,
  KEY_FORMAT,
  methodAllowed,
  originAllowed,
  secretMatches,
  sha256,
} from './auth/keys';
import type { KeyRegistry } from './auth/registry';
import { NOTIFICATION_COSTS, type SubscriptionKind } from './credits/costs';
import { type Durable, type Ledger, LedgerLost } from './credits/ledger';
import { type UsageReport, usageReportOf } from './credits/usageReport';
import { checkCall, idOf, parseBody } from './jsonrpc/envelope';
import { errorResponse, errors, type JsonRpcId, RESPONSE_LIMIT, RpcError } from './jsonrpc/errors';
import { methodsFor, type MethodSpec, validateParams } from './jsonrpc/methods';
import { contractTargets } from './jsonrpc/targets';
import type { Metrics } from './metrics/metrics';
import type { Chain } from './upstream/chain';
import { type Budget, type Outcome, responseText, takeFromBudget } from './upstream/outcome';
import type { Router } from './upstream/router';
import { UpstreamFailure } from './upstream/upstream';

export interface CallContext {
  chain: Chain;
  key: KeyRecord;
  ws: boolean;
}

export interface Answer {
  status: number;
  text: string;
  /** What the answer's calls were charged: refunded if the answer is never delivered. */
  charges?: Charge[];
}

export interface Charge {
  method: string;
  cost: number;
  /** When it was debited: a refund goes back to that day (and minute). */
  at: number;
}

/**
 * A call the transport answers itself instead of an upstream (a WebSocket subscription): its
 * result, or undefined when the call is not one of its own. Called after the call was charged;
 * a throw refunds it.
 */
export type LocalCall = (method: string, params: unknown[]) => Promise<unknown> | undefined;

/** A store failure as the client sees it: retry later, or (file lost) paid calls stopped. */
export function ledgerError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  return error instanceof LedgerLost
    ? errors.ledgerLost(error.message)
    : errors.ledgerUnavailable();
}

/** Room kept in a batch's budget for each call's error or envelope (an error is ~200 bytes). */
const PER_CALL_RESERVE = 512;

export interface Admitted {
  id: JsonRpcId;
  method: string;
  params: unknown[];
  spec: MethodSpec;
  /** When it was debited. */
  at: number;
  /** Resolves when this call's debit is on disk (its batch, not later ones). */
  durable: Durable;
}

/** How long a key record is trusted before it is read again (so a revoke lands within 1 s). */
const KEY_TTL_MS = 500;

export class Gateway {
  private readonly records = new Map<string, { record: KeyRecord | undefined; at: number }>();
  /** SHA-256 per well-formed key string seen, so a busy key is not hashed on every call. */
  private readonly hashes = new Map<string, string>();
  private readonly handleCallBound = (ctx: CallContext, call: unknown, budget: Budget) =>
    this.handleCall(ctx, call, budget);

  constructor(
    readonly keys: KeyRegistry,
    readonly ledger: Ledger,
    readonly router: Router,
    readonly metrics: Metrics,
    readonly now: () => number = Date.now,
    /** Bytes one HTTP response or WebSocket message may hold. */
    readonly responseLimit: number = RESPONSE_LIMIT,
  ) {}

  /**
   * The chain a request is for: by the path prefix's name when there is one, else by the Host
   * header. A 404 RpcError when none is served there.
   */
  chainFor(name: string | undefined, host: string | undefined): Chain {
    const chain = name ? this.router.byName(name) : this.router.chainFor(host);
    if (chain) return chain;
    throw name ? errors.unknownChainName(name) : errors.unknownChain(hostName(host));
  }

  /** The key's record, or a 401/403 RpcError. Only hashes are looked up and remembered. */
  async authenticate(
    key: string | undefined,
    authorization: string | undefined,
    origin: string | undefined,
  ): Promise<KeyRecord> {
    if (!key) throw errors.keyMissing();
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      if (!KEY_FORMAT.test(key)) throw errors.keyInvalid();
      hash = sha256(key);
      if (this.hashes.size > 100_000) this.hashes.clear();
      this.hashes.set(key, hash);
    }
    const record = await this.current(hash);
    if (!record) throw errors.keyInvalid();
    if (!secretMatches(record, authorization)) throw errors.secretInvalid();
    if (!originAllowed(record, origin)) throw errors.rejected();
    return record;
  }

  /** The key's record as the registry has it (at most KEY_TTL_MS old); undefined if revoked. */
  async current(hash: string): Promise<KeyRecord | undefined> {
    let cached = this.records.get(hash);
    if (!cached || this.now() - cached.at > KEY_TTL_MS) {
      let record: KeyRecord | undefined;
      try {
        record = await this.keys.get(hash);
      } catch (error) {
        throw ledgerError(error);
      }
      cached = { record, at: this.now() };
      if (this.records.size > 100_000) this.records.clear();
      this.records.set(hash, cached);
    }
    return cached.record && !cached.record.revokedAt ? cached.record : undefined;
  }

  /** A whole request body: one call or a batch. */
  async handleBody(ctx: CallContext, body: string, local?: LocalCall): Promise<Answer> {
    const handle = local
      ? (c: CallContext, call: unknown, budget: Budget) => this.handleCall(c, call, budget, local)
      : this.handleCallBound;
    const parsed = parseBody(body);
    if (parsed instanceof RpcError) return this.refused(null, parsed);
    if (!parsed.batch) return handle(ctx, parsed.calls[0], { left: this.responseLimit });
    // Answers take from one budget as they arrive: those that fit are answered, the rest get a
    // per-call error and a refund, so the batch stays within the limit. (All calls go out at
    // once, so identical ones merge into one upstream call.)
    const budget: Budget = { left: this.responseLimit - parsed.calls.length * PER_CALL_RESERVE };
    const answers = await Promise.all(parsed.calls.map((call) => handle(ctx, call, budget)));
    // The batch itself succeeded; per-call errors sit in the array. One shared failure status
    // (every call over the balance, say) becomes the batch's status.
    const first = answers[0].status;
    const status = answers.every((a) => a.status === first) ? first : 200;
    const charges = answers.flatMap((a) => a.charges ?? []);
    return { status, text: `[${answers.map((a) => a.text).join(',')}]`, charges };
  }

  async handleCall(
    ctx: CallContext,
    call: unknown,
    budget: Budget = { left: this.responseLimit },
    local?: LocalCall,
  ): Promise<Answer> {
    let admitted: Admitted | undefined;
    try {
      admitted = await this.admit(ctx, call);
      const { id, method, params, spec, durable, at } = admitted;
      const served = local?.(method, params);
      const outcome = served
        ? await this.serveLocally(ctx, admitted, served)
        : await this.forward(ctx, method, params, spec, at);
      // Answer only once the debit is on disk: a crash after this answer loses no debit.
      try {
        await durable();
      } catch (error) {
        throw ledgerError(error);
      }
      // Measured before this caller's text is built: merged callers share one outcome, and
      // those past the budget are refused without a copy of a large answer each.
      if (!takeFromBudget(budget, outcome, id)) {
        await this.refund(ctx.key, method, spec.cost, at);
        throw errors.responseTooLarge(this.responseLimit);
      }
      this.metrics.request(method, 200);
      return {
        status: 200,
        text: responseText(outcome, id),
        charges: [{ method, cost: spec.cost, at }],
      };
    } catch (error) {
      const id = admitted?.id ?? idOf(call);
      const method =
        admitted?.method ??
        (methodsFor(ctx.chain.protocol).has(String((call as { method?: unknown } | null)?.method))
          ? String((call as { method: unknown }).method)
          : 'invalid');
      const rpcError = error instanceof RpcError ? error : errors.internal();
      this.metrics.request(method, rpcError.httpStatus);
      return { status: rpcError.httpStatus, text: errorResponse(id, rpcError) };
    }
  }

  /** A call the transport serves itself (a subscription): refunded if it throws. */
  private async serveLocally(
    ctx: CallContext,
    { method, spec, at }: Admitted,
    served: Promise<unknown>,
  ): Promise<Outcome> {
    try {
      return { result: JSON.stringify(await served) };
    } catch (error) {
      await this.refund(ctx.key, method, spec.cost, at);
      throw error instanceof RpcError ? error : errors.internal();
    }
  }

  /**
   * Checks the envelope, the method, the key's allowlists and the params, then charges the call.
   * Everything that fails here is refused before any upstream call and costs nothing; a call
   * reaches an upstream only after this, once its cost is reserved in the ledger (the daily
   * balance and the per-second window), so a key that cannot pay makes no upstream work.
   */
  async admit(ctx: CallContext, call: unknown): Promise<Admitted> {
    const { id, method, params } = checkCall(call);
    const spec = methodsFor(ctx.chain.protocol).get(method);
    if (!spec) throw errors.methodNotFound(method);
    if (spec.wsOnly && !ctx.ws) throw errors.wsOnly(method);
    if (!methodAllowed(ctx.key, method)) throw errors.rejected();
    validateParams(method, spec, params);
    // Typed as positional: by-name params (an object) pass validateParams for Starknet methods
    // only, which go upstream unchanged.
    const checked = params as unknown[];
    if (
      ctx.key.allow.contracts.length > 0 &&
      !contractsAllowed(ctx.key, contractTargets(method, params))
    ) {
      throw errors.rejected();
    }
    const { durable, at } = await this.charge(ctx.key, method, spec.cost);
    return { id, method, params: checked, spec, durable, at };
  }

  /** Takes credits or throws 402 / 429 (and then nothing is taken). */
  private async charge(
    key: KeyRecord,
    method: string,
    cost: number,
  ): Promise<{ durable: Durable; at: number }> {
    const at = this.now();
    let outcome;
    try {
      outcome = await this.ledger.debit(key, method, cost, at);
    } catch (error) {
      throw ledgerError(error);
    }
    if (outcome === 'daily') throw errors.dailyLimit(key.dailyCredits);
    if (outcome === 'rate') throw errors.rateLimit(key.creditsPerSecond);
    this.metrics.charged(method, cost);
    // Taken right after the debit: the batch holding it, asked for when the answer is ready.
    return { durable: this.ledger.durable(), at };
  }

  /**
   * Charges one notification of a `kind` subscription (EVM) or notification method (Starknet),
   * durably, before it is written. Throws (nothing charged) the daily limit's -33000
   * "subscriptions stopped", the per-second -33200, or the ledger's error. A free kind (a
   * Starknet reorg notice) is not debited.
   */
  async chargeNotification(key: KeyRecord, kind: SubscriptionKind): Promise<Charge> {
    const method = kind.startsWith('starknet_') ? kind : 'eth_subscription';
    const cost = NOTIFICATION_COSTS[kind];
    const at = this.now();
    if (cost === 0) return { method, cost, at };
    let outcome;
    try {
      outcome = await this.ledger.debit(key, method, cost, at);
      if (outcome === 'ok') await this.ledger.durable()(); // right after the debit
    } catch (error) {
      throw ledgerError(error);
    }
    if (outcome === 'daily') throw errors.balanceExhausted(key.dailyCredits);
    if (outcome === 'rate') throw errors.rateLimit(key.creditsPerSecond);
    this.metrics.charged(method, cost);
    return { method, cost, at };
  }

  /** Refuses a key with no credit left today (a WebSocket upgrade): 402, nothing charged. */
  async assertCreditLeft(key: KeyRecord): Promise<void> {
    if ((await this.usageReport(key)).left <= 0) throw errors.dailyLimit(key.dailyCredits);
  }

  /**
   * Gives a charge back, to the day (and minute) of its debit `at`. Never throws: a store that
   * cannot refund now keeps it and retries.
   */
  async refund(key: KeyRecord, method: string, cost: number, at: number): Promise<void> {
    try {
      await this.ledger.refund(key, method, cost, at);
      this.metrics.charged(method, -cost);
    } catch (error) {
      logOnce('refund', `l2-gateway: a refund failed (${(error as Error).message})`);
    }
  }

  /**
   * Billed by delivery: an answer's charges stay when it was written to its client, and are
   * given back when it was not (the client left, or was dropped).
   */
  settle(key: KeyRecord, charges: Charge[] | undefined, delivered: boolean): void {
    if (delivered || !charges) return;
    for (const { method, cost, at } of charges) void this.refund(key, method, cost, at);
  }

  /** Sends an admitted call upstream; an upstream failure is refunded and answered 503/504. */
  private async forward(
    ctx: CallContext,
    method: string,
    params: unknown[],
    spec: MethodSpec,
    at: number,
  ): Promise<Outcome> {
    let outcome: Outcome;
    try {
      outcome = await ctx.chain.call(method, params, {
        retryable: spec.retryable,
        failover: ctx.key.failover,
      });
    } catch (error) {
      await this.refund(ctx.key, method, spec.cost, at);
      if (error instanceof UpstreamFailure) {
        throw error.kind === 'timeout' ? errors.upstreamTimeout() : errors.upstreamUnavailable();
      }
      // Our own failure, not the upstream's: a stack overflow in serialising the params is the
      // params' fault (nested too deeply); anything else is an internal error.
      if (error instanceof RangeError && /call stack/i.test(error.message)) throw errors.tooDeep();
      if (error instanceof RpcError) throw error;
      throw errors.internal();
    }
    return outcome;
  }

  /** The free usage report of a key: today's total and methods, the last hour, the reset time. */
  async usageReport(key: KeyRecord): Promise<UsageReport> {
    const now = this.now();
    let used;
    try {
      used = await this.ledger.usage(key.hash, now);
    } catch (error) {
      throw ledgerError(error);
    }
    return usageReportOf(key, used, now);
  }

  refused(id: JsonRpcId, error: RpcError): Answer {
    this.metrics.request('invalid', error.httpStatus);
    return { status: error.httpStatus, text: errorResponse(id, error) };
  }
}

/** A Host header without its port, for messages. */
export function hostName(host: string | undefined): string {
  return (host ?? '').replace(/:\d+$/, '');
}

const logged = new Set<string>();
/** Logs a failure once per process and kind, so an outage does not flood the log. */
export function logOnce(kind: string, message: string): void {
  if (logged.has(kind)) return;
  logged.add(kind);
  process.stderr.write(`${message}\n`);
}
