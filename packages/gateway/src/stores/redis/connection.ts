/**
 * The connection to the Redis of the key registry and the ledger: one Redis, or a Redis Cluster
 * given by some of its nodes; exact across drops, timeouts and slot moves
 * (docs/architecture/gateway.md#ledgers).
 */
import Redis, { Cluster, Command } from 'ioredis';

/** How long a command may wait for Redis before its call answers 503 (retryable). */
export const COMMAND_TIMEOUT_MS = 2000;

/** One Redis (a URL), or a Redis Cluster given by some of its nodes (seed URLs). */
export type RedisTarget = string | { cluster: string[] };

// Options of every connection (see the comment at the top).
const CONNECTION_OPTIONS = {
  enableAutoPipelining: true,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 1,
  commandTimeout: COMMAND_TIMEOUT_MS,
} as const;

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

/** A cluster node's address from its URL. */
function clusterNode(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 6379) };
}

export class RedisConnection {
  readonly redis: Redis | Cluster;
  /** Set on a Redis Cluster. */
  readonly cluster: Cluster | undefined;
  private down = false;
  private readonly backListeners: (() => void)[] = [];
  private readonly slots = new Map<string, number>();

  /** Connects (or throws a clear error); `serve` also warns when Redis does not persist. */
  static async open(
    target: RedisTarget,
    options: { warnIfVolatile?: boolean } = {},
  ): Promise<RedisConnection> {
    const connection = new RedisConnection(target);
    try {
      await connection.redis.ping();
    } catch (error) {
      connection.redis.disconnect();
      throw new Error(
        `cannot reach the Redis ledger at ${where(target)} (${(error as Error).message})`,
      );
    }
    if (options.warnIfVolatile) await connection.warnIfVolatile();
    return connection;
  }

  constructor(private readonly target: RedisTarget) {
    if (typeof target === 'string') {
      this.redis = new Redis(target, {
        ...CONNECTION_OPTIONS,
        retryStrategy: (times) => Math.min(times * 100, 1000),
      });
    } else {
      const first = new URL(target.cluster[0]);
      this.cluster = new Cluster(target.cluster.map(clusterNode), {
        redisOptions: {
          ...CONNECTION_OPTIONS,
          ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
          ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
          ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
        },
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        retryDelayOnTryAgain: 100,
        maxRedirections: 16,
        slotsRefreshInterval: 2000,
        clusterRetryStrategy: (times) => Math.min(times * 100, 1000),
      });
      this.redis = this.cluster;
    }
    const unavailable = (error: Error) => {
      if (this.down) return;
      this.down = true;
      process.stderr.write(
        `l2-gateway: the Redis ledger at ${where(target)} is unavailable (${error.message}); ` +
          'paid calls answer 503 until it is back\n',
      );
    };
    this.redis.on('error', unavailable);
    this.redis.on('node error', unavailable);
    this.redis.on('ready', () => {
      // Commands wait for the first connection only; after that, while Redis is away they fail
      // at once (a 503 for the call) instead of queuing.
      if (!this.cluster) (this.redis as Redis).options.enableOfflineQueue = false;
      this.answered();
    });
  }

  /** Calls `listener` each time Redis is back after an outage. */
  onBack(listener: () => void): void {
    this.backListeners.push(listener);
  }

  /** Redis answered a command: if it was down, say it is back. */
  answered(): void {
    if (!this.down) return;
    this.down = false;
    process.stderr.write(`l2-gateway: the Redis ledger at ${where(this.target)} is back\n`);
    for (const listener of this.backListeners) listener();
  }

  get isDown(): boolean {
    return this.down;
  }

  /**
   * The node whose commands for a key (by its hash tag) go together: on a cluster, the master
   * that holds the tag's slot (as ioredis last learned it); one Redis is one node.
   */
  nodeOf(tag: string): string {
    if (!this.cluster) return '';
    let slot = this.slots.get(tag);
    if (slot === undefined) {
      slot = new Command('get', [`{${tag}}`]).getSlot() as number;
      if (this.slots.size > 100_000) this.slots.clear();
      this.slots.set(tag, slot);
    }
    return this.cluster.slots[slot]?.[0] ?? `slot:${slot}`;
  }

  private async warnIfVolatile(): Promise<void> {
    const nodes = this.cluster ? this.cluster.nodes('master') : [this.redis as Redis];
    for (const node of nodes) {
      const warning = await volatility(node);
      if (warning) {
        process.stderr.write(`l2-gateway: warning: Redis at ${where(this.target)} ${warning}\n`);
        return;
      }
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * What a node's persistence can lose, or undefined when nothing it acknowledged. A node that
 * does not fsync on every write loses, when it crashes, writes it already answered: with
 * everysec (Redis's default) it even postpones the write itself while an fsync is in progress
 * (up to 2 s), so a kill -9 of the process alone loses them; with no, a crash of the machine.
 */
async function volatility(node: Redis): Promise<string | undefined> {
  try {
    if (/aof_enabled:0/.test(await node.info('persistence'))) {
      return (
        'has append-only persistence off, so a Redis restart loses every key and balance ' +
        '(run redis-server with --appendonly yes --appendfsync always)'
      );
    }
  } catch {
    return undefined; // INFO may be disabled on a managed Redis: nothing to say then.
  }
  let policy: string | undefined;
  try {
    policy = ((await node.config('GET', 'appendfsync')) as string[])[1];
  } catch {
    return undefined; // CONFIG may be disabled on a managed Redis: nothing to say then.
  }
  if (policy === undefined || policy === 'always') return undefined;
  return (
    `syncs its append-only file with appendfsync ${policy}, so a crash can lose the debits ` +
    'of answers already sent (run redis-server with --appendfsync always)'
  );
}
