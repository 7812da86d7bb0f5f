'use strict';
// Test builds of a snap: the real `mm-snap build` of a snap package, run with other build
// variables into a folder of its own (under node_modules/.cache), so tests install a
// loopback-only bundle and the package's own dist/ and snap.manifest.json are never touched.
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** Changes whenever the snap's sources, config, manifest, package.json or `env` change. */
function sourceStamp(snapRoot, env) {
  const hash = createHash('sha256');
  const files = [
    ...listFiles(path.join(snapRoot, 'src')),
    path.join(snapRoot, 'snap.config.ts'),
    path.join(snapRoot, 'snap.manifest.json'),
    path.join(snapRoot, 'package.json'),
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

/** Parallel jest workers serialise on a lock directory; one older than 5 minutes is stale. */
function withLock(lockDir, task) {
  const started = Date.now();
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() - fs.statSync(lockDir).mtimeMs > 300_000) {
        fs.rmSync(lockDir, { recursive: true, force: true });
      } else if (Date.now() - started > 300_000) {
        throw new Error(`Timed out waiting for ${lockDir}`);
      } else {
        sleep(250);
      }
    }
  }
  try {
    return task();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Builds the snap in `snapRoot` with `env` into `dir` unless that build is up to date, and
 * returns `dir`: what snaps-simulation installs from (manifest with a matching shasum,
 * dist/bundle.js, the icon, package.json).
 */
function ensureSnapBuild({ snapRoot, dir, env }) {
  const stampFile = path.join(dir, '.stamp');
  return withLock(`${dir}.lock`, () => {
    const stamp = sourceStamp(snapRoot, env);
    if (
      fs.existsSync(path.join(dir, 'dist/bundle.js')) &&
      fs.existsSync(stampFile) &&
      fs.readFileSync(stampFile, 'utf8') === stamp
    ) {
      return dir;
    }
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
    execFileSync(
      process.execPath,
      [
        path.join(path.dirname(cliIndex), 'main.mjs'),
        'build',
        '--config',
        path.join(snapRoot, 'snap.config.ts'),
      ],
      { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    fs.writeFileSync(stampFile, stamp);
    return dir;
  });
}

module.exports = { ensureSnapBuild };
