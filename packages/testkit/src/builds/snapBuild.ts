/**
 * Test builds of a snap: the real `mm-snap build` of a snap package, run with other build
 * variables into a folder of its own under node_modules/.cache, so tests install a loopback-only
 * bundle and the package's own dist/ and snap.manifest.json are never touched.
 *
 * One cache, keyed by the build variables: the folder's name is a hash of the package and `env`,
 * so builds with different variables (say, a devnet URL per jest worker) live side by side, and
 * each is rebuilt only when the snap's sources change (a stamp). Parallel callers serialise on a
 * lock directory.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { markUsed, pruneUnused, tryLock } from './cacheFolders';
import { CLOSED_URL, REPO_ROOT } from '../constants';

export interface SnapBuildOptions {
  /** The snap package folder (with snap.config.ts, snap.manifest.json, src/). */
  snapRoot: string;
  /** Build variables, as the package's snap.config.ts reads them from the environment. */
  env: Record<string, string>;
}

/** The Starknet snap's package folder. */
export const STARKNET_SNAP_DIR = path.join(REPO_ROOT, 'packages/snap');

/**
 * The node timeout of the Starknet snap's test builds (the snap's own default is 20 s): short,
 * so a node that answers late is seen in seconds. A test of a node that never answers passes a
 * shorter one; every timeout is a variant of the same build (snapVariant.ts).
 */
export const TEST_SNAP_RPC_TIMEOUT_MS = 4000;

/**
 * The Starknet snap built for tests: Testnet's node at `rpcUrl`, its explorer at `explorerUrl`
 * and its SNIP-29 paymaster at `paymasterUrl` (a closed port unless given), Mainnet's at a closed
 * port, so a test never reaches a public node or AVNU; the node timeout TEST_SNAP_RPC_TIMEOUT_MS.
 * `extra` adds or replaces build variables (say, SNAP_RPC_TIMEOUT_MS).
 */
export function starknetSnapBuild(
  testnet: { rpcUrl: string; explorerUrl?: string; paymasterUrl?: string },
  extra: Record<string, string> = {},
): SnapBuildOptions {
  return {
    snapRoot: STARKNET_SNAP_DIR,
    env: {
      SNAP_MAINNET_RPC_URL: `${CLOSED_URL}/rpc`,
      SNAP_MAINNET_EXPLORER_URL: CLOSED_URL,
      SNAP_MAINNET_PAYMASTER_URL: CLOSED_URL,
      SNAP_TESTNET_RPC_URL: testnet.rpcUrl,
      SNAP_TESTNET_EXPLORER_URL: testnet.explorerUrl ?? CLOSED_URL,
      SNAP_TESTNET_PAYMASTER_URL: testnet.paymasterUrl ?? CLOSED_URL,
      SNAP_RPC_TIMEOUT_MS: String(TEST_SNAP_RPC_TIMEOUT_MS),
      ...extra,
    },
  };
}

export const SNAP_BUILD_CACHE = path.join(REPO_ROOT, 'node_modules/.cache/l2wallet-snap-builds');
/** Builds kept per snap package beyond those in recent use (see pruneUnused). */
const KEEP_PER_SNAP = 16;
const LOCK_STALE_MS = 300_000;

function stableJson(env: Record<string, string>): string {
  return JSON.stringify(
    Object.keys(env)
      .sort()
      .map((key) => [key, env[key]]),
  );
}

/** The folder that holds the build of `snapRoot` with `env` (a pure function of both). */
export function snapBuildDir({ snapRoot, env }: SnapBuildOptions): string {
  const name = path.basename(path.resolve(snapRoot));
  const key = createHash('sha256')
    .update(path.resolve(snapRoot))
    .update(stableJson(env))
    .digest('hex')
    .slice(0, 16);
  return path.join(SNAP_BUILD_CACHE, `${name}-${key}`);
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** Bumped when the way a build is made changes, so older builds are not reused. */
const BUILDER_VERSION = '1';

/** The workspace packages a snap bundle may hold: their sources count as the snap's. */
const BUNDLED_PACKAGES = ['starknet-protocol', 'jsonrpc'];

/**
 * Changes whenever the snap's sources, build shims (build/), config, manifest, package.json, `env`
 * or the builder change, or the sources of the workspace packages it bundles.
 */
function sourceStamp({ snapRoot, env }: SnapBuildOptions): string {
  const hash = createHash('sha256');
  const buildDir = path.join(snapRoot, 'build');
  const bundled = BUNDLED_PACKAGES.map((name) => path.join(snapRoot, '..', name, 'src'));
  const files = [
    ...listFiles(path.join(snapRoot, 'src')),
    ...(fs.existsSync(buildDir) ? listFiles(buildDir) : []),
    ...bundled.flatMap((dir) => (fs.existsSync(dir) ? listFiles(dir) : [])),
    path.join(snapRoot, 'snap.config.ts'),
    path.join(snapRoot, 'snap.manifest.json'),
    path.join(snapRoot, 'package.json'),
  ].sort();
  for (const file of files) {
    hash.update(file);
    hash.update(fs.readFileSync(file));
  }
  hash.update(stableJson(env));
  hash.update(BUILDER_VERSION);
  return hash.digest('hex');
}

function upToDate(dir: string, stamp: string): boolean {
  const stampFile = path.join(dir, '.stamp');
  return (
    fs.existsSync(path.join(dir, 'dist/bundle.js')) &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, 'utf8') === stamp
  );
}

