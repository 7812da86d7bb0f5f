#!/usr/bin/env node
/**
 * L2_PAYMASTER_RELAYER_KEY=<key> L2_PAYMASTER_NODE_URL=<url> [L2_PAYMASTER_API_KEYS=<k,k>]
 *   [L2_PAYMASTER_REDIS_URL=<redis url>]
 *   l2-paymaster --relayer <account address> [--gas-token <address>=<price in STRK>]... [options]
 *
 * Secrets never come from the command line (which `ps` shows): the relayer key, the node URL (it
 * may carry a key), the sponsor keys and the Redis URL (it may carry a password) come from the
 * environment, or from files named by --node-file / --api-keys-file / --redis-url-file. They are
 * read once, removed from the process's environment, and never printed (the node URL shows as its
 * scheme, host and port only).
 */
import { readFileSync } from 'node:fs';

import { closeOnSignals } from '@l2wallet/jsonrpc';

import { startPaymaster, StartupError } from './index';
import { redisWhere } from './store/redis';

const USAGE = `usage:
  L2_PAYMASTER_RELAYER_KEY=<key> L2_PAYMASTER_NODE_URL=<starknet rpc url> \\
  L2_PAYMASTER_API_KEYS=<sponsor key>[,<key>...] [L2_PAYMASTER_REDIS_URL=<redis://…>] \\
  l2-paymaster --relayer <account address> [--gas-token <address>=<price in STRK>]...
      [--node-file <file holding the node url>] [--api-keys-file <file, one key a line>]
      [--host 127.0.0.1] [--port 8090] [--state-file <sqlite file, default l2-paymaster.sqlite>]
      [--fee-margin <percent, default 20>] [--max-validity <seconds, default 3600>]
      [--max-tip <FRI per L2 gas, default 1000000000>] [--sponsor-budget <STRK a day per key, 100>]
      [--min-balance <STRK floor of the relayer, default 1>] [--rate-limit <requests a minute, 120>]
      [--node-timeout <ms, default 10000>] [--redis-url-file <file holding the redis url>]
      [--redis-prefix <key prefix, default l2-paymaster:>] [--turn-lease <ms an account's turn
      is held at most; default 150000>]
  With a Redis URL, tracking ids, debts, sponsor budgets, accounts' turns and rate limits live in
  that Redis (instead of --state-file), shared by every paymaster that uses it.
  Secrets (the relayer key, the node URL, sponsor keys, the Redis URL) are never options.`;

const KEY_VARIABLE = 'L2_PAYMASTER_RELAYER_KEY';
const NODE_VARIABLE = 'L2_PAYMASTER_NODE_URL';
const API_KEYS_VARIABLE = 'L2_PAYMASTER_API_KEYS';
const REDIS_VARIABLE = 'L2_PAYMASTER_REDIS_URL';
const REPEATABLE = new Set(['gas-token']);
const KNOWN = new Set([
  'node-file',
  'api-keys-file',
  'host',
  'port',
  'relayer',
  'state-file',
  'fee-margin',
  'max-validity',
  'max-tip',
  'sponsor-budget',
  'min-balance',
  'rate-limit',
  'node-timeout',
  'redis-url-file',
  'redis-prefix',
  'turn-lease',
  ...REPEATABLE,
]);
/** Options that once carried secrets: refused with where the secret goes now. */
const MOVED: Record<string, string> = {
  node: `the node URL comes from ${NODE_VARIABLE} or --node-file (a URL may carry a key)`,
  'api-key': `sponsor keys come from ${API_KEYS_VARIABLE} or --api-keys-file`,
  redis: `the Redis URL comes from ${REDIS_VARIABLE} or --redis-url-file (it may carry a password)`,
  'redis-url': `the Redis URL comes from ${REDIS_VARIABLE} or --redis-url-file`,
};

function usageError(message: string): never {
  process.stderr.write(`l2-paymaster: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Map<string, string[]> {
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (!arg.startsWith('--')) usageError(`unexpected argument #${i + 1} (options start with --)`);
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq !== -1) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    // The name only: a mistyped option may be followed by a secret.
    if (Object.hasOwn(MOVED, name)) usageError(`--${name} is not an option: ${MOVED[name]}`);
    if (!KNOWN.has(name)) usageError(`unknown option --${name.slice(0, 40)}`);
    if (value === undefined) {
      if (i + 1 >= argv.length) usageError(`--${name} needs a value`);
      value = argv[++i];
    }
    if (options.has(name) && !REPEATABLE.has(name)) usageError(`--${name} is given twice`);
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return options;
}

function integer(
  text: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
) {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    usageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** The node URL as it may be shown: scheme, host and port, never a path, query or user info. */
function shownOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    usageError('--node is not a URL');
  }
}

