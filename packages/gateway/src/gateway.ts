/**
 * The transport-free core: every request over HTTP or WebSocket goes through here, so both give
 * the same answers and the same errors. It picks the chain, authenticates the key and judges the
 * request by its controls (secret, JWT, origin and User-Agent lists: auth/access.ts), and for
 * each call admits it (envelope, method, method and contract lists, params), charges it before
 * any upstream work, forwards it, and answers; it refunds what was not delivered. A refusal by
 * the controls comes before any debit or upstream work, and is counted by cause. It is the only
 * place that bills: calls, subscriptions and their notifications. It also answers the usage
 * report (its shape is credits/usageReport.ts).
 */
import {
  callRefusal,
  callRefusalMessage,
  type Credentials,
  judgeRequest,
  Refusal,
  type RefusalCause,
} from './auth/access';
import type { KeyRecord } from './auth/keys';
import type { KeyRegistry } from './auth/registry';
import { NOTIFICATION_COSTS, type SubscriptionKind } from './credits/costs';
import type { Durable, Ledger } from './credits/ledger';
import { type RefusalStore, RefusalTally } from './credits/refusals';
import { CreditsLeft } from './credits/remaining';
import { type UsageReport, usageReportOf } from './credits/usageReport';
import { checkCall, idOf, parseBody } from './jsonrpc/envelope';
import { errorResponse, errors, type JsonRpcId, RpcError } from './jsonrpc/errors';
import { methodsFor, type MethodSpec, validateParams } from './jsonrpc/methods';
import { contractTargets } from './jsonrpc/targets';
import type { Metrics } from './metrics/metrics';
import type { Chain } from './upstream/chain';
import { type Budget, type Outcome, responseText, takeFromBudget } from './upstream/outcome';
import type { Router } from './upstream/router';
import {
  type Admitted,
  type Answer,
  type Authenticated,
  bodyId,
  type CallContext,
  type Charge,
  forwardError,
  hostName,
  KeyRecords,
  ledgerError,
  type LocalCall,
  logOnce,
  methodLabel,
  refusalError,
} from './calls';

// The shapes the transports import from here.
export type { Answer, CallContext, LocalCall } from './calls';
export { ledgerError } from './calls';

/** Room kept in a batch's budget for each call's error or envelope (an error is ~200 bytes). */
const PER_CALL_RESERVE = 512;

export class Gateway {
  /** Refusals by cause, for the usage report. */
  readonly refusals: RefusalTally;
  private readonly creditsLeft: CreditsLeft;
  private readonly records: KeyRecords;
  private readonly handleCallBound = (ctx: CallContext, call: unknown, budget: Budget) =>
    this.handleCall(ctx, call, budget);

  constructor(
    readonly keys: KeyRegistry,
    readonly ledger: Ledger,
    readonly router: Router,
    readonly metrics: Metrics,
    readonly now: () => number = Date.now,
    /** Bytes one HTTP response or WebSocket message may hold. */
    readonly responseLimit: number,
    /** Where refusals are counted (beside the ledger). */
    refusalStore: RefusalStore,
  ) {
    this.refusals = new RefusalTally(refusalStore);
    this.creditsLeft = new CreditsLeft(ledger);
    this.records = new KeyRecords(keys, now);
  }

  /**
   * The chain a request is for: by the path prefix's name when there is one, else by the Host
   * header. A 404 RpcError when none is served there.
   */
  chainFor(name: string | undefined, host: string | undefined): Chain {
    const chain = name ? this.router.byName(name) : this.router.chainFor(host);
    if (chain) return chain;
    throw name ? errors.unknownChainName(name) : errors.unknownChain(hostName(host));
  }

  /**
   * The key's record and what the request may do by its controls, or a 401/403 RpcError (a
   * refusal by the controls is counted). Only hashes are looked up and remembered.
   */
  async authenticate(key: string | undefined, credentials: Credentials): Promise<Authenticated> {
    if (!key) throw errors.keyMissing();
    const record = await this.current(this.records.hashOf(key));
    if (!record) throw errors.keyInvalid();
    return {
      key: record,
      access: await this.judge(record, key, credentials),
      apiKey: key,
      credentials,
    };
  }

  /** The key's controls on a request, or the refusal as an RpcError (counted). */
  private judge(record: KeyRecord, apiKey: string, credentials: Credentials) {
    const refuse = (error: unknown): never => {
      if (!(error instanceof Refusal)) throw errors.internal();
      this.refused(record, error.kind);
      throw refusalError(error);
    };
    try {
      const access = judgeRequest(record, apiKey, credentials, this.now());
      return access instanceof Promise ? access.catch(refuse) : access;
    } catch (error) {
      return refuse(error);
    }
  }

  /** Counts a refusal of `key`'s request or call by its cause. */
  private refused(key: KeyRecord, cause: RefusalCause): void {
    this.refusals.add(key.hash, cause, this.now());
  }

