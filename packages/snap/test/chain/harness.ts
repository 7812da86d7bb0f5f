/**
 * End-to-end harness of the chain tests: the real snap bundle built with Testnet pointed at
 * 127.0.0.1:5059 (build-e2e-snap.cjs), served from its own folder, and a packages/devnet
 * server that each test file starts on that port and stops in afterAll. Test files that need
 * the port at the same time wait for it (the bundle's URL is fixed at build time).
 *
 * Cross-checks read the devnet directly with starknet.js, never through the snap.
 */
import { installSnap } from '@metamask/snaps-jest';
import { readFile } from 'fs/promises';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { extname, join, normalize } from 'path';
import { RpcProvider } from 'starknet';

import { startDevnetServer, type DevnetServer } from '../../../devnet/src';

const builder = require('./build-e2e-snap.cjs') as {
  ensureE2eSnap: () => string;
  DEVNET_PORT: number;
  E2E_RPC_TIMEOUT_MS: string;
};

export const DEVNET_PORT = builder.DEVNET_PORT;
export const RPC_TIMEOUT_MS = Number(builder.E2E_RPC_TIMEOUT_MS);
export const TESTNET = '0x534e5f5345504f4c4941';
export const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
export const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
export const STRK_UNIT = 10n ** 18n;

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.js': 'application/javascript',
  '.svg': 'image/svg+xml',
};

export type SnapServer = { snapId: string; close: () => Promise<void> };

/** Serves the e2e snap folder on 127.0.0.1 (a random port) for snaps-simulation to install. */
export async function serveE2eSnap(): Promise<SnapServer> {
  const root = builder.ensureE2eSnap();
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (path.includes('..')) {
      res.writeHead(400).end();
      return;
    }
    readFile(join(root, path))
      .then((body) => {
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
          'access-control-allow-origin': '*',
        });
        res.end(body);
      })
      .catch(() => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    snapId: `local:http://127.0.0.1:${port}`,
    close: async () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Starts the devnet on 127.0.0.1:5059, waiting while another test file holds the port.
 */
export async function startChainDevnet(
  options: { blockTime?: number; seed?: number } = {},
): Promise<DevnetServer> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      return await startDevnetServer({
        host: '127.0.0.1',
        port: DEVNET_PORT,
        seed: options.seed ?? 0,
        accounts: 2,
        blockTime: options.blockTime ?? 0,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

export type Snap = Awaited<ReturnType<typeof installSnap>>;

export async function installChainSnap(snapId: string, srp?: string): Promise<Snap> {
  // snaps-jest brands SnapId with its own snaps-sdk copy; the string is what it needs.
  const id = snapId as never;
  return srp ? installSnap(id, { options: { secretRecoveryPhrase: srp } }) : installSnap(id);
}

export function provider(devnet: DevnetServer): RpcProvider {
  return new RpcProvider({ nodeUrl: devnet.rpcUrl });
}

export async function devnetRpc<T>(
  devnet: DevnetServer,
  method: string,
  params: unknown,
): Promise<T> {
  const response = await fetch(devnet.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) {
    throw new Error(`${method}: ${body.error.message}`);
  }
  return body.result as T;
}

export async function mintStrk(
  devnet: DevnetServer,
  address: string,
  amount: bigint,
): Promise<void> {
  await devnetRpc(devnet, 'devnet_mint', { address, amount: amount.toString(), unit: 'FRI' });
}

/** An ERC-20 balance read straight from the devnet with starknet.js (u256 [low, high]). */
export async function balanceOf(
  devnet: DevnetServer,
  token: string,
  address: string,
  blockIdentifier: 'latest' | 'pre_confirmed' = 'latest',
): Promise<bigint> {
  const result = await provider(devnet).callContract(
    { contractAddress: token, entrypoint: 'balance_of', calldata: [address] },
    blockIdentifier,
  );
  return BigInt(result[0]) + (BigInt(result[1] ?? 0) << 128n);
}

export async function isDeployed(devnet: DevnetServer, address: string): Promise<boolean> {
  try {
    await provider(devnet).getClassHashAt(address, 'latest');
    return true;
  } catch {
    return false;
  }
}

type DialogActions = { ok: () => Promise<void>; cancel: () => Promise<void>; content: unknown };
type Pending = ReturnType<Snap['request']>;

/** Waits for the request's confirmation dialog and returns it (content, ok, cancel). */
export async function dialogOf(pending: Pending): Promise<DialogActions> {
  return (await pending.getInterface()) as unknown as DialogActions;
}

export async function approve(pending: Pending): Promise<Awaited<Pending>> {
  await (await dialogOf(pending)).ok();
  return pending;
}

export async function decline(pending: Pending): Promise<Awaited<Pending>> {
  await (await dialogOf(pending)).cancel();
  return pending;
}

/** Starknet JSON-RPC calls the devnet answered since the last reset, by method. */
export function rpcCalls(devnet: DevnetServer): Record<string, number> {
  return { ...devnet.metrics.rpcCalls };
}

export function submissions(devnet: DevnetServer): number {
  const calls = devnet.metrics.rpcCalls;
  return (
    (calls.starknet_addInvokeTransaction ?? 0) +
    (calls.starknet_addDeployAccountTransaction ?? 0) +
    (calls.starknet_addDeclareTransaction ?? 0)
  );
}
