/**
 * Builds (once per source change) the loopback-only keyring snap the tests and the bench install:
 * the build-time chain (31337) points at the closed discard port, so no test reaches a node it
 * did not start; the chain tests point the chain at their own anvil and Alto with
 * keyring_setChainConfig. The folder holds what snaps-simulation installs from (manifest with a
 * matching shasum, dist/bundle.js, images/icon.svg, package.json) under node_modules/.cache, so
 * the package's own dist/ and snap.manifest.json are never touched.
 * The build is @l2wallet/localstack's ensureSnapBuild (lock for parallel workers, source stamp).
 */
const path = require('path');
const { ensureSnapBuild } = require('@l2wallet/localstack');

const SNAP_ROOT = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(SNAP_ROOT, '../..');
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache');
const TEST_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-keyring-snap-test');
const CLOSED_URL = 'http://127.0.0.1:9';
const TEST_ENV = {
  KEYRING_CHAIN_ID: '31337',
  KEYRING_RPC_URL: CLOSED_URL,
  KEYRING_BUNDLER_URL: CLOSED_URL,
  KEYRING_ENTRY_POINT: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  KEYRING_FACTORY: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
  KEYRING_PAYMASTER_URL: '',
};

/** Returns the folder of an up-to-date test build. */
function ensureTestSnap() {
  return ensureSnapBuild({ snapRoot: SNAP_ROOT, dir: TEST_SNAP_DIR, env: TEST_ENV });
}

module.exports = { ensureTestSnap, TEST_SNAP_DIR };

if (require.main === module) {
  console.log(ensureTestSnap());
}
