import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
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

const BUILD_LOCK = path.join(REPO_ROOT, 'node_modules/.cache/l2wallet-site-build.lock');
/** A lock older than this is left over from a killed run. */
const BUILD_LOCK_STALE_MS = 600_000;

/**
 * Runs `task` holding the site-build lock: the browser test files run in parallel jest workers,
 * and two gatsby builds into the same public/ at once would break both.
 */
async function withBuildLock<T>(task: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(BUILD_LOCK).mtimeMs > BUILD_LOCK_STALE_MS) {
          rmSync(BUILD_LOCK, { recursive: true, force: true });
        }
      } catch {
        // released meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await task();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** gatsby build of the site into packages/site/public. The snap id and devnet URL come from the page URL. */
async function gatsbyBuild(): Promise<string> {
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
  const fresh = () => existsSync(page) && statSync(page).mtimeMs > sources;
  if (fresh()) return path.join(SITE_DIR, 'public');
  // Another worker may be building it: wait for it, then build only if it is still stale.
  return withBuildLock(async () => (fresh() ? path.join(SITE_DIR, 'public') : gatsbyBuild()));
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
