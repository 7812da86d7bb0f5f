import path from 'node:path';
import { SITE_DIR, snapVariant, starknetSnapBuild } from '@l2wallet/testkit';

/** Gitignored: screenshots of the browser tests. */
export const SCREENSHOT_DIR = path.join(SITE_DIR, 'screenshots');

/**
 * The snap bundle built from packages/snap/src against the test's devnet (and its paymaster, when
 * given): the testkit's snapVariant of its cached build (rebuilt only when the snap's sources
 * change; a devnet on a new port costs a copy, not a build; packages/snap/dist is left alone).
 * Mainnet points at a closed local port, so a Mainnet call fails fast instead of reaching the
 * public node.
 */
export function buildSnap(env: {
  rpcUrl: string;
  explorerUrl: string;
  paymasterUrl?: string;
}): Promise<string> {
  return snapVariant(starknetSnapBuild(env));
}
