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
  // Jest's default on 2 cores is one worker: every file in turn. Most test time is waiting on
  // servers, snaps and browsers, so two files side by side use the cores; the chain tests have a
  // devnet per file, so none waits for another's port.
  maxWorkers: 2,
};
