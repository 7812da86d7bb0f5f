const { nodeEnvironment, sharedSetup, tsTransforms } = require('../../jest/shared');

module.exports = {
  displayName: 'devnet',
  transform: tsTransforms(),
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/test'],
  setupFilesAfterEnv: [sharedSetup],
};
