/**
 * Builds (once per source change) the loopback-only snap bundles the tests install:
 * - e2e (chain tests and the benchmark): Testnet RPC http://127.0.0.1:5059/rpc, explorer
 *   http://127.0.0.1:5059, node timeout 4 s;
 * - e2e-node (history tests and the history benchmark): the same node, the explorer at a closed
 *   port, so the history can only come from the node and snap state;
 * - offline (every other snaps-jest test): every network at a closed loopback port, so no test
 *   ever reaches a public node and none depends on a devnet that another test file started.
 * Mainnet points at the closed port in both. The folder holds what snaps-simulation installs from (manifest with a matching
 * shasum, dist/bundle.js, images/icon.svg, package.json) and lives under node_modules/.cache, so
 * the normal packages/snap/dist build is never touched.
 *
 * Concurrent callers (parallel jest workers) serialise on a lock directory; a stamp of the
 * sources decides whether a rebuild is needed. `node build-e2e-snap.cjs` builds from the shell.
 */
const { createHash } = require('crypto');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const SNAP_ROOT = path.resolve(__dirname, '../..');
const REPO_ROOT = path.resolve(SNAP_ROOT, '../..');
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache');
const E2E_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-snap-e2e');
const E2E_NODE_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-snap-e2e-node');
const OFFLINE_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-snap-offline');
const DEVNET_PORT = 5059;
/** Nothing listens on the discard port: a request is refused at once. */
const CLOSED_URL = 'http://127.0.0.1:9';
/** Short, so the slow-node test does not wait 20 s. */
const E2E_RPC_TIMEOUT_MS = '4000';
const LOCK_DIR = path.join(CACHE_DIR, 'l2wallet-snap-build.lock');

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function sourceStamp(env) {
  const hash = createHash('sha256');
  const files = [
    ...listFiles(path.join(SNAP_ROOT, 'src')),
    path.join(SNAP_ROOT, 'snap.config.ts'),
    path.join(SNAP_ROOT, 'snap.manifest.json'),
    path.join(SNAP_ROOT, 'package.json'),
    __filename,
  ].sort();
  for (const file of files) {
    hash.update(file);
    hash.update(fs.readFileSync(file));
  }
  hash.update(JSON.stringify(env));
  return hash.digest('hex');
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(task) {
  const started = Date.now();
  fs.mkdirSync(path.dirname(LOCK_DIR), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') {
        throw error;
      }
      // A lock older than 5 minutes belongs to a build that died.
      const age = Date.now() - fs.statSync(LOCK_DIR).mtimeMs;
      if (age > 300_000) {
        fs.rmSync(LOCK_DIR, { recursive: true, force: true });
      } else if (Date.now() - started > 300_000) {
        throw new Error(`Timed out waiting for ${LOCK_DIR}`);
      } else {
        sleep(250);
      }
    }
  }
  try {
    return task();
  } finally {
    fs.rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Builds the real snap with `env` into `dir` unless that build is up to date; returns `dir`. */
function ensureSnapBuild(dir, env) {
  const STAMP = path.join(dir, '.stamp');
  return withLock(() => {
    const stamp = sourceStamp(env);
    const bundle = path.join(dir, 'dist/bundle.js');
    if (fs.existsSync(bundle) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === stamp) {
      return dir;
    }
    fs.mkdirSync(path.join(dir, 'images'), { recursive: true });
    fs.copyFileSync(
      path.join(SNAP_ROOT, 'snap.manifest.json'),
      path.join(dir, 'snap.manifest.json'),
    );
    fs.copyFileSync(path.join(SNAP_ROOT, 'package.json'), path.join(dir, 'package.json'));
    const manifest = JSON.parse(
      fs.readFileSync(path.join(SNAP_ROOT, 'snap.manifest.json'), 'utf8'),
    );
    const iconPath = manifest.source.location.npm.iconPath;
    if (iconPath) {
      fs.mkdirSync(path.dirname(path.join(dir, iconPath)), { recursive: true });
      fs.copyFileSync(path.join(SNAP_ROOT, iconPath), path.join(dir, iconPath));
    }
    // snap.config.ts resolves input, output and manifest against the working directory: run
    // it in the e2e folder with src linked in, so the build is the real one with other URLs.
    const srcLink = path.join(dir, 'src');
    if (!fs.existsSync(srcLink)) {
      fs.symlinkSync(path.join(SNAP_ROOT, 'src'), srcLink, 'dir');
    }
    const cliIndex = require.resolve('@metamask/snaps-cli', { paths: [SNAP_ROOT] });
    const cli = path.join(path.dirname(cliIndex), 'main.mjs');
    execFileSync(
      process.execPath,
      [cli, 'build', '--config', path.join(SNAP_ROOT, 'snap.config.ts')],
      {
        cwd: dir,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    fs.writeFileSync(STAMP, stamp);
    return dir;
  });
}

const CLOSED_MAINNET = {
  SNAP_MAINNET_RPC_URL: `${CLOSED_URL}/rpc`,
  SNAP_MAINNET_EXPLORER_URL: CLOSED_URL,
};

/** The chain tests' bundle: Testnet is the devnet they start on DEVNET_PORT. */
function ensureE2eSnap() {
  const devnetUrl = `http://127.0.0.1:${DEVNET_PORT}`;
  return ensureSnapBuild(E2E_SNAP_DIR, {
    ...CLOSED_MAINNET,
    SNAP_TESTNET_RPC_URL: `${devnetUrl}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: devnetUrl,
    SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
  });
}

/** The history tests' bundle: Testnet's node is the devnet, its explorer a closed port. */
function ensureE2eNodeSnap() {
  return ensureSnapBuild(E2E_NODE_SNAP_DIR, {
    ...CLOSED_MAINNET,
    SNAP_TESTNET_RPC_URL: `http://127.0.0.1:${DEVNET_PORT}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: CLOSED_URL,
    SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
  });
}

/** Every other snaps-jest test's bundle: no network reachable at all. */
function ensureOfflineSnap() {
  return ensureSnapBuild(OFFLINE_SNAP_DIR, {
    ...CLOSED_MAINNET,
    SNAP_TESTNET_RPC_URL: `${CLOSED_URL}/rpc`,
    SNAP_TESTNET_EXPLORER_URL: CLOSED_URL,
    SNAP_RPC_TIMEOUT_MS: E2E_RPC_TIMEOUT_MS,
  });
}

module.exports = {
  ensureE2eSnap,
  ensureE2eNodeSnap,
  ensureOfflineSnap,
  E2E_SNAP_DIR,
  E2E_NODE_SNAP_DIR,
  OFFLINE_SNAP_DIR,
  DEVNET_PORT,
  E2E_RPC_TIMEOUT_MS,
};

if (require.main === module) {
  console.log(ensureE2eSnap());
  console.log(ensureE2eNodeSnap());
  console.log(ensureOfflineSnap());
}
