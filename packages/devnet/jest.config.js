const { nodeEnvironment, sharedSetup, tsTransform } = require('../../jest.shared');

module.exports = {
  displayName: 'devnet',
  transform: { '^.+\\.tsx?$': tsTransform() },
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  setupFilesAfterEnv: [sharedSetup],
};
