const { nodeEnvironment, sharedSetup } = require('../../jest.shared');

module.exports = {
  displayName: 'devnet',
  preset: 'ts-jest',
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  setupFilesAfterEnv: [sharedSetup],
};
