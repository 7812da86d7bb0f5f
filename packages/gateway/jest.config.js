const { jsTransform, nodeEnvironment, sharedSetup, tsTransforms } = require('../../jest/shared');

module.exports = {
  displayName: 'gateway',
  // jose (JWTs) is ES modules only, as are @scure and @noble (the devnet): compiled for jest.
  transform: { ...tsTransforms(), '^.+\\.js$': jsTransform },
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble|jose)/)'],
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/test'],
  // The devnet runs from its source, as in packages/snap's tests.
  moduleNameMapper: { '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  setupFilesAfterEnv: [sharedSetup],
};
