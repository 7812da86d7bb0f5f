const { jsTransform, nodeEnvironment, sharedSetup } = require('../../jest.shared');

module.exports = {
  displayName: 'gateway',
  preset: 'ts-jest',
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  // jose (JWTs) is ES modules only, as are @scure and @noble (the devnet): compiled for jest.
  transform: { '^.+\\.tsx?$': 'ts-jest', '^.+\\.js$': jsTransform },
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble|jose)/)'],
  // The devnet runs from its source, as in packages/snap's tests.
  moduleNameMapper: { '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  setupFilesAfterEnv: [sharedSetup],
};
