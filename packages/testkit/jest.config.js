// The testkit's own tests: its services fail fast, its constants agree with the packages that
// define them, the prerequisite check of `npm test` names what is missing, and the import rules
// (scripts/check-import-cycles.mjs) fail each kind of bad import.
const {
  jsTransform,
  tsTransforms,
  nodeEnvironment,
  sharedSetup,
  transformIgnorePatterns,
} = require('../../jest/shared');

module.exports = {
  displayName: 'testkit',
  testEnvironment: nodeEnvironment,
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: {
    ...tsTransforms(),
    '^.+\\.js$': jsTransform,
  },
  moduleNameMapper: { '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  transformIgnorePatterns,
  setupFilesAfterEnv: [sharedSetup],
};
