/**
 * End-to-end harness of the chain tests: the real snap bundle built with Testnet pointed at
 * 127.0.0.1:5059 (build-e2e-snap.cjs), served from its own folder, and a packages/devnet
 * server that each test file starts on that port and stops in afterAll. Test files that need
 * the port at the same time wait for it (the bundle's URL is fixed at build time).
 *
 * Cross-checks read the devnet directly with starknet.js, never through the snap.
 */
import { installSnap } from '@metamask/snaps-jest';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { readFile } from 'fs/promises';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { dirname, extname, join, normalize } from 'path';
import { RpcProvider } from 'starknet';

import { startDevnetServer, type DevnetServer } from '@l2wallet/devnet';

export type { DevnetServer };

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

const PORT_LOCK = join(__dirname, '../../../../node_modules/.cache/l2wallet-devnet-5059.lock');
let portLockHeld = false;

function lockOwnerAlive(): boolean {
  try {
    const pid = Number(readFileSync(join(PORT_LOCK, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Port 5059 belongs to one test file at a time, for its whole run (a file that kills and
 * restarts its devnet keeps it): a lock directory holding the owner's pid, taken in beforeAll
 * and given back by closeChainDevnet. A lock whose process is gone is taken over.
 */
async function claimDevnetPort(deadline: number): Promise<void> {
  if (portLockHeld) {
    return;
  }
  mkdirSync(dirname(PORT_LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(PORT_LOCK);
      writeFileSync(join(PORT_LOCK, 'pid'), String(process.pid));
      portLockHeld = true;
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
      const age = Date.now() - statSync(PORT_LOCK).mtimeMs;
      if (age > 2_000 && !lockOwnerAlive()) {
        rmSync(PORT_LOCK, { recursive: true, force: true });
      } else if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${PORT_LOCK}`);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

/** Starts the devnet on 127.0.0.1:5059 (waiting while another test file owns the port). */
export async function startChainDevnet(
  options: { blockTime?: number; seed?: number } = {},
): Promise<DevnetServer> {
  const deadline = Date.now() + 280_000;
  await claimDevnetPort(deadline);
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
      // Something outside these tests may still hold the port for a moment.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

/** Stops the file's devnet and gives port 5059 to the next test file. */
export async function closeChainDevnet(devnet: DevnetServer | undefined): Promise<void> {
  try {
    await devnet?.close();
  } finally {
    if (portLockHeld) {
      rmSync(PORT_LOCK, { recursive: true, force: true });
      portLockHeld = false;
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
