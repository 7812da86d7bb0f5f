/**
 * Builds (once per source change) the loopback-only keyring snap the tests and the bench install:
 * the build-time chain (31337) points at the closed discard port, so no test reaches a node it
 * did not start; the chain tests point the chain at their own anvil and Alto with
 * keyring_setChainConfig. The folder holds what snaps-simulation installs from (manifest with a
 * matching shasum, dist/bundle.js, images/icon.svg, package.json) under node_modules/.cache, so
 * the package's own dist/ and snap.manifest.json are never touched.
 * Parallel jest workers serialise on a lock directory; a stamp of the sources decides rebuilds.
 */
const { createHash } = require('crypto');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const SNAP_ROOT = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(SNAP_ROOT, '../..');
const CACHE_DIR = path.join(REPO_ROOT, 'node_modules/.cache');
const TEST_SNAP_DIR = path.join(CACHE_DIR, 'l2wallet-keyring-snap-test');
const LOCK_DIR = path.join(CACHE_DIR, 'l2wallet-keyring-snap-build.lock');
const CLOSED_URL = 'http://127.0.0.1:9';
const TEST_ENV = {
  KEYRING_CHAIN_ID: '31337',
  KEYRING_RPC_URL: CLOSED_URL,
  KEYRING_BUNDLER_URL: CLOSED_URL,
  KEYRING_ENTRY_POINT: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  KEYRING_FACTORY: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
  KEYRING_PAYMASTER_URL: '',
};

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function sourceStamp() {
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
  hash.update(JSON.stringify(TEST_ENV));
  return hash.digest('hex');
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(task) {
  const started = Date.now();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() - fs.statSync(LOCK_DIR).mtimeMs > 300_000) {
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

/** Returns the folder of an up-to-date test build. */
function ensureTestSnap() {
  const dir = TEST_SNAP_DIR;
  const stampFile = path.join(dir, '.stamp');
  return withLock(() => {
    const stamp = sourceStamp();
    if (
      fs.existsSync(path.join(dir, 'dist/bundle.js')) &&
      fs.existsSync(stampFile) &&
      fs.readFileSync(stampFile, 'utf8') === stamp
    ) {
      return dir;
    }
    fs.mkdirSync(path.join(dir, 'images'), { recursive: true });
    for (const file of ['snap.manifest.json', 'package.json', 'images/icon.svg']) {
      fs.copyFileSync(path.join(SNAP_ROOT, file), path.join(dir, file));
    }
    const srcLink = path.join(dir, 'src');
    if (!fs.existsSync(srcLink)) fs.symlinkSync(path.join(SNAP_ROOT, 'src'), srcLink, 'dir');
    const cliIndex = require.resolve('@metamask/snaps-cli', { paths: [SNAP_ROOT] });
    execFileSync(
      process.execPath,
      [
        path.join(path.dirname(cliIndex), 'main.mjs'),
        'build',
        '--config',
        path.join(SNAP_ROOT, 'snap.config.ts'),
      ],
      { cwd: dir, env: { ...process.env, ...TEST_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    fs.writeFileSync(stampFile, stamp);
    return dir;
  });
}

module.exports = { ensureTestSnap, TEST_SNAP_DIR };

if (require.main === module) {
  console.log(ensureTestSnap());
}
