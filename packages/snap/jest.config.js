// End-to-end tests of the real snap in @metamask/snaps-jest. They install loopback-only builds
// of it (test/harness/build-e2e-snap.cjs, made by globalSetup), never the public-endpoint
// dist/. @scure/starknet and @noble/* ship ESM only, so ts-jest compiles them too.
const { OFFLINE_SNAP_DIR } = require('./test/harness/build-e2e-snap.cjs');
const {
  lazyModules,
  sharedSetup,
  snapsEnvironment,
  snapTransform,
  transformIgnorePatterns,
} = require('../../jest/shared');

module.exports = {
  displayName: 'snap',
  rootDir: __dirname,
  preset: '@metamask/snaps-jest',
  globalSetup: '<rootDir>/test/harness/globalSetup.cjs',
  testEnvironment: snapsEnvironment,
  testEnvironmentOptions: { server: { root: OFFLINE_SNAP_DIR, port: 0 } },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: snapTransform,
  // The chain tests start the devnet from its source, through the package's public entry point.
  moduleNameMapper: { ...lazyModules, '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  transformIgnorePatterns,
  // Keep the preset's setup (snaps-jest matchers) and add the shared timeout.
  setupFilesAfterEnv: [
    ...require('@metamask/snaps-jest/jest-preset').setupFilesAfterEnv,
    sharedSetup,
  ],
};
