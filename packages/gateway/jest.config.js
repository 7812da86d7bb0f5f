const { nodeEnvironment, sharedSetup, tsTransforms } = require('../../jest.shared');

module.exports = {
  displayName: 'gateway',
  transform: tsTransforms(),
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  // The devnet runs from its source, as in packages/snap's tests.
  moduleNameMapper: { '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  setupFilesAfterEnv: [sharedSetup],
};
