// End-to-end tests of the real keyring snap in @metamask/snaps-jest, installed from a
// loopback-only build (test/harness/build-test-snap.cjs, made by globalSetup), never dist/.
const { TEST_SNAP_DIR } = require('./test/harness/build-test-snap.cjs');
const {
  lazyModules,
  sharedSetup,
  snapTransform,
  transformIgnorePatterns,
} = require('../../jest/shared');

module.exports = {
  displayName: 'keyring-snap',
  rootDir: __dirname,
  preset: '@metamask/snaps-jest',
  testEnvironment: '<rootDir>/test/harness/environment.cjs',
  globalSetup: '<rootDir>/test/harness/globalSetup.cjs',
  testEnvironmentOptions: { server: { root: TEST_SNAP_DIR, port: 0 } },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: snapTransform,
  transformIgnorePatterns,
  moduleNameMapper: lazyModules,
  setupFilesAfterEnv: [
    ...require('@metamask/snaps-jest/jest-preset').setupFilesAfterEnv,
    sharedSetup,
  ],
};
