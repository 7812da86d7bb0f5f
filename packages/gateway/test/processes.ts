/** The built CLI (dist/cli.js) as real processes: `keys ...` runs and `serve` services. */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, type Service, spawnService } from '@l2wallet/localstack';
import type { GatewayConfig } from '../src/config';

const run = promisify(execFile);
export const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

/** Builds dist/ when it is missing (the root `npm test` builds it before jest). */
export async function ensureBuilt(): Promise<void> {
  if (existsSync(CLI)) return;
  await run('npx', ['tsc', '-p', path.join(__dirname, '..', 'tsconfig.build.json')]);
}

export async function cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args]);
}

export function writeConfig(dir: string, config: GatewayConfig, name = 'gateway.json'): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

export async function createKey(configFile: string, extra: string[] = []): Promise<string> {
  const { stdout } = await cli(['keys', 'create', '--config', configFile, ...extra]);
  return stdout.trim().split('\n').at(-1)!;
}

export async function serve(configFile: string): Promise<Service & { url: string; port: number }> {
  const port = await freePort();
  const service = await spawnService({
    name: 'l2-gateway',
    command: process.execPath,
    args: [CLI, 'serve', '--config', configFile, '--host', '127.0.0.1', '--port', String(port)],
    readyLine: /listening on/,
    timeoutMs: 30_000,
  });
  return { ...service, port, url: `http://127.0.0.1:${port}` };
}
