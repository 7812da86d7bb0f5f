// postJson against a server on 127.0.0.1 that answers, stalls, breaks off or answers text.
const { nodeEnvironment, sharedSetup, tsTransforms } = require('../../jest/shared');

module.exports = {
  displayName: 'jsonrpc',
  testEnvironment: nodeEnvironment,
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  setupFilesAfterEnv: [sharedSetup],
  transform: tsTransforms(),
};
