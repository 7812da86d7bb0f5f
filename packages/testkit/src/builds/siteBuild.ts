/**
 * The site's production build (`gatsby build` of packages/site into its public/), as its
 * browser tests serve it: made once and reused by every test file and run until the site's or
 * the client's sources change. `npm test` makes it beside lint and the other builds, so the
 * browser tests start with it in place.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import { newestMtime, tryLock } from './cacheFolders';
import { REPO_ROOT } from '../constants';
import { runCommand } from '../processes';

export const SITE_DIR = path.join(REPO_ROOT, 'packages/site');
const CLIENT_DIR = path.join(REPO_ROOT, 'packages/client');
const bin = (name: string) => path.join(REPO_ROOT, 'node_modules', '.bin', name);

const BUILD_LOCK = path.join(REPO_ROOT, 'node_modules/.cache/l2wallet-site-build.lock');
/** A lock older than this is left over from a killed run. */
const BUILD_LOCK_STALE_MS = 600_000;

/**
 * Runs `task` holding the site-build lock: the browser test files run in parallel jest workers
 * (and npm test may be building it), and two gatsby builds into one public/ would break both.
 */
async function withBuildLock<T>(task: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  while (!tryLock(BUILD_LOCK, BUILD_LOCK_STALE_MS)) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    return await task();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** The client's dist, which the site bundles (a clean clone has none yet). */
export async function buildClient(): Promise<void> {
  await runCommand(bin('tsc'), ['-p', 'tsconfig.build.json'], { cwd: CLIENT_DIR });
}

/**
 * gatsby build of the site into packages/site/public. The snap id and devnet URL come from the page
 * URL.
 */
async function gatsbyBuild(): Promise<string> {
  await buildClient();
  await runCommand(bin('gatsby'), ['build'], {
    cwd: SITE_DIR,
    env: { GATSBY_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
    // npm test runs it beside jest: on 2 busy cores it can take minutes. A guard, not a limit.
    timeoutMs: 900_000,
  });
  return path.join(SITE_DIR, 'public');
}

/** Whether the site's public/ was built after the last change to the site's or client's sources. */
export function siteBuildFresh(): boolean {
  const page = path.join(SITE_DIR, 'public/index.html');
  const sources = Math.max(
    newestMtime(path.join(SITE_DIR, 'src')),
    newestMtime(path.join(CLIENT_DIR, 'src')),
  );
  return existsSync(page) && statSync(page).mtimeMs > sources;
}

/**
 * The site's public/ when it was built after the last change to the site's or the client's
 * sources, else a fresh build: one gatsby build serves every page's test.
 */
export async function ensureSiteBuild(): Promise<string> {
  const fresh = siteBuildFresh;
  if (fresh()) return path.join(SITE_DIR, 'public');
  // Another process may be building it: wait for it, then build only if it is still stale.
  return withBuildLock(async () => (fresh() ? path.join(SITE_DIR, 'public') : gatsbyBuild()));
}
