#!/usr/bin/env node
// Runs every benchmark under bench/<name>/index.mjs (or only the names given) one after another.
// Each prints its own table; copy the latest tables into bench/RESULTS.md with the machine noted.
import { readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { runCommand } from '@l2wallet/testkit';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const names = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(here, entry.name, 'index.mjs')))
  .map((entry) => entry.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

// Each bench measures a package's built dist: build it first, so a missing or stale dist is never
// what is measured (bench/snap measures packages/snap/dist as published, and npm start's dev
// server leaves a bundle built with its own URLs there; a no-op rebuild takes seconds).
const builds = {
  snap: ['packages/snap'],
  devnet: ['packages/devnet'],
  gateway: ['packages/gateway'],
  keyring: ['packages/keyring-snap'],
  paymaster: ['packages/devnet', 'packages/paymaster'],
  'snap-paymaster': ['packages/devnet', 'packages/paymaster'],
  sponsored: ['packages/devnet', 'packages/paymaster', 'packages/client'],
};
const workspaces = new Set(names.flatMap((name) => builds[name] ?? []));
for (const workspace of workspaces) {
  await runCommand('npm', ['run', 'build', '-w', workspace], {
    cwd: join(here, '..'),
    timeoutMs: 600_000,
  });
}

let failed = 0;
for (const name of names) {
  console.log(`\n## bench/${name}\n`);
  try {
    await runCommand(process.execPath, [join(here, name, 'index.mjs')], {
      inherit: true,
      timeoutMs: 3_600_000,
    });
  } catch (error) {
    failed += 1;
    console.error(`bench/${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed === 0 ? 0 : 1);
