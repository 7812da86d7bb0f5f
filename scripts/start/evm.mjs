// `npm start`, EVM side (docs/architecture/keyring-snap.md): on the anvil that start.mjs runs,
// deploy the ERC-4337 v0.6 contracts, start Alto (loopback, its addresses funded), our ERC-7677
// paymaster service, and the keyring snap's dev server built against them. Alto and the paymaster
// come from @l2wallet/testkit, the same code the tests and bench use.
import path from 'node:path';

import { portAnswers, startAccountAbstractionStack } from '@l2wallet/testkit';

export const BUNDLER_PORT = Number(process.env.BUNDLER_PORT ?? 4337);
export const PAYMASTER_PORT = Number(process.env.PAYMASTER_PORT ?? 4338);
export const KEYRING_SNAP_PORT = 8086; // packages/keyring-snap/snap.config.ts server.port

/**
 * Starts the stack; `start` and `log` are start.mjs's helpers. Returns the lines to print, or
 * null after `onFailure` (which stops everything).
 */
export async function startEvmStack({ root, anvilUrl, start, log, onFailure }) {
  for (const port of [BUNDLER_PORT, PAYMASTER_PORT, KEYRING_SNAP_PORT]) {
    if (await portAnswers(port)) {
      log(`port ${port} is already in use; stop whatever holds it and retry.`);
      onFailure();
      return null;
    }
  }
  let stack;
  try {
    stack = await startAccountAbstractionStack({
      anvilUrl,
      bundlerPort: BUNDLER_PORT,
      paymasterPort: PAYMASTER_PORT,
    });
  } catch (error) {
    log(`EVM stack failed: ${error instanceof Error ? error.message : String(error)}`);
    onFailure();
    return null;
  }
  const { contracts, alto, paymaster } = stack;
  log(`ERC-4337 v0.6: EntryPoint ${contracts.entryPoint}, factory ${contracts.factory}`);
  log(`Alto bundler is up at ${alto.url}`);
  log(`paymaster service (ERC-7677) is up at ${paymaster.url}`);
  start('keyring-snap', path.join(root, 'node_modules', '.bin', 'mm-snap'), ['watch'], {
    cwd: path.join(root, 'packages/keyring-snap'),
    env: stack.keyringSnapEnv,
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