  /**
   * A WebSocket's later messages: judged again when the key's record changed (its controls, a
   * revoke within KEY_TTL_MS) or its JWT expired. An HTTP request was just judged.
   */
  private async rejudge(ctx: CallContext): Promise<CallContext> {
    const expired = ctx.access.expiresAt !== undefined && this.now() >= ctx.access.expiresAt;
    const record = await this.current(ctx.key.hash);
    if (!record) throw errors.keyInvalid();
    if (record === ctx.key && !expired) return ctx;
    ctx.access = await this.judge(record, ctx.apiKey, ctx.credentials);
    ctx.key = record;
    return ctx;
  }

  /** The key's record as the registry has it (at most KEY_TTL_MS old); undefined if revoked. */
  current(hash: string): Promise<KeyRecord | undefined> {
    return this.records.current(hash);
  }

  /** A whole request body: one call or a batch. */
  async handleBody(ctx: CallContext, body: string, local?: LocalCall): Promise<Answer> {
    const handle = local
      ? (c: CallContext, call: unknown, budget: Budget) => this.handleCall(c, call, budget, local)
      : this.handleCallBound;
    if (ctx.ws) {
      try {
        ctx = await this.rejudge(ctx);
      } catch (error) {
        const rpcError = error instanceof RpcError ? error : ledgerError(error);
        return this.withCredits(ctx.key, this.refusedBody(bodyId(body), rpcError));
      }
    }
    await this.creditsLeft.ensure(ctx.key, this.now());
    const parsed = parseBody(body);
    if (parsed instanceof RpcError)
      return this.withCredits(ctx.key, this.refusedBody(null, parsed));
    if (!parsed.batch) {
      return this.withCredits(
        ctx.key,
        await handle(ctx, parsed.calls[0], { left: this.responseLimit }),
      );
    }
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
    return this.withCredits(ctx.key, {
      status,
      text: `[${answers.map((a) => a.text).join(',')}]`,
      charges,
    });
  }

  /** The answer with what it cost and what its key has left (its headers). */
  private withCredits(key: KeyRecord, answer: Answer): Answer {
    let cost = 0;
    for (const charge of answer.charges ?? []) cost += charge.cost;
    answer.credits = { cost, left: this.creditsLeft.leftOf(key) };
    return answer;
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
      const method = admitted?.method ?? methodLabel(ctx.chain.protocol, call);
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
    validateParams(method, spec, params);
    // Typed as positional: by-name params (an object) pass validateParams for Starknet methods
    // only, which go upstream unchanged.
    const checked = params as unknown[];
    const list = callRefusal(ctx.access, method, () => contractTargets(method, params));
    if (list) {
      this.refused(ctx.key, 'allowlist');
      throw errors.rejected(callRefusalMessage(list), list);
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
    const at = await this.debit(key, method, cost, errors.dailyLimit);
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
    if (cost === 0) return { method, cost, at: this.now() }; // a free kind is not debited
    const at = await this.debit(key, method, cost, errors.balanceExhausted);
    try {
      await this.ledger.durable()(); // right after the debit
    } catch (error) {
      throw ledgerError(error);
    }
    return { method, cost, at };
  }

  /**
   * Debits `cost` now and returns when, or throws with nothing taken: `daily`'s error past the
   * daily balance, 429 past the credits per second (both counted as refusals), or the ledger's.
   */
  private async debit(
    key: KeyRecord,
    method: string,
    cost: number,
    daily: (limit: number) => RpcError,
  ): Promise<number> {
    const at = this.now();
    let outcome;
    try {
      outcome = await this.ledger.debit(key, method, cost, at);
    } catch (error) {
      throw ledgerError(error);
    }
    if (outcome !== 'ok') {
      this.refused(key, outcome === 'daily' ? 'credit' : 'rate');
      throw outcome === 'daily' ? daily(key.dailyCredits) : errors.rateLimit(key.creditsPerSecond);
    }
    this.metrics.charged(method, cost);
    this.creditsLeft.spend(key.hash, cost, at);
    return at;
  }

  /**
   * Gives a charge back, to the day (and minute) of its debit `at`. Never throws: a store that
   * cannot refund now keeps it and retries.
   */
  async refund(key: KeyRecord, method: string, cost: number, at: number): Promise<void> {
    try {
      await this.ledger.refund(key, method, cost, at);
      this.metrics.charged(method, -cost);
      this.creditsLeft.spend(key.hash, -cost, at);
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
      throw forwardError(error);
    }
    return outcome;
  }

  /** The free usage report of a key: today's total and methods, the last hour, the reset time. */
  async usageReport(key: KeyRecord): Promise<UsageReport> {
    const now = this.now();
    let used;
    let refused;
    try {
      [used, refused] = await Promise.all([
        this.ledger.usage(key.hash, now),
        this.refusals.counts(key.hash, now),
      ]);
    } catch (error) {
      throw ledgerError(error);
    }
    return usageReportOf(key, used, refused, now);
  }

  /** Writes the refusal counts still in memory (at shutdown). */
  close(): Promise<void> {
    return this.refusals.flush();
  }

  refusedBody(id: JsonRpcId, error: RpcError): Answer {
    this.metrics.request('invalid', error.httpStatus);
    return { status: error.httpStatus, text: errorResponse(id, error) };
  }
}
