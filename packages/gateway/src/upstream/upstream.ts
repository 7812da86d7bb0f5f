/**
 * One upstream node: an undici Pool (keep-alive), its health with backoff, and what the chain
 * needs to know of it: its latest block (number and hash, from the head poll and the health
 * check), the latest block's gas limit and the finalized block number.
 *
 * A provider's refusal (HTTP 401, 402, 403, 407 or 429) is not an answer: the call fails over to
 * the next upstream and nobody is charged for it. A refusal, a 5xx, a timeout or a body that is
 * not JSON-RPC marks the upstream unhealthy with backoff: it is tried only when no healthy
 * upstream is left, and not probed, for 1 s, then 2, 4 ... up to 30 s, or for as long as its
 * Retry-After asks (at most 5 minutes). After the backoff the next health check or head poll
 * probes it; it is healthy again once it answers (a probe, or a call it was tried with).
 */
import { type Dispatcher, Pool } from 'undici';
import type { Metrics } from '../metrics/metrics';
import type { Protocol } from '../jsonrpc/methods';
import { isRefusal } from './refusal';

/** Why an upstream call failed: not answered, not in time, or refused by the provider. */
export type FailureKind = 'unavailable' | 'timeout' | 'refused';

export class UpstreamFailure extends Error {
  constructor(readonly kind: FailureKind) {
    super(
      kind === 'timeout'
        ? 'upstream timeout'
        : kind === 'refused'
          ? 'upstream refused'
          : 'upstream unavailable',
    );
  }
}

/** A block as an upstream reported it: its number, and its hash when the report had one. */
export interface BlockReport {
  number: bigint;
  hash?: string;
  parentHash?: string;
}

/** HTTP statuses by which a provider refuses to serve (a quota, a key, a plan): never an answer. */
const REFUSALS = new Set([401, 402, 403, 407, 429]);
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
const RETRY_AFTER_MAX_MS = 300_000;

// A batch, like every call the gateway makes for itself (clients' calls go alone).
const HEALTH_BODY = JSON.stringify([
  { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] },
  { jsonrpc: '2.0', id: 2, method: 'eth_getBlockByNumber', params: ['finalized', false] },
]);
const HEAD_BODY = JSON.stringify([
  { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] },
]);
const STARKNET_HEAD_BODY = JSON.stringify([
  { jsonrpc: '2.0', id: 1, method: 'starknet_blockHashAndNumber', params: [] },
]);
const JSON_HEADERS = { 'content-type': 'application/json' };

interface EvmBlock {
  number: string;
  hash: string;
  parentHash: string;
  gasLimit: string;
}

type RpcAnswer = { id?: number; result?: unknown; error?: unknown };

/**
 * The one result of a batch of one, or of a call; throws when it has none: `refused` when it
 * is a provider's refusal (a -32005 limit error at HTTP 200, say), as for a client's call.
 */
function resultOf(text: string, id = 1): unknown {
  const parsed = JSON.parse(text) as RpcAnswer | RpcAnswer[];
  const answer = Array.isArray(parsed) ? parsed.find((a) => a.id === id) : parsed;
  if (!answer || answer.result === undefined) {
    const refused = answer?.error !== undefined && isRefusal(JSON.stringify(answer.error));
    throw new UpstreamFailure(refused ? 'refused' : 'unavailable');
  }
  return answer.result;
}

