// Shared by the snap benches: building what a bench needs, and serving a snap folder and
// installing it in @metamask/snaps-simulation outside jest (both through @l2wallet/testkit).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { installSimulatedSnap, runCommand, serveSnap, STARKNET_TESTNET } from '@l2wallet/testkit';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `npm run build -w <workspace>` when `file` is missing; exits the bench if that fails. */
export async function buildIfMissing(file, workspace) {
  if (existsSync(file)) {
    return;
  }
  try {
    await runCommand('npm', ['run', 'build', '-w', workspace], { cwd: ROOT });
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

/** Serves the snap folder `dir` read-only on 127.0.0.1 (a free port); `close()` stops it. */
export function serveSnapFolder(dir) {
  return serveSnap(dir);
}

/**
 * Installs the snap that `server` (from serveSnapFolder) serves, in Node worker threads.
 * `options` are snaps-simulation's (e.g. `state`, see grantedSnapState).
 */
export function installServedSnap(server, options) {
  return installSimulatedSnap(server.snapId, options);
}

/** The origin snaps-simulation sends requests from when none is given. */
export const SIMULATION_ORIGIN = 'https://metamask.io';

/**
 * Starknet snap state (schema 2) in which the simulation's origin was already granted account
 * indexes 0..count-1, as if the user had approved those grant dialogs: the benches measure the
 * methods, not the grant dialog (packages/snap/src/flows/grants.ts).
 */
export function grantedSnapState(count = 32) {
  return {
    version: 2,
    currentChainId: STARKNET_TESTNET,
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
