module.exports = {
  displayName: 'devnet',
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testTimeout: 60000,
};
