/**
 * The loopback-only keyring snap the tests and the bench install: the build-time chain (31337)
 * points at the closed discard port, so no test reaches a node it did not start; the chain tests
 * point the chain at their own anvil and Alto with keyring_setChainConfig. The build is the
 * testkit's cached snap builder (keyed by these variables, rebuilt when the sources change), so
 * the package's own dist/ and snap.manifest.json are never touched.
 */
const path = require('path');
const { ANVIL_CHAIN_ID, CLOSED_URL, ensureSnapBuild, snapBuildDir } = require('@l2wallet/testkit');

const TEST_BUILD = {
  snapRoot: path.resolve(__dirname, '../..'),
  env: {
    KEYRING_CHAIN_ID: String(ANVIL_CHAIN_ID),
    KEYRING_RPC_URL: CLOSED_URL,
    KEYRING_BUNDLER_URL: CLOSED_URL,
    KEYRING_ENTRY_POINT: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    KEYRING_FACTORY: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
    KEYRING_PAYMASTER_URL: '',
    // Short enough that the test of a node hanging mid-answer stays quick.
    KEYRING_RPC_TIMEOUT_MS: '8000',
  },
};
const TEST_SNAP_DIR = snapBuildDir(TEST_BUILD);

/** Returns the folder of an up-to-date test build. */
function ensureTestSnap() {
  return ensureSnapBuild(TEST_BUILD);
}

module.exports = { ensureTestSnap, TEST_SNAP_DIR };

if (require.main === module) {
  console.log(ensureTestSnap());
}
