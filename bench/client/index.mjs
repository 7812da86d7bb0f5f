#!/usr/bin/env node
// Size of @l2wallet/client for a dapp: webpack 5 (production: minified with terser) bundles an
// entry that imports what a dapp imports (setupStarknetSnap, the wallet object, the Wallet
// Standard registration), for the browser; the size is then gzipped (level 9). The client is
// rebuilt from its sources first, so the figure is the current code's.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { runCommand } from '@l2wallet/testkit';

import { ROOT } from '../lib/snapSimulation.mjs';

const require = createRequire(import.meta.url);
const webpack = require('webpack');

await runCommand(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'packages/client/tsconfig.build.json'],
  { cwd: ROOT, inherit: true },
);

const work = join(ROOT, 'node_modules/.cache/bench-client');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const entry = join(work, 'dapp.js');
writeFileSync(
  entry,
  `import { setupStarknetSnap } from '@l2wallet/client';
setupStarknetSnap().then(({ wallet }) => wallet.request({ type: 'wallet_requestAccounts' }));
`,
);

const stats = await new Promise((resolve, reject) =>
  webpack(
    {
      mode: 'production',
      target: 'web',
      context: ROOT,
      entry,
      output: { path: work, filename: 'bundle.js' },
      resolve: { modules: [join(ROOT, 'node_modules'), 'node_modules'] },
      devtool: false,
      performance: { hints: false },
    },
    (error, result) => (error ? reject(error) : resolve(result)),
  ),
);
if (stats.hasErrors()) {
  console.error(stats.toString({ all: false, errors: true }));
  process.exit(1);
}

const bundle = readFileSync(join(work, 'bundle.js'));
const gzipped = gzipSync(bundle, { level: 9 });
// Share of the (unminified) module sources by package, to see what the size is made of.
const byPackage = new Map();
for (const module of stats.toJson({ modules: true }).modules ?? []) {
  const name = String(module.name ?? '');
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name);
  const owner = name.includes('packages/client/')
    ? '@l2wallet/client'
    : name.includes('bench-client') || !match
      ? 'the entry and webpack runtime'
      : match[1];
  byPackage.set(owner, (byPackage.get(owner) ?? 0) + (module.size ?? 0));
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB (${bytes} B)`;
const cpus = os.cpus();
console.log(
  `Machine: ${cpus.length} cores (${cpus[0]?.model.trim()}), Node ${process.version}, webpack ${webpack.version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n`,
);
console.log('| metric | value |');
console.log('| --- | --- |');
console.log(`| dapp bundle, minified | ${kb(bundle.length)} |`);
console.log(`| dapp bundle, minified + gzip -9 | ${kb(gzipped.length)} |`);
for (const [owner, size] of [...byPackage].sort((a, b) => b[1] - a[1]))
  console.log(`| source before minifying: ${owner} | ${kb(size)} |`);
rmSync(work, { recursive: true, force: true });