export class Upstream {
  /** Its latest block as last seen (head poll, health check, an answered block number). */
  head: BlockReport | undefined;
  gasLimit: bigint | undefined;
  finalized: bigint | undefined;
  /** Called with each latest block this upstream reports (the chain's head follows them). */
  onHead: (report: BlockReport) => void = () => undefined;
  private readonly pool: Pool;
  private readonly path: string;
  private timer: NodeJS.Timeout | undefined;
  /** Failures in a row, and until when it is in backoff (0: healthy). */
  private failures = 0;
  private until = 0;
  private lastFailure: FailureKind | undefined;
  /** Probes sent, and the last whose latest block was reported: an older answer is stale. */
  private probes = 0;
  private reported = 0;

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
    metrics.gauge(
      'gateway_upstream_healthy',
      'Whether the upstream is served from (1), or in backoff after a failure (0).',
      `upstream="${label}"`,
      () => (this.healthy ? 1 : 0),
    );
    metrics.gauge(
      'gateway_upstream_backoff_seconds',
      'Seconds left of the upstream’s backoff.',
      `upstream="${label}"`,
      () => this.backoffSeconds,
    );
    metrics.gauge(
      'gateway_upstream_head',
      'The latest block number the upstream reported.',
      `upstream="${label}"`,
      () => Number(this.head?.number ?? -1n),
    );
  }

  /** It answered since its last failure (or never failed). */
  get healthy(): boolean {
    return this.until === 0;
  }

  /** Healthy, or its backoff is over: it may be probed. */
  get probable(): boolean {
    return this.until === 0 || Date.now() >= this.until;
  }

  get backoffSeconds(): number {
    return this.until === 0 ? 0 : Math.max(0, (this.until - Date.now()) / 1000);
  }

  /** What the health report shows of it. */
  status(): { healthy: boolean; backoffSeconds: number; failures: number; lastFailure?: string } {
    return {
      healthy: this.healthy,
      backoffSeconds: Math.round(this.backoffSeconds * 10) / 10,
      failures: this.failures,
      ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
    };
  }

  /** A failure of this upstream: unhealthy, with a backoff that doubles with each in a row. */
  penalize(kind: FailureKind, retryAfterMs?: number): void {
    this.failures += 1;
    this.lastFailure = kind;
    const backoff = Math.min(
      BACKOFF_BASE_MS * 2 ** Math.min(this.failures - 1, 10),
      BACKOFF_MAX_MS,
    );
    const wait =
      retryAfterMs !== undefined
        ? Math.min(Math.max(retryAfterMs, backoff), RETRY_AFTER_MAX_MS)
        : backoff;
    this.until = Date.now() + wait;
    this.metrics.upstreamFailure(this.label, kind);
  }

  /** It answered: healthy again, its backoff forgotten. */
  private recovered(): void {
    this.failures = 0;
    this.until = 0;
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
      let retryAfterMs: number | undefined;
      const fail = (error: unknown, after?: number) => {
        this.metrics.upstreamLatency(this.label, (performance.now() - started) / 1000);
        const failure =
          error instanceof UpstreamFailure
            ? error
            : new UpstreamFailure(
                ((error as { code?: string } | undefined)?.code ?? '').includes('TIMEOUT')
                  ? 'timeout'
                  : 'unavailable',
              );
        this.penalize(failure.kind, after);
        reject(failure);
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
          onHeaders: (statusCode: number, rawHeaders: Buffer[]) => {
            status = statusCode;
            if (statusCode === 429 || statusCode === 503) retryAfterMs = retryAfter(rawHeaders);
            return true;
          },
          onData: (chunk: Buffer) => {
            chunks.push(chunk);
            return true;
          },
          onComplete: () => {
            // A refusal or a 5xx is a failure whatever its body says (a JSON-RPC error body of
            // a provider's 429 is its refusal, not the chain's answer); so is a body that is
            // not JSON-RPC.
            if (REFUSALS.has(status)) return fail(new UpstreamFailure('refused'), retryAfterMs);
            if (status >= 500) return fail(new UpstreamFailure('unavailable'), retryAfterMs);
            const text =
              chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
            if (!(text.startsWith('{') || text.startsWith('['))) {
              return fail(new UpstreamFailure('unavailable'));
            }
            this.metrics.upstreamLatency(this.label, (performance.now() - started) / 1000);
            if (this.failures !== 0) this.recovered();
            resolve(text);
          },
          onError: (error: Error) => fail(error),
        } as unknown as Dispatcher.DispatchHandler,
      );
    });
  }

  /** Its latest block, now (the head poll). */
  async pollHead(): Promise<BlockReport> {
    const probe = ++this.probes;
    const text = await this.send(
      this.protocol === 'starknet' ? STARKNET_HEAD_BODY : HEAD_BODY,
      Math.min(this.timeoutMs, 2000),
    );
    const report = this.readHead(resultOf(text));
    this.report(probe, report);
    return report;
  }

  /**
   * Reports a latest block read by probe number `probe`, unless a later probe was answered
   * first: a head poll and a health check in flight together may come back in either order.
   */
  private report(probe: number, report: BlockReport): void {
    if (probe < this.reported) return;
    this.reported = probe;
    this.onHead(report);
  }

  /** The hash of block `number` as this upstream has it (undefined when it has none). */
  async hashAt(number: bigint): Promise<string | undefined> {
    const body =
      this.protocol === 'starknet'
        ? [
            {
              jsonrpc: '2.0',
              id: 1,
              method: 'starknet_getBlockWithTxHashes',
              params: { block_id: { block_number: Number(number) } },
            },
          ]
        : [
            {
              jsonrpc: '2.0',
              id: 1,
              method: 'eth_getBlockByNumber',
              params: [`0x${number.toString(16)}`, false],
            },
          ];
    const parsed = JSON.parse(await this.send(JSON.stringify(body))) as {
      result?: { hash?: string; block_hash?: string } | null;
    }[];
    const block = parsed[0]?.result;
    return block ? (block.hash ?? block.block_hash) : undefined;
  }

  private readHead(result: unknown): BlockReport {
    if (this.protocol === 'starknet') {
      const head = result as { block_hash: string; block_number: number };
      if (typeof head?.block_number !== 'number') throw new UpstreamFailure('unavailable');
      return { number: BigInt(head.block_number), hash: head.block_hash };
    }
    const block = result as EvmBlock | null;
    if (!block?.number) throw new UpstreamFailure('unavailable');
    this.gasLimit = BigInt(block.gasLimit);
    return { number: BigInt(block.number), hash: block.hash, parentHash: block.parentHash };
  }

  /**
   * One health check: on EVM chains the latest and finalized blocks (the gas limit, the final
   * block, and the latest block for the head), on Starknet the latest block. Skipped while in
   * backoff: a check then would end the backoff early.
   */
  async check(): Promise<boolean> {
    if (!this.probable) return false;
    try {
      if (this.protocol === 'starknet') {
        await this.pollHead();
        return true;
      }
      const probe = ++this.probes;
      const text = await this.send(HEALTH_BODY, Math.min(this.timeoutMs, 2000));
      const latest = resultOf(text, 1);
      const finalized = resultOf(text, 2) as EvmBlock | null;
      this.report(probe, this.readHead(latest));
      this.finalized = finalized ? BigInt(finalized.number) : undefined;
      return true;
    } catch (error) {
      // A send that failed has penalized already; an answer without a block is a failure too
      // (a refusal by its kind: the last failure the health report shows).
      if (!(error instanceof UpstreamFailure)) this.penalize('unavailable');
      else if (this.probable) this.penalize(error.kind);
      return false;
    }
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

/** Retry-After in ms (seconds, or an HTTP date), from undici's raw header list. */
function retryAfter(rawHeaders: Buffer[] | string[] | undefined): number | undefined {
  if (!rawHeaders) return undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (String(rawHeaders[i]).toLowerCase() !== 'retry-after') continue;
    const value = String(rawHeaders[i + 1]).trim();
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
  }
  return undefined;
}
