import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { runCommand, snapVariant, starknetSnapBuild } from '@l2wallet/testkit';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const SITE_DIR = path.join(REPO_ROOT, 'packages/site');
/** Gitignored: screenshots of the browser tests. */
export const SCREENSHOT_DIR = path.join(SITE_DIR, 'screenshots');

const bin = (name: string) => path.join(REPO_ROOT, 'node_modules', '.bin', name);

/** The site bundles @l2wallet/client from its dist: build it (a clean clone has none yet). */
export async function buildClient(): Promise<void> {
  await runCommand(bin('tsc'), ['-p', 'tsconfig.build.json'], {
    cwd: path.join(REPO_ROOT, 'packages/client'),
  });
}

/** gatsby build of the site into packages/site/public. The snap id and devnet URL come from the page URL. */
export async function buildSite(): Promise<string> {
  await buildClient();
  await runCommand(bin('gatsby'), ['build'], {
    cwd: SITE_DIR,
    env: { GATSBY_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
  });
  return path.join(SITE_DIR, 'public');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * The site's public/ when an earlier test of this run built it after the last change to the
 * site's or the client's sources, else a fresh build: one gatsby build serves every page's test.
 */
export async function reuseOrBuildSite(): Promise<string> {
  const page = path.join(SITE_DIR, 'public/index.html');
  const sources = Math.max(
    newestMtime(path.join(SITE_DIR, 'src')),
    newestMtime(path.join(REPO_ROOT, 'packages/client/src')),
  );
  if (existsSync(page) && statSync(page).mtimeMs > sources) return path.join(SITE_DIR, 'public');
  return buildSite();
}

/**
 * The snap bundle built from packages/snap/src against the test's devnet: the testkit's
 * snapVariant of its cached build (rebuilt only when the snap's sources change; a devnet on a new
 * port costs a copy, not a build; packages/snap/dist is left alone). Mainnet points at a closed
 * local port, so a Mainnet call fails fast instead of reaching the public node.
 */
export function buildSnap(env: { rpcUrl: string; explorerUrl: string }): Promise<string> {
  return snapVariant(starknetSnapBuild(env));
}
