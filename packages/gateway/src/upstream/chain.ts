/**
 * One chain: its upstreams (tried in turn, unhealthy ones skipped), the eth_getProof failover
 * partner, SPEC normalisation, its head, identical calls in flight merged into one upstream
 * request, and the cache of answers that are still true (see policy.ts).
 *
 * Upstream answers pass through as bytes: only the result (or error) text is kept, and each
 * caller's answer is that text wrapped with its own id.
 */
import type { ChainConfig } from '../config';
import type { Metrics } from '../metrics/metrics';
import { AnswerCache } from './cache';
import { HeadTracker } from './head';
import { capGas, normaliseRevert, padStorageKeys } from './normalise';
import { keepable, scopeOf } from './policy';
import type { Protocol, RpcErrorBody } from './types';
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

/** An upstream answer without its id: the JSON text of its result, or of its error. */
export type Outcome = (
  { result: string; error?: undefined } | { error: string; result?: undefined }
) & {
  /** Answered by the failover partner (for one key's call only: never kept or shared). */
  fromPartner?: boolean;
  /** UTF-8 bytes of the result or error text, counted once (see outcomeBytes). */
  bytes?: number;
};

/**
 * UTF-8 bytes of an outcome's text. Merged callers share one Outcome object, so a large answer
 * is counted once, and measured without building (copying) any caller's response text.
 */
export function outcomeBytes(outcome: Outcome): number {
  outcome.bytes ??= Buffer.byteLength(outcome.result ?? outcome.error!);
  return outcome.bytes;
}

/** The response text for one caller: the shared outcome wrapped with the caller's own id. */
export function responseText(outcome: Outcome, id: unknown): string {
  const idText = typeof id === 'number' ? String(id) : JSON.stringify(id);
  return outcome.result !== undefined
    ? `{"jsonrpc":"2.0","id":${idText},"result":${outcome.result}}`
    : `{"jsonrpc":"2.0","id":${idText},"error":${outcome.error}}`;
}

// Every upstream request carries id 1: an answer starting with this passes through unparsed.
const RESULT_PREFIX = '{"jsonrpc":"2.0","id":1,"result":';

/** The result or error text of one upstream answer; UpstreamFailure when it is neither. */
export function unwrap(text: string): Outcome {
  if (text.startsWith(RESULT_PREFIX) && text.endsWith('}')) {
    return { result: text.slice(RESULT_PREFIX.length, -1) };
  }
  let answer: { result?: unknown; error?: unknown };
  try {
    answer = JSON.parse(text);
  } catch {
    throw new UpstreamFailure('unavailable');
  }
  if (answer?.error !== undefined) return { error: JSON.stringify(answer.error) };
  if (answer && 'result' in answer) return { result: JSON.stringify(answer.result) };
  throw new UpstreamFailure('unavailable');
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
    this.cache = new AnswerCache(options.cacheEntries ?? 10_000, options.cacheBytes ?? 16 << 20);
    this.blockNumberMethod = this.protocol === 'evm' ? 'eth_blockNumber' : 'starknet_blockNumber';
    const blockNumber = `{"jsonrpc":"2.0","id":1,"method":"${this.blockNumberMethod}","params":[]}`;
    this.head = new HeadTracker(
      async () => {
        const outcome = unwrap(await this.send(blockNumber, true));
        if (outcome.result === undefined) throw new UpstreamFailure('unavailable');
        return BigInt(JSON.parse(outcome.result) as string | number);
      },
      () => this.cache.newHead(),
      config.headPollMs ?? 250,
      // newHeads is Ethereum's subscription; Starknet heads are polled.
      this.protocol === 'evm' ? config.wsUpstream : undefined,
    );
    metrics.gauge(
      'gateway_cache_entries',
      'Answers held in the cache.',
      `chain="${this.name}"`,
      () => this.cache.size,
    );
    metrics.gauge(
      'gateway_cache_bytes',
      'Approximate bytes held in the cache.',
      `chain="${this.name}"`,
      () => this.cache.byteSize,
    );
  }

  start(healthIntervalMs: number): void {
    for (const upstream of this.upstreams) upstream.startHealthChecks(healthIntervalMs);
    this.head.start();
  }

  get healthy(): boolean {
    return this.upstreams.some((u) => u.healthy);
  }

  /** Healthy upstreams first, in round-robin order; the unhealthy only if none is healthy. */
  private order(): Upstream[] {
    if (this.upstreams.length === 1) return this.upstreams;
    const start = this.next++ % this.upstreams.length;
    const rotated = [...this.upstreams.slice(start), ...this.upstreams.slice(0, start)];
    const healthy = rotated.filter((u) => u.healthy);
    return healthy.length > 0 ? healthy : rotated;
  }

  private gasLimit(): bigint | undefined {
    return this.upstreams.find((u) => u.healthy && u.gasLimit !== undefined)?.gasLimit;
  }

  /** The deepest block that can no longer change: head - finalityDepth, or the node's `finalized`. */
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
    for (const upstream of this.order()) if (await upstream.check()) return upstream.gasLimit;
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
      const outcome = await this.fetch(method, paramsJson, options);
      if (outcome.result !== undefined) this.head.bump();
      return outcome;
    }
    const finalBlock = this.finalBlock();
    let scope = scopeOf(this.protocol, method, params, finalBlock);
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
    const flightKey = `${generation}:${key}`;
    const leader = this.inFlight.get(flightKey);
    if (leader) {
      this.metrics.merged(method);
      return this.follow(leader);
    }
    const request = this.fetch(method, paramsJson, options).then((outcome) => {
      let current = generation;
      if (method === this.blockNumberMethod && outcome.result !== undefined) {
        // A client that saw head N through the gateway gets no `latest` answer older than N.
        const number = BigInt(JSON.parse(outcome.result) as string | number);
        this.head.advance(number);
        if (number === this.head.number) current = this.head.generation;
      }
      if (
        outcome.result !== undefined &&
        !outcome.fromPartner &&
        (scope !== 'head' || current === this.head.generation) &&
        keepable(this.protocol, scope, outcome.result, finalBlock)
      ) {
        this.cache.set(key, outcome.result, scope === 'head');
      }
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
  ): Promise<Outcome> {
    // `method` is a name from the method table, so it needs no escaping.
    const body = `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${paramsJson}}`;
    const failover = method === 'eth_getProof' && options.failover && this.partner;
    let outcome: Outcome;
    try {
      outcome = unwrap(await this.send(body, options.retryable));
    } catch (error) {
      if (failover) return { ...unwrap(await this.partner!.send(body)), fromPartner: true };
      throw error;
    }
    if (outcome.error === undefined) return outcome;
    if (failover) return { ...unwrap(await this.partner!.send(body)), fromPartner: true };
    if (method === 'eth_call' || method === 'eth_estimateGas') {
      const error = JSON.parse(outcome.error) as RpcErrorBody;
      const normalised = normaliseRevert(error);
      if (normalised !== error) return { error: JSON.stringify(normalised) };
    }
    return outcome;
  }

  /** Tries each upstream in order; only retryable calls move on after a failure. */
  private async send(body: string, retryable: boolean): Promise<string> {
    let failure: UpstreamFailure | undefined;
    for (const upstream of this.order()) {
      try {
        return await upstream.send(body);
      } catch (error) {
        failure = error as UpstreamFailure;
        if (!retryable) break;
      }
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