/** A file's text, trimmed; a usage error (without the file's content) when it cannot be read. */
function secretFile(path: string, option: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    usageError(`--${option}: cannot read the file (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** A decimal amount of STRK as FRI (`--sponsor-budget 2.5`). */
function strkAmount(text: string | undefined, name: string, fallback: bigint): bigint {
  if (text === undefined) return fallback;
  const match = /^([0-9]{1,12})(?:\.([0-9]{1,18}))?$/.exec(text);
  if (!match) usageError(`--${name} must be an amount of STRK (e.g. 100 or 0.5)`);
  return BigInt(match[1]) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'));
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const one = (name: string) => options.get(name)?.[0];
  const key = process.env[KEY_VARIABLE];
  const nodeFromEnv = process.env[NODE_VARIABLE];
  const apiKeysFromEnv = process.env[API_KEYS_VARIABLE];
  delete process.env[KEY_VARIABLE];
  delete process.env[NODE_VARIABLE];
  const redisFromEnv = process.env[REDIS_VARIABLE];
  delete process.env[API_KEYS_VARIABLE];
  delete process.env[REDIS_VARIABLE];
  if (!key)
    usageError(
      `${KEY_VARIABLE} is not set: the relayer's private key comes only from the environment`,
    );
  const nodeFile = one('node-file');
  const nodeUrl =
    (nodeFile !== undefined ? secretFile(nodeFile, 'node-file') : nodeFromEnv) ||
    usageError(`the node URL is required: set ${NODE_VARIABLE} or --node-file`);
  const relayer = one('relayer') ?? usageError('--relayer <account address> is required');
  const shownNode = shownOrigin(nodeUrl);
  const gasTokens = (options.get('gas-token') ?? []).map((spec) => {
    const [address, price, ...rest] = spec.split('=');
    if (!address || !price || rest.length > 0)
      usageError('--gas-token takes <address>=<price in STRK>');
    return { address, priceInStrk: price };
  });
  const keysFile = one('api-keys-file');
  const keysText = keysFile !== undefined ? secretFile(keysFile, 'api-keys-file') : apiKeysFromEnv;
  const apiKeys = (keysText ?? '')
    .split(/[\n,]/)
    .map((apiKey) => apiKey.trim())
    .filter((apiKey) => apiKey.length > 0);
  const redisFile = one('redis-url-file');
  const redisUrl =
    (redisFile !== undefined ? secretFile(redisFile, 'redis-url-file') : redisFromEnv) || undefined;
  const host = one('host') ?? '127.0.0.1';
  const port = integer(one('port'), 'port', 8090, 0, 65535);
  const running = await startPaymaster({
    nodeUrl,
    relayerAddress: relayer,
    relayerPrivateKey: key,
    apiKeys,
    gasTokens,
    feeMarginPercent: integer(one('fee-margin'), 'fee-margin', 20, 0, 1000),
    maxTip: BigInt(integer(one('max-tip'), 'max-tip', 1_000_000_000, 0, Number.MAX_SAFE_INTEGER)),
    sponsorDailyBudgetFri: strkAmount(one('sponsor-budget'), 'sponsor-budget', 100n * 10n ** 18n),
    minRelayerBalanceFri: strkAmount(one('min-balance'), 'min-balance', 10n ** 18n),
    rateLimitPerMinute: integer(one('rate-limit'), 'rate-limit', 120, 1, 1_000_000),
    stateFile: one('state-file') ?? 'l2-paymaster.sqlite',
    redisUrl,
    redisPrefix: one('redis-prefix'),
    turnLeaseMs: options.has('turn-lease')
      ? integer(one('turn-lease'), 'turn-lease', 150_000, 1000, 3_600_000)
      : undefined,
    maxValiditySeconds: integer(one('max-validity'), 'max-validity', 3600, 60, 86_400 * 7),
    nodeTimeoutMs: integer(one('node-timeout'), 'node-timeout', 10_000, 100, 600_000),
    host,
    port,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  const tokens = [...running.paymaster.context.tokens.values()].length;
  process.stdout.write(
    `l2-paymaster listening on ${running.url} (node ${shownNode}, relayer ${relayer}, ${tokens} gas token(s), ${apiKeys.length} sponsor key(s), state in ${redisUrl ? `Redis at ${redisWhere(redisUrl)}` : 'SQLite'})\n`,
  );
  closeOnSignals({ forceOnSecondSignal: true })(() => running.close());
}

main().catch((error: unknown) => {
  const message =
    error instanceof StartupError
      ? error.message
      : `could not start: ${(error as NodeJS.ErrnoException)?.code ?? (error as Error)?.message ?? 'unknown error'}`;
  process.stderr.write(`l2-paymaster: ${message}\n`);
  process.exit(1);
});
