/**
 * Pimlico's Alto bundler (0.0.20, from npm) in front of an anvil, kept on loopback by
 * alto-loopback.cjs, with the addresses it sends from funded.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import type { Hex } from 'viem';

import { ANVIL_ACCOUNTS, LOOPBACK } from '../constants';
import { rpc } from '../jsonRpc';
import { freePort, spawnService, type Service } from '../processes';

/** Alto's CLI script (its package exports no subpaths, so it is found on the module paths). */
function altoEntry(): string {
  for (const dir of require.resolve.paths('@pimlico/alto') ?? []) {
    const entry = path.join(dir, '@pimlico/alto/esm/cli/alto.js');
    if (existsSync(entry)) return entry;
  }
  throw new Error('@pimlico/alto is not installed (npm install at the repository root)');
}

/** Addresses Alto logs (its simulations deployer, its executors): they need ETH on anvil. */
export function altoAddresses(output: string): string[] {
  return [...new Set(output.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? [])];
}

async function fund(rpcUrl: string, addresses: string[], wei: bigint): Promise<void> {
  for (const address of addresses) {
    const code = await rpc<string>(rpcUrl, 'eth_getCode', [address, 'latest']);
    if (code === '0x') {
      await rpc(rpcUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
    }
  }
}

export interface AltoService extends Service {
  port: number;
  /** JSON-RPC endpoint (`/rpc`). */
  url: string;
}

/**
 * Alto 0.0.20 against `rpcUrl` (an anvil), bound to 127.0.0.1 through alto-loopback.cjs. Its
 * executor is anvil's second dev account; every address it logs (its own deployer and
 * executors) is funded with anvil_setBalance before and after it is ready.
 */
export async function startAlto(options: {
  rpcUrl: string;
  entryPoint: string;
  port?: number;
  executorKey?: Hex;
  args?: string[];
  timeoutMs?: number;
}): Promise<AltoService> {
  const { rpcUrl, entryPoint } = options;
  const port = options.port ?? (await freePort());
  const executorKey = options.executorKey ?? ANVIL_ACCOUNTS[1].privateKey;
  const hundredEth = 10n ** 20n;
  await fund(rpcUrl, ['0x145F196d7377530e84a2fF135797c6b59940D6BE'], hundredEth);
  const service = await spawnService({
    name: 'alto',
    command: process.execPath,
    args: [
      '-r',
      path.join(__dirname, '..', '..', 'alto-loopback.cjs'),
      altoEntry(),
      '--entrypoints',
      entryPoint,
      '--executor-private-keys',
      executorKey,
      '--utility-private-key',
      executorKey,
      '--rpc-url',
      rpcUrl,
      '--port',
      String(port),
      '--safe-mode',
      'false',
      '--log-level',
      'info',
      ...(options.args ?? []),
    ],
    readyPort: port,
    timeoutMs: options.timeoutMs ?? 90_000,
  });
  await fund(rpcUrl, altoAddresses(service.output()), hundredEth);
  return { ...service, port, url: `http://${LOOPBACK}:${port}/rpc` };
}
