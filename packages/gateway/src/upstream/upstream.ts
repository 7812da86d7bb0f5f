/**
 * One upstream node: an undici Pool (keep-alive) plus a health check that also reads what the
 * normalisation needs (the latest block's gas limit, the finalized block number).
 */
import { type Dispatcher, Pool } from 'undici';
import type { Metrics } from '../metrics/metrics';
import type { Protocol } from './types';

export class UpstreamFailure extends Error {
  constructor(readonly kind: 'unavailable' | 'timeout') {
    super(kind === 'timeout' ? 'upstream timeout' : 'upstream unavailable');
  }
}

const HEALTH_BODY = JSON.stringify([
  { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] },
  { jsonrpc: '2.0', id: 2, method: 'eth_getBlockByNumber', params: ['finalized', false] },
]);
const JSON_HEADERS = { 'content-type': 'application/json' };
const STARKNET_HEALTH_BODY = '{"jsonrpc":"2.0","id":1,"method":"starknet_blockNumber","params":[]}';

export class Upstream {
  healthy = true;
  gasLimit: bigint | undefined;
  finalized: bigint | undefined;
  private readonly pool: Pool;
  private readonly path: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly url: string,
    /** A label for metrics: the chain name and position, never the URL (it may carry a token). */
    readonly label: string,
    private readonly timeoutMs: number,
    private readonly metrics: Metrics,
    private readonly protocol: Protocol = 'evm',
  ) {
    const parsed = new URL(url);
    this.path = parsed.pathname + parsed.search;
    this.pool = new Pool(parsed.origin, {
      connections: 128,
      keepAliveTimeout: 30_000,
      connectTimeout: Math.min(timeoutMs, 3000),
    });
  }

  /**
   * Sends a JSON-RPC body; resolves with the response text, or throws UpstreamFailure. The
   * answer's bytes are collected by a bare dispatch handler: no response stream, no header
   * parsing, on the path every call takes.
   */
  send(body: string, timeoutMs = this.timeoutMs): Promise<string> {
    const started = performance.now();
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      const fail = (error: unknown) => {
        this.healthy = false;
        this.metrics.upstreamLatency(this.label, (performance.now() - started) / 1000);
        if (error instanceof UpstreamFailure) return reject(error);
        const code = (error as { code?: string } | undefined)?.code ?? '';
        reject(new UpstreamFailure(code.includes('TIMEOUT') ? 'timeout' : 'unavailable'));
      };
      this.pool.dispatch(
        {
          path: this.path,
          method: 'POST',
          headers: JSON_HEADERS,
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        {
          onConnect: () => undefined,
          onHeaders: (statusCode: number) => {
            status = statusCode;
            return true;
          },
          onData: (chunk: Buffer) => {
            chunks.push(chunk);
            return true;
          },
          onComplete: () => {
            const text =
              chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
            // A JSON-RPC error is an answer; a 5xx or a body that is not JSON-RPC is a failure.
            if (status >= 500 || !(text.startsWith('{') || text.startsWith('['))) {
              return fail(new UpstreamFailure('unavailable'));
            }
            this.metrics.upstreamLatency(this.label, (performance.now() - started) / 1000);
            resolve(text);
          },
          onError: fail,
        } as unknown as Dispatcher.DispatchHandler,
      );
    });
  }

  /** One health check; on EVM chains it also refreshes the gas limit and finalized block. */
  async check(): Promise<boolean> {
    if (this.protocol === 'starknet') {
      try {
        const text = await this.send(STARKNET_HEALTH_BODY, Math.min(this.timeoutMs, 2000));
        this.healthy = typeof (JSON.parse(text) as { result?: unknown }).result === 'number';
      } catch {
        this.healthy = false;
      }
      return this.healthy;
    }
    try {
      const text = await this.send(HEALTH_BODY, Math.min(this.timeoutMs, 2000));
      const answers = JSON.parse(text) as { id: number; result?: Record<string, string> | null }[];
      const latest = answers.find((a) => a.id === 1)?.result;
      const finalized = answers.find((a) => a.id === 2)?.result;
      if (!latest) throw new UpstreamFailure('unavailable');
      this.gasLimit = BigInt(latest.gasLimit);
      this.finalized = finalized ? BigInt(finalized.number) : undefined;
      this.healthy = true;
    } catch {
      this.healthy = false;
    }
    return this.healthy;
  }

  startHealthChecks(intervalMs: number): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.pool.close().catch(() => undefined);
  }
}
