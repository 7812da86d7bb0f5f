/**
 * Builds (once per source change) the loopback-only snap bundles the tests install:
 * - e2e (chain tests and the benchmark): Testnet RPC http://127.0.0.1:5059/rpc, explorer
 *   http://127.0.0.1:5059, node timeout 4 s;
 * - e2e-node (history tests and the history benchmark): the same node, the explorer at a closed
 *   port, so the history can only come from the node and snap state;
 * - offline (every other snaps-jest test): every network at a closed loopback port, so no test
 *   ever reaches a public node and none depends on a devnet that another test file started.
 * Mainnet points at the closed port in both. The folder holds what snaps-simulation installs from (manifest with a matching
 * shasum, dist/bundle.js, images/icon.svg, package.json) and lives under node_modules/.cache, so
 * the normal packages/snap/dist build is never touched.
 *
 * The build itself is @l2wallet/localstack's ensureSnapBuild (a lock for parallel jest workers,
 * a stamp of the sources to skip unchanged builds). `node build-e2e-snap.cjs` builds from the shell.
 */
const path = require('path');
const { ensureSnapBuild } = require('@l2wallet/localstack');

const SNAP_ROOT = path.resolve(__dirname, '../..');
const REPO_ROOT = path.resolve(SNAP_ROOT, '../..');
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache');
const E2E_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-snap-e2e');
const E2E_NODE_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-snap-e2e-node');
const OFFLINE_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-snap-offline');
const DEVNET_PORT = 5059;
/** Nothing listens on the discard port: a request is refused at once. */
const CLOSED_URL = 'http://127.0.0.1:9';
/** Short, so the slow-node test does not wait 20 s. */
const E2E_RPC_TIMEOUT_MS = '4000';

/** Builds the real snap with `env` into `dir` unless that build is up to date; returns `dir`. */
function buildVariant(dir, env) {
  return ensureSnapBuild({ snapRoot: SNAP_ROOT, dir, env });
}

const CLOSED_MAINNET = {
  SNAP_MAINNET_RPC_URL: `${CLOSED_URL}/rpc`,
  SNAP_MAINNET_EXPLORER_URL: CLOSED_URL,
};

/** The chain tests' bundle: Testnet is the devnet they start on DEVNET_PORT. */
function ensureE2eSnap() {
  const devnetUrl = `http://127.0.0.1:${DEVNET_PORT}`;
  return buildVariant(E2E_SNAP_DIR, {
    ...CLOSED_MAINNET,
    SNAP_TESTNET_RPC_URL: `${devnetUrl}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: devnetUrl,
    SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
  });
}

/** The history tests' bundle: Testnet's node is the devnet, its explorer a closed port. */
function ensureE2eNodeSnap() {
  return buildVariant(E2E_NODE_SNAP_DIR, {
    ...CLOSED_MAINNET,
    SNAP_TESTNET_RPC_URL: `http://127.0.0.1:${DEVNET_PORT}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: CLOSED_URL,
    SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
  });
}

/** Every other snaps-jest test's bundle: no network reachable at all. */
function ensureOfflineSnap() {
  return buildVariant(OFFLINE_SNAP_DIR, {
    ...CLOSED_MAINNET,
    SNAP_TESTNET_RPC_URL: `${CLOSED_URL}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: CLOSED_URL,
    SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
  });
}

module.exports = {
  ensureE2eSnap,
  ensureE2eNodeSnap,
  ensureOfflineSnap,
  E2E_SNAP_DIR,
  E2E_NODE_SNAP_DIR,
  OFFLINE_SNAP_DIR,
  DEVNET_PORT,
  E2E_RPC_TIMEOUT_MS,
};

if (require.main === module) {
  console.log(ensureE2eSnap());
  console.log(ensureE2eNodeSnap());
  console.log(ensureOfflineSnap());
}
