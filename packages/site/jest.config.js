// Unit tests of the method cards, and browser tests (*.e2e.test.ts): headless Chromium against the
// built site, the real snap bundle in @metamask/snaps-simulation and a real devnet, all on
// 127.0.0.1 (see README.md).
const {
  jsTransform,
  lazyModules,
  tsTransforms,
  nodeEnvironment,
  sharedSetup,
  transformIgnorePatterns,
} = require('../../jest/shared');

module.exports = {
  displayName: 'site',
  testEnvironment: nodeEnvironment,
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: {
    ...tsTransforms(),
    '^.+\\.js$': jsTransform,
  },
  // Tests load the client's and the devnet's source: no prior build needed, and no race with a
  // package rebuilding its dist while the tests run.
  moduleNameMapper: {
    ...lazyModules,
    '^@l2wallet/client$': '<rootDir>/../client/src/index.ts',
    '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts',
  },
  transformIgnorePatterns,
  setupFilesAfterEnv: [sharedSetup],
};
