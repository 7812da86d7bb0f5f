// Unit tests (fake provider) and *.e2e.test.ts: starknet.js' WalletAccount / WalletAccountV5 on
// the real snap bundle in @metamask/snaps-simulation against a packages/devnet on 127.0.0.1.
const {
  jsTransform,
  lazyModules,
  tsTransforms,
  nodeEnvironment,
  sharedSetup,
} = require('../../jest/shared');

module.exports = {
  displayName: 'client',
  testEnvironment: nodeEnvironment,
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  setupFilesAfterEnv: [sharedSetup],
  transform: {
    ...tsTransforms(),
    '^.+\\.js$': jsTransform,
  },
  // The e2e test loads the testkit's and the devnet's sources: no prior build needed.
  moduleNameMapper: {
    ...lazyModules,
    '^@l2wallet/testkit$': '<rootDir>/../testkit/src/index.ts',
    '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts',
  },
  // get-starknet-wallet-standard's StarknetInjectedWallet (the get-starknet object wrapped, as
  // get-starknet does) loads ox, published as ES modules only.
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble|ox)/)'],
};
