import path from 'node:path';

import { LOOPBACK } from '../constants';
import { freePort, spawnService, type Service } from '../processes';

export interface AnvilService extends Service {
  port: number;
  url: string;
  wsUrl: string;
}

/**
 * The anvil binary inside @foundry-rs/anvil-linux-amd64, spawned directly so its PID is the
 * node's. We depend on that package rather than the @foundry-rs/anvil wrapper: the registry
 * mirror here lacks the wrapper's other-platform packages, which makes `npm ci` refuse the lock.
 */
export function anvilBinary(): string {
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return path.join(path.dirname(pkg), 'bin', 'anvil');
}

/**
 * A real anvil on 127.0.0.1. `args` adds flags (for example ['--block-time', '1'],
 * ['--dump-state', file] or ['--load-state', file]).
 */
export async function startAnvil(
  options: { port?: number; args?: string[]; timeoutMs?: number } = {},
): Promise<AnvilService> {
  const port = options.port ?? (await freePort());
  const service = await spawnService({
    name: 'anvil',
    command: anvilBinary(),
    args: ['--host', LOOPBACK, '--port', String(port), ...(options.args ?? [])],
    readyLine: /Listening on/,
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  return {
    ...service,
    port,
    url: `http://${LOOPBACK}:${port}`,
    wsUrl: `ws://${LOOPBACK}:${port}`,
  };
}
