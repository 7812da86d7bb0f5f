/**
 * One chain: its upstreams (tried in turn, unhealthy and lagging ones last), the eth_getProof
 * failover partner, documented normalisation (docs/interface/gateway.md#semantics), its head,
 * identical calls in flight merged into one upstream request, and the cache of answers that are
 * still true (see policy.ts). A provider's refusal is never an answer, a `latest` read goes only
 * to an upstream at the head, and error text is scrubbed of credentials. Details:
 * docs/architecture/gateway.md#upstream-answers.
 */
import type { ChainConfig } from '../config';
import type { Metrics } from '../metrics/metrics';
import { AnswerCache } from './cache';
import { HeadTracker } from './head';
import { capGas, normaliseRevert, padStorageKeys } from './normalise';
import { type Outcome, unwrap } from './outcome';
import { blockIn, blockOf, keepable, scopeOf } from './policy';
import { isRefusal } from './refusal';
import { type Scrub, scrubber, scrubError, secretsOf } from './scrub';
import type { Protocol } from '../jsonrpc/methods';
import type { RpcErrorBody } from './types';
import { Upstream, UpstreamFailure } from './upstream';

export interface ForwardOptions {
  retryable: boolean;
  failover: boolean;
}

export interface ChainOptions {
  upstreamTimeoutMs?: number;
  /** Answers kept in memory, at most (default 10000; 0 turns the cache off). */
  cacheEntries?: number;
  /** Bytes of answers kept in memory, at most (default 16 MB). */
  cacheBytes?: number;
}

/** Which upstreams a call may go to, and in what order. */
interface Route {
  /** Whether it may be sent again to the next upstream after a failure that may have served it. */
  retryable: boolean;
  /** A `latest` read: only upstreams at the head may answer it. */
  atHead: boolean;
}

// The routes calls take (made once: one object per call would be garbage on the hot path).
const WRITE: Route = { retryable: false, atHead: false };
const READ: Route = { retryable: true, atHead: false };
const LATEST_READ: Route = { retryable: true, atHead: true };

/** One upstream's answer, and who gave it. */
interface Answered {
  outcome: Outcome;
  upstream: Upstream;
}

export class Chain {
  readonly name: string;
  readonly protocol: Protocol;
  readonly upstreams: Upstream[];
  readonly partner: Upstream | undefined;
  readonly wsUpstream: string | undefined;
  readonly head: HeadTracker;
  private readonly cache: AnswerCache;
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private readonly timeoutMs: number;
  private readonly finalityDepth: number | undefined;
  private readonly blockNumberMethod: string;
  private readonly scrub: Scrub;
  private next = 0;

  constructor(
    config: ChainConfig,
    options: ChainOptions,
    private readonly metrics: Metrics,
  ) {
    this.name = config.name;
    this.protocol = config.protocol ?? 'evm';
    this.timeoutMs = options.upstreamTimeoutMs ?? 5000;
    this.upstreams = config.upstreams.map(
      (url, i) => new Upstream(url, `${config.name}/${i}`, this.timeoutMs, metrics, this.protocol),
    );
    this.partner = config.partner
      ? new Upstream(config.partner, `${config.name}/partner`, this.timeoutMs, metrics)
      : undefined;
    this.wsUpstream = config.wsUpstream;
    this.finalityDepth = config.finalityDepth;
    this.scrub = scrubber(
      [...config.upstreams, config.partner, config.wsUpstream].flatMap((url) =>
        url ? secretsOf(url) : [],
      ),
    );
    this.cache = new AnswerCache(options.cacheEntries ?? 10_000, options.cacheBytes ?? 16 << 20);
    this.blockNumberMethod = this.protocol === 'evm' ? 'eth_blockNumber' : 'starknet_blockNumber';
    this.head = new HeadTracker(
      this.upstreams,
      {
        newHead: () => this.cache.newHead(),
        reorgStarted: () => this.cache.hold(),
        reorged: (forkPoint) => this.cache.dropAbove(forkPoint),
      },
      config.headPollMs ?? 250,
      // newHeads is Ethereum's subscription; Starknet heads are polled.
      this.protocol === 'evm' ? config.wsUpstream : undefined,
    );
    const label = `chain="${this.name}"`;
    metrics.gauge(
      'gateway_cache_entries',
      'Answers held in the cache.',
      label,
      () => this.cache.size,
    );
    metrics.gauge(
      'gateway_cache_bytes',
      'Approximate bytes held in the cache.',
      label,
      () => this.cache.byteSize,
    );
    metrics.gauge(
      'gateway_head',
      'The chain head: the highest block a healthy upstream reported (it never moves back).',
      label,
      () => Number(this.head.number ?? -1n),
    );
    metrics.gauge(
      'gateway_reorgs_total',
      'Reorgs seen: a new block hash at a height already seen, or below it.',
      label,
      () => this.head.reorgs,
      'counter',
    );
  }

