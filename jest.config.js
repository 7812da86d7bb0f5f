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
};
