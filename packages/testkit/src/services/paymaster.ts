/**
 * packages/paymaster as its users run it: the built `l2-paymaster` CLI (dist/cli.js) on
 * 127.0.0.1 in front of a Starknet node, the relayer key in its environment only.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { newestMtime, tryLock } from '../builds/cacheFolders';
import { LOOPBACK, REPO_ROOT } from '../constants';
import { rpc } from '../jsonRpc';
import { runCommand, spawnService, type Service } from '../processes';

export const PAYMASTER_DIR = path.join(REPO_ROOT, 'packages/paymaster');
export const PAYMASTER_CLI = path.join(PAYMASTER_DIR, 'dist/cli.js');
const BUILD_LOCK = path.join(REPO_ROOT, 'node_modules/.cache/l2wallet-paymaster-build.lock');

/**
 * The paymaster's dist, built when missing or older than its sources (`npm test` builds it first;
 * parallel test files wait for one build under a lock).
 */
export async function ensurePaymasterBuilt(): Promise<string> {
  const fresh = () =>
    existsSync(PAYMASTER_CLI) &&
    statSync(PAYMASTER_CLI).mtimeMs >= newestMtime(path.join(PAYMASTER_DIR, 'src'));
  if (fresh()) return PAYMASTER_CLI;
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  while (!tryLock(BUILD_LOCK, 120_000)) await new Promise((resolve) => setTimeout(resolve, 250));
  try {
    if (!fresh()) {
      await runCommand(
        process.execPath,
        [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        { cwd: PAYMASTER_DIR },
      );
    }
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
  return PAYMASTER_CLI;
}

export interface PaymasterProcess extends Service {
  url: string;
  port: number;
}

export interface StartPaymasterOptions {
  /** The Starknet node's JSON-RPC URL. */
  nodeUrl: string;
  /** The relayer account: its address, and its key (passed in the environment). */
  relayer: { address: string; privateKey: string };
  /** Sponsor keys (L2_PAYMASTER_API_KEYS in its environment). */
  apiKeys?: string[];
  /** `--gas-token <address>=<price in STRK>`. */
  gasTokens?: { address: string; priceInStrk: string }[];
  /** 0 or absent: a free port (the one it binds is read from its output). */
  port?: number;
  /** More CLI options (`--fee-margin 20`, ...). */
  args?: string[];
  /** `--state-file` (default `:memory:`: a test's paymaster leaves no file behind). */
  stateFile?: string;
  /** Redis for the state and rate limits (L2_PAYMASTER_REDIS_URL in its environment). */
  redisUrl?: string;
  /** `--rate-limit` (default 100000 a minute: tests and benchmarks all come from 127.0.0.1). */
  rateLimit?: number;
  name?: string;
  /** Each output line, e.g. to show it on a terminal. */
  echo?: (line: string) => void;
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/**
 * The command line of `l2-paymaster` for these options, for startPaymaster and for `npm start`,
 * which runs it among its own services. The secrets (the relayer key, the node URL, the sponsor
 * keys) go in `env`, never in `args`.
 */
export function paymasterCommand(
  cli: string,
  options: Omit<StartPaymasterOptions, 'name' | 'echo' | 'onExit'>,
): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [
      cli,
      '--relayer',
      options.relayer.address,
      '--host',
      LOOPBACK,
      '--port',
      String(options.port ?? 0),
      '--state-file',
      options.stateFile ?? ':memory:',
      '--rate-limit',
      String(options.rateLimit ?? 100_000),
      ...(options.gasTokens ?? []).flatMap((token) => [
        '--gas-token',
        `${token.address}=${token.priceInStrk}`,
      ]),
      ...(options.args ?? []),
    ],
    env: {
      L2_PAYMASTER_RELAYER_KEY: options.relayer.privateKey,
      L2_PAYMASTER_NODE_URL: options.nodeUrl,
      ...(options.apiKeys?.length && { L2_PAYMASTER_API_KEYS: options.apiKeys.join(',') }),
      ...(options.redisUrl && { L2_PAYMASTER_REDIS_URL: options.redisUrl }),
    },
  };
}

/** Starts `l2-paymaster`; ready once it prints the URL it listens on. */
export async function startPaymaster(options: StartPaymasterOptions): Promise<PaymasterProcess> {
  const service = await spawnService({
    name: options.name ?? 'l2-paymaster',
    ...paymasterCommand(await ensurePaymasterBuilt(), options),
    readyLine: /l2-paymaster listening on http/,
    timeoutMs: 60_000,
    echo: options.echo,
    onExit: options.onExit,
  });
  const url = /l2-paymaster listening on (http:\/\/\S+)/.exec(service.output())![1];
  return { ...service, port: Number(new URL(url).port), url };
}

export type DevnetPaymaster = PaymasterProcess & { relayer: { address: string } };

/**
 * The relayer of a paymaster in front of a devnet: the devnet's last predeployed account (the
 * others stay free for the users of a test or of `npm start`), with its key.
 */
export async function devnetRelayer(
  devnetRpcUrl: string,
): Promise<{ address: string; privateKey: string }> {
  const accounts = await rpc<{ address: string; private_key: string }[]>(
    devnetRpcUrl,
    'devnet_getPredeployedAccounts',
    {},
  );
  const relayer = accounts[accounts.length - 1];
  return { address: relayer.address, privateKey: relayer.private_key };
}

/**
 * The paymaster in front of a devnet as `npm start` runs it: its relayer is devnetRelayer's.
 * `nodeUrl` is the node the paymaster talks to when not `devnetRpcUrl` itself (a counting proxy
 * in front of it, say).
 */
export async function startDevnetPaymaster(
  devnetRpcUrl: string,
  options: Omit<StartPaymasterOptions, 'relayer' | 'nodeUrl'> & { nodeUrl?: string } = {},
): Promise<DevnetPaymaster> {
  const relayer = await devnetRelayer(devnetRpcUrl);
  const paymaster = await startPaymaster({
    ...options,
    nodeUrl: options.nodeUrl ?? devnetRpcUrl,
    relayer,
  });
  return { ...paymaster, relayer: { address: relayer.address } };
}
