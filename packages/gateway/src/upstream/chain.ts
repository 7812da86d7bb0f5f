/**
 * One chain: its upstreams (tried in turn, unhealthy ones skipped), the eth_getProof failover
 * partner, SPEC normalisation and the cache of immutable answers.
 */
import type { ChainConfig } from '../config';
import type { Metrics } from '../metrics/metrics';
import { AnswerCache } from './cache';
import { capGas, normaliseRevert, padStorageKeys } from './normalise';
import type { RpcAnswer } from './types';
import { Upstream, UpstreamFailure } from './upstream';

export interface ForwardOptions {
  retryable: boolean;
  failover: boolean;
}

export class Chain {
  readonly name: string;
  readonly upstreams: Upstream[];
  readonly partner: Upstream | undefined;
  readonly wsUpstream: string | undefined;
  private readonly cache: AnswerCache;
  private next = 0;

  constructor(
    config: ChainConfig,
    options: { timeoutMs: number; cacheEntries: number },
    private readonly metrics: Metrics,
  ) {
    this.name = config.name;
    this.upstreams = config.upstreams.map(
      (url, i) => new Upstream(url, `${config.name}/${i}`, options.timeoutMs, metrics),
    );
    this.partner = config.partner
      ? new Upstream(config.partner, `${config.name}/partner`, options.timeoutMs, metrics)
      : undefined;
    this.wsUpstream = config.wsUpstream;
    this.cache = new AnswerCache(options.cacheEntries);
  }

  start(healthIntervalMs: number): void {
    for (const upstream of this.upstreams) upstream.startHealthChecks(healthIntervalMs);
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

  private finalized(): bigint | undefined {
    return this.upstreams.find((u) => u.healthy && u.finalized !== undefined)?.finalized;
  }

  /** Before the first health check has answered, read the gas limit once. */
  private async ensureGasLimit(): Promise<bigint | undefined> {
    const known = this.gasLimit();
    if (known !== undefined) return known;
    for (const upstream of this.order()) if (await upstream.check()) return upstream.gasLimit;
    return undefined;
  }

  /**
   * Forwards one validated call and resolves with the response text for the client (same id).
   * Throws UpstreamFailure when no upstream answered (the caller refunds the debit).
   */
  async forward(
    method: string,
    params: unknown[],
    id: unknown,
    options: ForwardOptions,
  ): Promise<string> {
    if (method === 'eth_call' || method === 'eth_estimateGas') {
      params = capGas(params, this.gasLimit() ?? (await this.ensureGasLimit()));
    } else if (method === 'eth_getProof') {
      params = padStorageKeys(params);
    }
    const cacheKey = AnswerCache.key(method, params);
    if (cacheKey) {
      const hit = this.cache.get(cacheKey);
      if (hit !== undefined) {
        this.metrics.cacheHit(method);
        return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${hit}}`;
      }
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    let text: string;
    try {
      text = await this.send(body, options.retryable);
    } catch (error) {
      if (method === 'eth_getProof' && options.failover && this.partner) {
        return this.partner.send(body);
      }
      throw error;
    }
    if (!text.includes('"error"') && !cacheKey) return text;

    const answer = JSON.parse(text) as RpcAnswer;
    if (answer.error) {
      if (method === 'eth_getProof' && options.failover && this.partner) {
        return this.partner.send(body);
      }
      if (method === 'eth_call' || method === 'eth_estimateGas') {
        const normalised = normaliseRevert(answer.error);
        if (normalised !== answer.error) {
          return JSON.stringify({ jsonrpc: '2.0', id: answer.id, error: normalised });
        }
      }
      return text;
    }
    if (cacheKey && AnswerCache.immutable(method, answer.result, this.finalized())) {
      this.cache.set(cacheKey, JSON.stringify(answer.result));
    }
    return text;
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
    await Promise.all(
      [...this.upstreams, ...(this.partner ? [this.partner] : [])].map((u) => u.close()),
    );
  }
}