  start(healthIntervalMs: number): void {
    for (const upstream of this.upstreams) upstream.startHealthChecks(healthIntervalMs);
    this.head.start();
  }

  get healthy(): boolean {
    return this.upstreams.some((u) => u.healthy);
  }

  /**
   * The upstreams a call may go to: healthy ones at the head first (in round-robin order), then
   * healthy ones that lag, then unhealthy ones in the same order (a refused or failed upstream is
   * still tried when no other is left). A `latest` read never goes to an upstream that lags.
   */
  private order(route: Route): Upstream[] {
    const head = this.head;
    if (this.upstreams.length === 1) {
      const only = this.upstreams[0];
      return !route.atHead || head.atHead(only) ? this.upstreams : [];
    }
    const start = this.next++ % this.upstreams.length;
    const ranked: Upstream[][] = [[], [], [], []];
    for (let i = 0; i < this.upstreams.length; i++) {
      const upstream = this.upstreams[(start + i) % this.upstreams.length];
      const atHead = head.atHead(upstream);
      if (route.atHead && !atHead) continue;
      ranked[(upstream.healthy ? 0 : 2) + (atHead ? 0 : 1)].push(upstream);
    }
    return ranked.flat();
  }

  private gasLimit(): bigint | undefined {
    return this.upstreams.find((u) => u.healthy && u.gasLimit !== undefined)?.gasLimit;
  }

  /**
   * The deepest block that can no longer change: head - finalityDepth, or the node's `finalized`.
   */
  private finalBlock(): bigint | undefined {
    if (this.finalityDepth !== undefined) {
      return this.head.number === undefined
        ? undefined
        : this.head.number - BigInt(this.finalityDepth);
    }
    if (this.protocol !== 'evm') return undefined;
    return this.upstreams.find((u) => u.healthy && u.finalized !== undefined)?.finalized;
  }

  /** Before the first health check has answered, read the gas limit once. */
  private async ensureGasLimit(): Promise<bigint | undefined> {
    const known = this.gasLimit();
    if (known !== undefined) return known;
    for (const upstream of this.order(READ)) {
      if (await upstream.check()) return upstream.gasLimit;
    }
    return undefined;
  }

  /** One call's outcome: from the cache, from an identical call in flight, or from upstream. */
  async call(method: string, params: unknown, options: ForwardOptions): Promise<Outcome> {
    if (this.protocol === 'evm') {
      if (method === 'eth_call' || method === 'eth_estimateGas') {
        params = capGas(params as unknown[], this.gasLimit() ?? (await this.ensureGasLimit()));
      } else if (method === 'eth_getProof') {
        params = padStorageKeys(params as unknown[]);
      }
    }
    const paramsJson = params === undefined ? '[]' : JSON.stringify(params);
    if (!options.retryable) {
      // A write is never merged or cached, and what it changes ends every `latest` answer.
      const outcome = await this.fetch(method, paramsJson, options, WRITE);
      if (outcome.result !== undefined) this.head.bump();
      return outcome;
    }
    const finalBlock = this.finalBlock();
    let scope = scopeOf(this.protocol, method, params, finalBlock);
    const route = scope === 'head' ? LATEST_READ : READ;
    if (scope === 'head' && !this.head.fresh()) scope = 'none';
    // A failover key's eth_getProof may be answered by the partner: never shared with others.
    const key =
      (options.failover && method === 'eth_getProof' ? 'failover:' : '') + method + paramsJson;
    if (scope !== 'none') {
      const hit = this.cache.get(key);
      if (hit !== undefined) {
        this.metrics.cacheHit(method);
        return { result: hit };
      }
    }
    const generation = this.head.generation;
    const reorgs = this.head.reorgs;
    const flightKey = `${generation}:${key}`;
    const leader = this.inFlight.get(flightKey);
    if (leader) {
      this.metrics.merged(method);
      return this.follow(leader);
    }
    const request = this.fetch(method, paramsJson, options, route).then((outcome) => {
      if (outcome.result === undefined || outcome.fromPartner) return outcome;
      // An answer fetched across a new head is not kept as `latest`; one fetched across a reorg
      // is not kept at all (it may be of the orphaned blocks).
      if (scope === 'none' || this.head.reorgs !== reorgs) return outcome;
      if (scope === 'head' && this.head.generation !== generation) return outcome;
      if (!keepable(this.protocol, scope, outcome.result, finalBlock)) return outcome;
      const tie =
        scope === 'immutable'
          ? blockOf(this.protocol, method, params)
          : scope === 'whenFinal' && this.protocol === 'evm'
            ? blockIn(outcome.result)
            : undefined;
      this.cache.set(key, outcome.result, scope === 'head', tie);
      return outcome;
    });
    this.inFlight.set(flightKey, request);
    const done = () => {
      if (this.inFlight.get(flightKey) === request) this.inFlight.delete(flightKey);
    };
    request.then(done, done);
    return request;
  }

