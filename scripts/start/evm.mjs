// `npm start`, EVM side (issue 10): on the anvil that start.mjs runs, deploy the ERC-4337 v0.6
// contracts, start Alto (loopback, its addresses funded), our ERC-7677 paymaster service, and
// the keyring snap's dev server built against them. Alto and the paymaster come from
// @l2wallet/localstack, the same code the tests and bench use.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export const BUNDLER_PORT = Number(process.env.BUNDLER_PORT ?? 4337);
export const PAYMASTER_PORT = Number(process.env.PAYMASTER_PORT ?? 4338);
export const KEYRING_SNAP_PORT = 8086; // packages/keyring-snap/snap.config.ts server.port

/**
 * Starts the stack; `start` and `log` are start.mjs's helpers. Returns the lines to print, or
 * null after `onFailure` (which stops everything).
 */
export async function startEvmStack({ root, anvilUrl, start, log, onFailure }) {
  const localstack = require('@l2wallet/localstack');
  for (const port of [BUNDLER_PORT, PAYMASTER_PORT, KEYRING_SNAP_PORT]) {
    if (await localstack.portAnswers(port)) {
      log(`port ${port} is already in use; stop whatever holds it and retry.`);
      onFailure();
      return null;
    }
  }
  let contracts;
  let alto;
  let paymaster;
  try {
    contracts = await localstack.deployAccountAbstraction(anvilUrl);
    log(`ERC-4337 v0.6: EntryPoint ${contracts.entryPoint}, factory ${contracts.factory}`);
    alto = await localstack.startAlto({
      rpcUrl: anvilUrl,
      entryPoint: contracts.entryPoint,
      port: BUNDLER_PORT,
    });
    log(`Alto bundler is up at ${alto.url}`);
    paymaster = await localstack.startPaymasterService({
      rpcUrl: anvilUrl,
      entryPoint: contracts.entryPoint,
      paymaster: contracts.paymaster,
      chainId: contracts.chainId,
      signerKey: contracts.paymasterSignerKey,
      port: PAYMASTER_PORT,
    });
    log(`paymaster service (ERC-7677) is up at ${paymaster.url}`);
  } catch (error) {
    log(`EVM stack failed: ${error instanceof Error ? error.message : String(error)}`);
    onFailure();
    return null;
  }
  const snapEnv = {
    KEYRING_CHAIN_ID: String(contracts.chainId),
    KEYRING_RPC_URL: anvilUrl,
    KEYRING_BUNDLER_URL: alto.url,
    KEYRING_ENTRY_POINT: contracts.entryPoint,
    KEYRING_FACTORY: contracts.factory,
    KEYRING_PAYMASTER_URL: paymaster.url,
  };
  start('keyring-snap', path.join(root, 'node_modules', '.bin', 'mm-snap'), ['watch'], {
    cwd: path.join(root, 'packages/keyring-snap'),
    env: snapEnv,
  });
  return {
    snapId: `local:http://localhost:${KEYRING_SNAP_PORT}`,
    lines: [
      `    bundler (Alto)    ${alto.url}   (EntryPoint v0.6 ${contracts.entryPoint})`,
      `    paymaster         ${paymaster.url}   (ERC-7677, VerifyingPaymaster ${contracts.paymaster})`,
      `    keyring snap      http://localhost:${KEYRING_SNAP_PORT}   (snap id local:http://localhost:${KEYRING_SNAP_PORT})`,
      '    EVM accounts      http://localhost:8000/evm/   (the keyring snap in the site)',
    ],
  };
}
