// Shared by the snap benches: building what a bench needs, serving a snap folder read-only on
// loopback, and installing the served snap in @metamask/snaps-simulation outside jest.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

import { installSnap } from '@metamask/snaps-simulation';
import { NodeThreadExecutionService } from '@metamask/snaps-controllers/node';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `npm run build -w <workspace>` when `file` is missing; exits the bench if that fails. */
export function buildIfMissing(file, workspace) {
  if (existsSync(file)) {
    return;
  }
  const build = spawnSync('npm', ['run', 'build', '-w', workspace], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    process.exit(1);
  }
}

/** Listens on 127.0.0.1:`port` (0: a free port); resolves with the server. */
export function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const TYPES = { '.json': 'application/json', '.js': 'text/javascript', '.svg': 'image/svg+xml' };

/** Serves the snap folder `dir` read-only on 127.0.0.1 (a free port). */
export function serveSnapFolder(dir) {
  return listen(
    createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
      const file = join(dir, path);
      if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    }),
    0,
  );
}

/**
 * Installs the snap that `server` (from serveSnapFolder) serves, in Node worker threads.
 * `options` are snaps-simulation's (e.g. `state`, see grantedSnapState).
 */
export function installServedSnap(server, options) {
  return installSnap(`local:http://127.0.0.1:${server.address().port}`, {
    executionService: NodeThreadExecutionService,
    ...(options ? { options } : {}),
  });
}

/** The origin snaps-simulation sends requests from when none is given. */
export const SIMULATION_ORIGIN = 'https://metamask.io';

/**
 * Starknet snap state (schema 2) in which the simulation's origin was already granted account
 * indexes 0..count-1, as if the user had approved those grant dialogs: the benches measure the
 * methods, not the grant dialog (packages/snap/src/sites/grants.ts).
 */
export function grantedSnapState(count = 32) {
  return {
    version: 2,
    currentChainId: '0x534e5f5345504f4c4941',
    accounts: {},
    transactions: {},
    erc20Tokens: {},
    grants: {
      [SIMULATION_ORIGIN]: {
        origin: SIMULATION_ORIGIN,
        grantedAt: 0,
        addressIndexes: Array.from({ length: count }, (_, index) => index),
      },
    },
  };
}
