// The protocol's values and encodings, checked against starknet.js (an independent source).
const { nodeEnvironment, sharedSetup, tsTransforms } = require('../../jest/shared');

module.exports = {
  displayName: 'starknet-protocol',
  testEnvironment: nodeEnvironment,
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  setupFilesAfterEnv: [sharedSetup],
  transform: tsTransforms(),
};
