/**
 * The loopback-only snap bundles the tests install: variants of one cached build of the snap
 * (the testkit's snapVariant: the build is rebuilt only when the snap's sources change, and a
 * variant for another node URL takes milliseconds, so every chain test file has its own devnet
 * on its own port):
 * - e2e (chain tests and the benchmark): Testnet's node and explorer are a devnet
 *   (http://127.0.0.1:5059 unless `devnetUrl` says otherwise), node timeout 4 s;
 * - e2e-node (history tests and the history benchmark): the same node, the explorer at a closed
 *   port, so the history can only come from the node and snap state;
 * - offline (every other snaps-jest test): every network at a closed loopback port, so no test
 *   ever reaches a public node and none depends on a devnet that another test file started.
 * Mainnet points at the closed port in all of them. `node build-e2e-snap.cjs` builds from the shell.
 */
const path = require('path');
const { CLOSED_URL, LOOPBACK, snapVariant, snapVariantDir } = require('@l2wallet/testkit');

const SNAP_ROOT = path.resolve(__dirname, '../..');
const DEVNET_PORT = 5059;
/** Short, so the slow-node test does not wait 20 s. */
const E2E_RPC_TIMEOUT_MS = '4000';

/** The build variables of a loopback test bundle: Testnet at `rpcUrl` / `explorerUrl`. */
function testBuild(rpcUrl, explorerUrl) {
  return {
    snapRoot: SNAP_ROOT,
    env: {
      SNAP_MAINNET_RPC_URL: `${CLOSED_URL}/rpc`,
      SNAP_MAINNET_EXPLORER_URL: CLOSED_URL,
      SNAP_TESTNET_RPC_URL: rpcUrl,
      SNAP_TESTNET_EXPLORER_URL: explorerUrl,
      SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
    },
  };
}

/** The chain tests' bundle: Testnet is the devnet at `devnetUrl`; resolves to its folder. */
function ensureE2eSnap(devnetUrl = `http://${LOOPBACK}:${DEVNET_PORT}`) {
  return snapVariant(testBuild(`${devnetUrl}/rpc`, devnetUrl));
}

/** The history tests' bundle: Testnet's node is the devnet, its explorer a closed port. */
function ensureE2eNodeSnap(devnetUrl = `http://${LOOPBACK}:${DEVNET_PORT}`) {
  return snapVariant(testBuild(`${devnetUrl}/rpc`, CLOSED_URL));
}

const OFFLINE_BUILD = testBuild(`${CLOSED_URL}/rpc`, CLOSED_URL);
/** What snaps-jest's own server serves (jest.config.js): known before the build runs. */
const OFFLINE_SNAP_DIR = snapVariantDir(OFFLINE_BUILD);

/** Every other snaps-jest test's bundle: no network reachable at all. */
function ensureOfflineSnap() {
  return snapVariant(OFFLINE_BUILD);
}

module.exports = {
  ensureE2eSnap,
  ensureE2eNodeSnap,
  ensureOfflineSnap,
  OFFLINE_SNAP_DIR,
  DEVNET_PORT,
  E2E_RPC_TIMEOUT_MS,
};

if (require.main === module) {
  (async () => {
    console.log(await ensureE2eSnap());
    console.log(await ensureE2eNodeSnap());
    console.log(await ensureOfflineSnap());
  })().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
