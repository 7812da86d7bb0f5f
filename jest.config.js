// Runs every package's own jest project, so `npm test` at the root covers the whole product.
// The tests load @l2wallet/testkit from its dist: bring it up to date first (tsc -b is
// incremental, well under a second when nothing changed), so `npx jest <file>` never runs a
// stale testkit.
require('node:child_process').execFileSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-b', 'packages/testkit'],
  { cwd: __dirname, stdio: 'inherit' },
);

module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js'],
  // Jest's default on 2 cores is one worker: every file in turn. Much of a file's time is waiting
  // on servers, snaps, browsers and node timeouts, so three files side by side keep 2 cores busy
  // (jest alone, measured here: 125 s with two workers, 98 s with three, 96 s with four);
  // the chain tests have a devnet per file, so none waits for another's port.
  maxWorkers: 3,
  // The browser tests last while the site's build is being made (jest.sequencer.js).
  testSequencer: '<rootDir>/jest.sequencer.js',
};
