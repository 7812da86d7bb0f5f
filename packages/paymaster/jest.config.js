const {
  jsTransform,
  tsTransforms,
  nodeEnvironment,
  sharedSetup,
  transformIgnorePatterns,
} = require('../../jest/shared');

module.exports = {
  displayName: 'paymaster',
  testEnvironment: nodeEnvironment,
  roots: ['<rootDir>/test'],
  // @scure/starknet (ES modules only) cross-checks the hashes and signatures.
  transform: { ...tsTransforms(), '^.+\\.js$': jsTransform },
  transformIgnorePatterns,
  // The devnet runs from its source, as in the gateway's and the snap's tests.
  moduleNameMapper: { '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  setupFilesAfterEnv: [sharedSetup],
};
