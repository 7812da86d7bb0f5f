#!/usr/bin/env node
/**
 * L2_PAYMASTER_RELAYER_KEY=<key> l2-paymaster --node <starknet rpc> --host <h> --port <p>
 *   --relayer <account address> [--api-key <k>]... [--gas-token <address>=<price in STRK>]...
 *
 * The relayer key comes only from the environment: it is read once, removed from the process's
 * environment, and never printed (nor is an API key or the node URL's path, which may hold a key).
 */
import { startPaymaster, StartupError } from './index';

const USAGE = `usage:
  L2_PAYMASTER_RELAYER_KEY=<key> l2-paymaster --node <starknet rpc url> --relayer <account address>
      [--host 127.0.0.1] [--port 8090] [--api-key <key>]... [--gas-token <address>=<price in STRK>]...
      [--fee-margin <percent, default 50>] [--max-validity <seconds, default 3600>]
      [--node-timeout <ms, default 10000>]`;

const KEY_VARIABLE = 'L2_PAYMASTER_RELAYER_KEY';
const REPEATABLE = new Set(['api-key', 'gas-token']);
const KNOWN = new Set([
  'node',
  'host',
  'port',
  'relayer',
  'fee-margin',
  'max-validity',
  'node-timeout',
  ...REPEATABLE,
]);

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

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const one = (name: string) => options.get(name)?.[0];
  const key = process.env[KEY_VARIABLE];
  delete process.env[KEY_VARIABLE];
  if (!key)
    usageError(
      `${KEY_VARIABLE} is not set: the relayer's private key comes only from the environment`,
    );
  const nodeUrl = one('node') ?? usageError('--node <starknet rpc url> is required');
  const relayer = one('relayer') ?? usageError('--relayer <account address> is required');
  const shownNode = shownOrigin(nodeUrl);
  const gasTokens = (options.get('gas-token') ?? []).map((spec) => {
    const [address, price, ...rest] = spec.split('=');
    if (!address || !price || rest.length > 0)
      usageError('--gas-token takes <address>=<price in STRK>');
    return { address, priceInStrk: price };
  });
  const apiKeys = options.get('api-key') ?? [];
  if (apiKeys.some((apiKey) => apiKey.length === 0)) usageError('--api-key must not be empty');
  const host = one('host') ?? '127.0.0.1';
  const port = integer(one('port'), 'port', 8090, 0, 65535);
  const running = await startPaymaster({
    nodeUrl,
    relayerAddress: relayer,
    relayerPrivateKey: key,
    apiKeys,
    gasTokens,
    feeMarginPercent: integer(one('fee-margin'), 'fee-margin', 20, 0, 1000),
    maxValiditySeconds: integer(one('max-validity'), 'max-validity', 3600, 60, 86_400 * 7),
    nodeTimeoutMs: integer(one('node-timeout'), 'node-timeout', 10_000, 100, 600_000),
    host,
    port,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  const tokens = [...running.paymaster.context.tokens.values()].length;
  process.stdout.write(
    `l2-paymaster listening on ${running.url} (node ${shownNode}, relayer ${relayer}, ${tokens} gas token(s), ${apiKeys.length} sponsor key(s))\n`,
  );
  const stop = () => {
    void running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message =
    error instanceof StartupError
      ? error.message
      : `could not start: ${(error as NodeJS.ErrnoException)?.code ?? (error as Error)?.message ?? 'unknown error'}`;
  process.stderr.write(`l2-paymaster: ${message}\n`);
  process.exit(1);
});
