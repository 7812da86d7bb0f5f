/** The gateway's JSON config file (see README.md); relative paths are relative to the file. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkConfigKey, type ConfigKey } from './auth/controls';
import type { Protocol } from './jsonrpc/methods';

export interface ChainConfig {
  name: string;
  /** Host names without port; `*` matches any host. */
  hosts: string[];
  upstreams: string[];
  /** Independent node that answers eth_getProof for failover keys when the upstreams fail. */
  partner?: string;
  wsUpstream?: string;
  /** `evm` (default) or `starknet` (upstreams are Starknet JSON-RPC 0.9 / 0.10 nodes). */
  protocol?: Protocol;
  /**
   * Blocks below the head that can no longer change (default: the node's `finalized` block). At
   * least 1: at 0 the head block itself would be kept as final, and a reorg at the head's height
   * would leave the orphaned block's answers in memory.
   */
  finalityDepth?: number;
  /** Between head polls, in ms, when no WebSocket upstream gives newHeads (default 250). */
  headPollMs?: number;
}

/** A ledger: SQLite (one process), Redis, or a Redis Cluster given by some of its nodes. */
export type LedgerConfig = { sqlite: string } | { redis: string } | { redisCluster: string[] };

export interface GatewayConfig {
  listen: { host: string; port: number };
  ledger: LedgerConfig;
  chains: ChainConfig[];
  /** Per upstream call, in ms (default 5000). */
  upstreamTimeoutMs?: number;
  /** Between upstream health checks, in ms (default 1000). */
  healthIntervalMs?: number;
  /** Answers kept in memory (default 10000; 0 turns the cache off). */
  cacheEntries?: number;
  /** Bytes of answers kept in memory per chain (default 16 MB; an answer over 1 MB is not kept). */
  cacheBytes?: number;
  /** Bytes one HTTP response or one WebSocket message may hold (default 32 MB). */
  responseLimitBytes?: number;
  /** A client that does not read its answers for this long is dropped, in ms (default 30000). */
  slowClientMs?: number;
  /** Keys defined here (by hashes), with their plans and controls: applied at `serve`. */
  keys?: ConfigKey[];
}

function fail(file: string, why: string): never {
  throw new Error(`${file}: ${why}`);
}

/** The head is polled at most this often, and at least this often (a reorg is seen within it). */
export const HEAD_POLL_MS = { min: 20, max: 60_000 };

export function loadConfig(file: string): GatewayConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(file, `cannot read the config (${(error as Error).message})`);
  }
  const config = raw as GatewayConfig;
  if (typeof config !== 'object' || config === null) fail(file, 'must be a JSON object');
  config.listen = Object.assign({ host: '127.0.0.1', port: 8545 }, config.listen);
  const ledger = config.ledger as Record<string, unknown> | undefined;
  if (ledger && typeof ledger.sqlite === 'string') {
    config.ledger = { sqlite: path.resolve(path.dirname(file), ledger.sqlite) };
  }
  // A JWT public key may be given as a PEM file, relative to the config.
  for (const key of Array.isArray(config.keys) ? config.keys : []) {
    for (const publicKey of key?.jwt?.publicKeys ?? []) {
      const given = publicKey as { pem?: string; file?: string };
      if (given.pem === undefined && typeof given.file === 'string') {
        try {
          given.pem = readFileSync(path.resolve(path.dirname(file), given.file), 'utf8');
        } catch (error) {
          fail(file, `cannot read the public key ${given.file} (${(error as Error).message})`);
        }
      }
    }
  }
  return checkConfig(config, file);
}

const isRedisUrl = (url: unknown) => typeof url === 'string' && /^rediss?:\/\/[^/]/.test(url);

/**
 * Checks a config (from a file, or built by a program) and returns it; throws a clear error
 * naming the field. `source` names the config in the message.
 */
export function checkConfig(config: GatewayConfig, source = 'config'): GatewayConfig {
  const file = source;
  const ledger = config.ledger as Record<string, unknown> | undefined;
  const ledgers = ledger ? Object.keys(ledger) : [];
  const cluster = ledger?.redisCluster;
  if (
    !ledger ||
    ledgers.length !== 1 ||
    !(
      typeof ledger.sqlite === 'string' ||
      typeof ledger.redis === 'string' ||
      (Array.isArray(cluster) && cluster.length > 0)
    )
  ) {
    fail(
      file,
      'ledger must be { "sqlite": PATH }, { "redis": URL } or { "redisCluster": [URL, ...] }',
    );
  }
  if (Array.isArray(cluster) && !cluster.every(isRedisUrl)) {
    fail(file, 'ledger.redisCluster must list redis://host:port URLs of cluster nodes');
  }
  if (!Array.isArray(config.chains) || config.chains.length === 0) {
    fail(file, 'chains must list at least one chain');
  }
  for (const chain of config.chains) {
    if (typeof chain.name !== 'string') fail(file, 'every chain needs a name');
    if (!Array.isArray(chain.hosts) || chain.hosts.length === 0) {
      fail(file, `chain ${chain.name}: hosts must list host names or "*"`);
    }
    if (!Array.isArray(chain.upstreams) || chain.upstreams.length === 0) {
      fail(file, `chain ${chain.name}: upstreams must list at least one URL`);
    }
    if (chain.protocol !== undefined && chain.protocol !== 'evm' && chain.protocol !== 'starknet') {
      fail(file, `chain ${chain.name}: protocol must be "evm" or "starknet"`);
    }
    if (!/^[A-Za-z0-9._-]+$/.test(chain.name)) {
      fail(
        file,
        `chain ${chain.name}: a name is letters, digits, ".", "_" and "-" (it is a URL path prefix)`,
      );
    }
    const depth = chain.finalityDepth;
    if (depth !== undefined && (!Number.isSafeInteger(depth) || depth < 1)) {
      fail(
        file,
        `chain ${chain.name}: finalityDepth must be an integer of at least 1 (blocks below the ` +
          'head that can no longer change; at 0 the head block itself would be kept as final, ' +
          "and a reorg at its height would serve the orphaned block). Leave it out to follow the node's finalized block",
      );
    }
    const poll = chain.headPollMs;
    if (
      poll !== undefined &&
      (!Number.isSafeInteger(poll) || poll < HEAD_POLL_MS.min || poll > HEAD_POLL_MS.max)
    ) {
      fail(
        file,
        `chain ${chain.name}: headPollMs must be an integer from ${HEAD_POLL_MS.min} to ` +
          `${HEAD_POLL_MS.max} (a reorg is seen within one poll; latest answers live at most three)`,
      );
    }
  }
  for (const name of [
    'responseLimitBytes',
    'slowClientMs',
    'upstreamTimeoutMs',
    'healthIntervalMs',
  ] as const) {
    const value = config[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0)) {
      fail(file, `${name} must be a positive integer`);
    }
  }
  for (const name of ['cacheEntries', 'cacheBytes'] as const) {
    const value = config[name];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      fail(file, `${name} must be an integer of at least 0`);
    }
  }
  if (config.keys !== undefined) {
    if (!Array.isArray(config.keys)) fail(file, 'keys must be a list');
    config.keys.forEach((key, index) => {
      try {
        checkConfigKey(key, index);
      } catch (error) {
        fail(file, (error as Error).message);
      }
    });
  }
  return config;
}
