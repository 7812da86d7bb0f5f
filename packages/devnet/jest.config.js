// @scure/starknet 2 and @noble/* ship ES modules only; ts-jest transpiles them to CommonJS for jest.
module.exports = {
  displayName: 'devnet',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  transform: {
    '^.+\\.ts$': ['ts-jest', {}],
    '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, isolatedModules: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble)/)'],
  testTimeout: 60000,
};
