#!/usr/bin/env node
// `npm test`'s first step (and .ci/run's): the system packages the tests need beyond npm, from
// packages/testkit/prerequisites.json. When one is missing: as root on Debian or Ubuntu it is
// installed with apt-get (said so first); otherwise this stops at once, naming each missing
// package and the command that installs it. PREREQS_NO_INSTALL=1 never installs.
// It runs before anything is built, so it cannot use the testkit (a build) to run apt-get.
// eslint-disable-next-line no-restricted-imports
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { packages } = JSON.parse(
  readFileSync(path.join(root, 'packages/testkit/prerequisites.json'), 'utf8'),
);

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(binary) {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && executable(path.join(dir, binary)));
}

/** Where the prerequisite is, or why it is missing (null when present). */
function problem({ binary, env }) {
  const override = env ? process.env[env] : undefined;
  if (override) return executable(override) ? null : `${env}=${override} is not an executable`;
  return onPath(binary) ? null : `${binary} is not on PATH`;
}

function missing() {
  return packages
    .map((entry) => ({ ...entry, reason: problem(entry) }))
    .filter((entry) => entry.reason);
}

function debianLike() {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(release);
  } catch {
    return false;
  }
}

function installCommand(names) {
  return `sudo apt-get update && sudo apt-get install -y ${names.join(' ')}`;
}

function stop(absent, note = '') {
  const names = absent.map((entry) => entry.package);
  const lines = [
    `npm test needs ${absent.length === 1 ? 'a system package' : 'system packages'} that ${absent.length === 1 ? 'is' : 'are'} missing:`,
    ...absent.map(
      (entry) =>
        `  - ${entry.package}: ${entry.reason} (needed for ${entry.why})${entry.env ? `; or set ${entry.env} to one` : ''}`,
    ),
    `Install with:  ${installCommand(names)}`,
  ];
  if (note) lines.push(note);
  console.error(lines.join('\n'));
  process.exit(1);
}

let absent = missing();
if (absent.length === 0) process.exit(0);

const canInstall =
  process.env.PREREQS_NO_INSTALL !== '1' &&
  process.getuid?.() === 0 &&
  debianLike() &&
  onPath('apt-get');
if (!canInstall) stop(absent);

const names = absent.map((entry) => entry.package);
console.log(
  `[prereqs] installing ${names.join(', ')} with apt-get (running as root on Debian/Ubuntu)`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', '--no-install-recommends', ...names],
]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0)
    stop(absent, `apt-get ${args[0]} failed (exit ${result.status ?? result.signal}).`);
}
absent = missing();
if (absent.length > 0) stop(absent, 'apt-get ran, but these are still missing.');
console.log(`[prereqs] installed ${names.join(', ')}`);