  /**
   * A merged caller waits for the leader, but never longer than its own call could have taken
   * (the upstream timeout, once per upstream a read may try): a hung leader does not hold it.
   */
  private follow(leader: Promise<Outcome>): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new UpstreamFailure('timeout')),
        this.timeoutMs * this.upstreams.length,
      );
      leader.then(
        (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** One upstream request (with failover and revert normalisation); no cache, no merging. */
  private async fetch(
    method: string,
    paramsJson: string,
    options: ForwardOptions,
    route: Route,
  ): Promise<Outcome> {
    // `method` is a name from the method table, so it needs no escaping.
    const body = `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${paramsJson}}`;
    const failover = method === 'eth_getProof' && options.failover && this.partner;
    let answered: Answered;
    try {
      answered = await this.send(body, route);
    } catch (error) {
      if (failover) return this.fromPartner(body);
      throw error;
    }
    let { outcome } = answered;
    if (outcome.error === undefined) {
      if (method === this.blockNumberMethod) outcome = this.notBehind(answered);
      return outcome;
    }
    if (failover) return this.fromPartner(body);
    let error = outcome.error;
    if (method === 'eth_call' || method === 'eth_estimateGas') {
      const parsed = JSON.parse(error) as RpcErrorBody;
      const normalised = normaliseRevert(parsed);
      if (normalised !== parsed) error = JSON.stringify(normalised);
    }
    return { error: scrubError(error, this.scrub) };
  }

  private async fromPartner(body: string): Promise<Outcome> {
    const outcome = unwrap(await this.partner!.send(body));
    if (outcome.error !== undefined && isRefusal(outcome.error)) {
      this.partner!.penalize('refused');
      throw new UpstreamFailure('refused');
    }
    return outcome.error === undefined
      ? { ...outcome, fromPartner: true }
      : { error: scrubError(outcome.error, this.scrub), fromPartner: true };
  }

  /**
   * A block number answered by an upstream: a higher one moves the head at once; a lower one
   * (an upstream that lags behind what others reported) is answered as the head, so the number
   * a client sees never goes back.
   */
  private notBehind({ outcome, upstream }: Answered): Outcome {
    const text = outcome.result!;
    let number: bigint;
    try {
      number = BigInt(JSON.parse(text) as string | number);
    } catch {
      return outcome;
    }
    this.head.advance(upstream, number);
    const head = this.head.number!;
    if (number >= head) return outcome;
    return { result: this.protocol === 'evm' ? `"0x${head.toString(16)}"` : head.toString() };
  }

  /**
   * Tries each upstream in order until one answers. A provider's refusal (HTTP 401/403/429, a
   * JSON-RPC limit error) means nothing was done: the next upstream is tried, for writes too.
   * Any other failure moves on only for calls that are safe to send again.
   */
  private async send(body: string, route: Route): Promise<Answered> {
    let failure: UpstreamFailure | undefined;
    for (const upstream of this.order(route)) {
      let outcome: Outcome;
      try {
        const text = await upstream.send(body);
        try {
          outcome = unwrap(text);
        } catch (error) {
          upstream.penalize('unavailable'); // JSON, but not a JSON-RPC answer
          throw error;
        }
      } catch (error) {
        failure = error as UpstreamFailure;
        if (failure.kind !== 'refused' && !route.retryable) break;
        continue;
      }
      if (outcome.error !== undefined && isRefusal(outcome.error)) {
        upstream.penalize('refused');
        failure = new UpstreamFailure('refused');
        continue;
      }
      return { outcome, upstream };
    }
    throw failure ?? new UpstreamFailure('unavailable');
  }

  async close(): Promise<void> {
    this.head.close();
    await Promise.all(
      [...this.upstreams, ...(this.partner ? [this.partner] : [])].map((u) => u.close()),
    );
  }
}