/** Copies what snaps-simulation installs from next to a link to src/; returns mm-snap's argv. */
function prepare(snapRoot: string, dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(snapRoot, 'snap.manifest.json'), 'utf8'));
  for (const file of [
    'snap.manifest.json',
    'package.json',
    manifest.source.location.npm.iconPath,
  ]) {
    if (!file) continue;
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(snapRoot, file), path.join(dir, file));
  }
  // snap.config.ts resolves input, output and manifest against the working directory: run it
  // in the build folder with src linked in, so the build is the real one with other variables.
  const srcLink = path.join(dir, 'src');
  if (!fs.existsSync(srcLink)) fs.symlinkSync(path.join(snapRoot, 'src'), srcLink, 'dir');
  const cliIndex = require.resolve('@metamask/snaps-cli', { paths: [snapRoot] });
  return [
    path.join(path.dirname(cliIndex), 'main.mjs'),
    'build',
    '--config',
    path.join(snapRoot, 'snap.config.ts'),
  ];
}

function buildFailed(error: unknown, dir: string): Error {
  const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
  return new Error(
    `mm-snap build into ${dir} failed: ${(error as Error).message}\n${`${stdout}${stderr}`.slice(-4000)}`,
  );
}

type Step = { wait: number } | { run: string[]; cwd: string; env: Record<string, string> };

/**
 * One build as steps, so that a synchronous and an asynchronous caller drive the same logic:
 * wait for the lock, return the folder if its build is up to date, else run mm-snap once.
 */
function* buildSteps(options: SnapBuildOptions): Generator<Step, string, void> {
  const dir = snapBuildDir(options);
  const lockDir = `${dir}.lock`;
  fs.mkdirSync(SNAP_BUILD_CACHE, { recursive: true });
  const started = Date.now();
  while (!tryLock(lockDir, LOCK_STALE_MS)) {
    if (Date.now() - started > LOCK_STALE_MS) throw new Error(`Timed out waiting for ${lockDir}`);
    yield { wait: 250 };
  }
  try {
    const stamp = sourceStamp(options);
    if (upToDate(dir, stamp)) {
      markUsed(dir, '.stamp');
      return dir;
    }
    yield { run: prepare(options.snapRoot, dir), cwd: dir, env: options.env };
    fs.writeFileSync(path.join(dir, '.stamp'), stamp);
    pruneUnused(dir, '.stamp', KEEP_PER_SNAP);
    return dir;
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Builds the snap with `env` unless that build is up to date, and returns its folder: what
 * snaps-simulation installs from (manifest with a matching shasum, dist/bundle.js, the icon,
 * package.json). Synchronous, for jest's globalSetup and config files.
 */
export function ensureSnapBuild(options: SnapBuildOptions): string {
  const steps = buildSteps(options);
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    if ('wait' in step) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, step.wait);
      next = steps.next();
      continue;
    }
    try {
      execFileSync(process.execPath, step.run, {
        cwd: step.cwd,
        env: { ...process.env, ...step.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
    } catch (error) {
      next = steps.throw(buildFailed(error, step.cwd));
      continue;
    }
    next = steps.next();
  }
  return next.value;
}

/** ensureSnapBuild without blocking the event loop (other work can run meanwhile). */
export async function buildSnapVariant(options: SnapBuildOptions): Promise<string> {
  const steps = buildSteps(options);
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    if ('wait' in step) {
      await new Promise((resolve) => setTimeout(resolve, step.wait));
      next = steps.next();
      continue;
    }
    const failure = await new Promise<Error | undefined>((resolve) => {
      execFile(
        process.execPath,
        step.run,
        { cwd: step.cwd, env: { ...process.env, ...step.env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve(
            error ? buildFailed(Object.assign(error, { stdout, stderr }), step.cwd) : undefined,
          ),
      );
    });
    next = failure ? steps.throw(failure) : steps.next();
  }
  return next.value;
}
