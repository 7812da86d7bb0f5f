// Runs every package's own jest project, so `npm test` at the root covers the whole product.
// The tests load @l2wallet/testkit (and the packages it builds: starknet-protocol, jsonrpc)
// from their dist/. Building them is an explicit step (`npm install`, `npm test` and
// `npx tsc -b packages/testkit` do), never a side effect of loading this file; a dist older
// than its sources is refused here, so `npx jest <file>` never runs a stale testkit.
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');

/** When `file` was last modified (ms), 0 when it is missing. */
const modified = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** The newest modification time of the files under `dir`. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, modified(path.join(entry.parentPath ?? entry.path, entry.name)));
  }
  return newest;
}

for (const name of ['starknet-protocol', 'jsonrpc', 'testkit']) {
  const dir = path.join(__dirname, 'packages', name);
  // tsc -b stamps tsconfig.tsbuildinfo whenever it finds the project up to date.
  const built = modified(path.join(dir, 'tsconfig.tsbuildinfo'));
  if (
    built < Math.max(newestUnder(path.join(dir, 'src')), modified(path.join(dir, 'tsconfig.json')))
  )
    throw new Error(
      `packages/${name}/dist is older than its sources: run \`npx tsc -b packages/testkit\` first ` +
        '(npm test does)',
    );
}

module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js'],
  // Jest's default on 2 cores is one worker: every file in turn. Much of a file's time is waiting
  // on servers, snaps, browsers and node timeouts, so three files side by side keep 2 cores busy
  // (timings per worker count: bench/RESULTS.md, "npm test: where the time goes"); the chain
  // tests have a devnet per file, so none waits for another's port.
  maxWorkers: 3,
  // The browser tests last while the site's build is being made (jest/sequencer.js).
  testSequencer: '<rootDir>/jest/sequencer.js',
};
