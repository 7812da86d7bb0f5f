/**
 * The loopback-only snap bundles the tests install (offline, e2e, e2e-node): variants of one
 * cached build of the snap (the testkit's snapVariant), so every chain test file has its own
 * devnet on its own port and no test ever reaches a public node. What each variant points at:
 * docs/testing.md#the-starknet-snap-packagessnaptest. `node build-e2e-snap.cjs` builds from the
 * shell.
 */
const {
  CLOSED_URL,
  LOOPBACK,
  snapVariant,
  snapVariantDir,
  starknetSnapBuild,
  TEST_SNAP_RPC_TIMEOUT_MS,
} = require('@l2wallet/testkit');

const DEVNET_PORT = 5059;
/** The test builds' node timeout (4 s, not the snap's default 20 s). */
const E2E_RPC_TIMEOUT_MS = String(TEST_SNAP_RPC_TIMEOUT_MS);

/**
 * A loopback test bundle: Testnet at `rpcUrl` / `explorerUrl` / `paymasterUrl` (a closed port
 * unless given), Mainnet at a closed port.
 */
function testBuild(rpcUrl, explorerUrl, timeoutMs = E2E_RPC_TIMEOUT_MS, paymasterUrl = undefined) {
  return starknetSnapBuild(
    { rpcUrl, explorerUrl, paymasterUrl },
    { SNAP_RPC_TIMEOUT_MS: String(timeoutMs) },
  );
}

/**
 * The chain tests' bundle: Testnet is the devnet at `devnetUrl`; resolves to its folder.
 * `timeoutMs` replaces the 4 s node timeout and `paymasterUrl` names Testnet's SNIP-29 paymaster
 * (the same build: a variant, made in milliseconds).
 */
function ensureE2eSnap(
  devnetUrl = `http://${LOOPBACK}:${DEVNET_PORT}`,
  { timeoutMs, paymasterUrl } = {},
) {
  return snapVariant(testBuild(`${devnetUrl}/rpc`, devnetUrl, timeoutMs, paymasterUrl));
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
