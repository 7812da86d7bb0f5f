// The testkit's own tests: its services fail fast, its constants agree with the packages that
// define them, and the prerequisite check of `npm test` names what is missing.
module.exports = {
  displayName: 'testkit',
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
    // The devnet's source (compared against below) uses @scure/@noble, which ship ES modules only.
    '^.+\\.js$': ['ts-jest', { isolatedModules: true, tsconfig: { allowJs: true } }],
  },
  moduleNameMapper: { '^@l2wallet/devnet$': '<rootDir>/../devnet/src/index.ts' },
  transformIgnorePatterns: ['/node_modules/(?!(@scure|@noble)/)'],
  setupFilesAfterEnv: ['<rootDir>/../../jest.setup.js'],
};
