/**
 * packages/gateway as its users run it: the built CLI (dist/cli.js) writing keys into a config's
 * ledger and serving on 127.0.0.1. One way to "write a config, create a key, serve".
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { LOOPBACK, REPO_ROOT } from '../constants';
import { freePort, spawnService, type Service } from '../processes';

export const GATEWAY_DIR = path.join(REPO_ROOT, 'packages/gateway');
export const GATEWAY_CLI = path.join(GATEWAY_DIR, 'dist/cli.js');

/** Builds packages/gateway's dist when it is missing (the root `npm test` builds it first). */
export function ensureGatewayBuilt(): string {
  if (!existsSync(GATEWAY_CLI)) {
    execFileSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: GATEWAY_DIR,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  }
  return GATEWAY_CLI;
}

/** A config as the gateway's CLI reads it (see packages/gateway/README.md). */
export type GatewayConfigFile = object;

/**
 * The smallest config in front of one upstream: one chain for every Host, a SQLite ledger next
 * to the config; `extra` adds or replaces top-level members.
 */
export function gatewayConfig(upstream: string, extra: GatewayConfigFile = {}): GatewayConfigFile {
  return {
    listen: { host: LOOPBACK, port: 1 },
    ledger: { sqlite: 'gateway.db' },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [upstream] }],
    ...extra,
  };
}

/** Writes `config` as `name` in `dir` (made if missing); returns the file. */
export function writeGatewayConfig(
  dir: string,
  config: GatewayConfigFile,
  name = 'gateway.json',
): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * Runs the gateway's CLI with `args`: `input` is written to its stdin (which is closed either
 * way), `env` is added to its environment, and `beforeInput` runs with its pid before the input
 * is written (to look at the running process, as `ps` would).
 */
export function gatewayCli(
  args: string[],
  options: {
    input?: string;
    env?: Record<string, string>;
    beforeInput?: (pid: number) => Promise<void> | void;
  } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [ensureGatewayBuilt(), ...args],
      { env: { ...process.env, ...options.env } },
      (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
    );
    child.stdin?.on('error', () => undefined); // a CLI that exits before reading its input
    const feed = async () => {
      if (options.beforeInput && child.pid !== undefined) await options.beforeInput(child.pid);
      child.stdin?.end(options.input ?? '');
    };
    feed().catch((error: unknown) => {
      child.kill('SIGKILL');
      reject(error);
    });
  });
}

/** `keys create` on the config's ledger (default plan team); returns the new key. */
export async function createGatewayKey(
  configFile: string,
  options: string[] = ['--plan', 'team'],
): Promise<string> {
  const { stdout } = await gatewayCli(['keys', 'create', '--config', configFile, ...options]);
  // The key's line: alone, or labelled `key:` when a secret was printed before it.
  return (stdout.trim().split('\n').at(-1) as string).replace(/^key:\s*/, '');
}

export interface GatewayProcess extends Service {
  port: number;
  url: string;
}

/**
 * `serve` with the config on 127.0.0.1 (a free port unless `port`), ready when it listens;
 * `nodeArgs` go to node before the CLI (e.g. `--inspect=127.0.0.1:0`).
 */
export async function serveGateway(
  configFile: string,
  options: { port?: number; name?: string; nodeArgs?: string[] } = {},
): Promise<GatewayProcess> {
  const port = options.port ?? (await freePort());
  const service = await spawnService({
    name: options.name ?? 'l2-gateway',
    command: process.execPath,
    args: [
      ...(options.nodeArgs ?? []),
      ensureGatewayBuilt(),
      'serve',
      '--config',
      configFile,
      '--host',
      LOOPBACK,
      '--port',
      String(port),
    ],
    // Not the inspector's "Debugger listening on ws://…".
    readyLine: /l2-gateway listening on http/,
    timeoutMs: 30_000,
  });
  return { ...service, port, url: `http://${LOOPBACK}:${port}` };
}

export interface GatewayWithKey {
  gateway: GatewayProcess;
  /** The gateway's base URL, and the keyed JSON-RPC endpoint `${url}/v3/${key}`. */
  url: string;
  rpcUrl: string;
  key: string;
  configFile: string;
  stop(): Promise<void>;
}

/**
 * A gateway process in front of `upstream` with one key: the config written into `dir` (a new
 * temporary folder by default), `keyOptions` for `keys create` (default the team plan).
 */
export async function startGatewayWithKey(options: {
  upstream: string;
  config?: GatewayConfigFile;
  dir?: string;
  keyOptions?: string[];
  port?: number;
  name?: string;
}): Promise<GatewayWithKey> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'l2-gateway-'));
  const configFile = writeGatewayConfig(
    dir,
    gatewayConfig(options.upstream, options.config),
    `${options.name ?? 'gateway'}.json`,
  );
  const key = await createGatewayKey(configFile, options.keyOptions);
  const gateway = await serveGateway(configFile, { port: options.port, name: options.name });
  return {
    gateway,
    url: gateway.url,
    rpcUrl: `${gateway.url}/v3/${key}`,
    key,
    configFile,
    stop: () => gateway.stop(),
  };
}
