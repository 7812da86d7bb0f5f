// What the packages' jest projects (packages/*/jest.config.js) share. Every transform only
// transpiles: `tsc -b` (npm test's type-check) type-checks the tests and the sources.

/** ES-module-only dependencies that jest must compile: @scure and @noble (the devnet, the snaps). */
const transformIgnorePatterns = ['/node_modules/(?!(@scure|@noble)/)'];

/** Plain JavaScript (those packages) through ts-jest. */
const jsTransform = ['ts-jest', { tsconfig: { allowJs: true, isolatedModules: true } }];

/** The snaps' TypeScript, JSX (for @metamask/snaps-sdk) and JavaScript. */
const snapTransform = {
  '^.+\\.(t|j)sx?$': [
    'ts-jest',
    {
      tsconfig: {
        allowJs: true,
        jsx: 'react-jsx',
        jsxImportSource: '@metamask/snaps-sdk',
        esModuleInterop: true,
        module: 'commonjs',
        target: 'ES2022',
        strict: true,
        types: ['node', 'jest'],
        isolatedModules: true,
      },
      diagnostics: false,
    },
  ],
};

/** The shared setup file (the test timeout), from a package folder. */
const sharedSetup = '<rootDir>/../../jest.setup.js';

/**
 * jest's workers send results to the parent with JSON.stringify, which throws on a BigInt: a
 * failed assertion holding one crashed the worker ("Do not know how to serialize a BigInt") and
 * hid what failed. The test environments (jest.environment.*.js) call this in the worker's own
 * realm. Each test file runs in a vm context with its own BigInt, so code under test still cannot
 * stringify a BigInt; only jest's messages print one, as `123n`.
 */
function printBigIntsInWorkerMessages() {
  if (Object.prototype.hasOwnProperty.call(BigInt.prototype, 'toJSON')) return;
  Object.defineProperty(BigInt.prototype, 'toJSON', {
    value() {
      return `${this.toString()}n`;
    },
    configurable: true,
    writable: true,
  });
}

/** The test environments, from a package folder: jest's node one and snaps-jest's. */
const nodeEnvironment = '<rootDir>/../../jest.environment.node.js';
const snapsEnvironment = '<rootDir>/../../jest.environment.snaps.js';

module.exports = {
  transformIgnorePatterns,
  jsTransform,
  snapTransform,
  sharedSetup,
  nodeEnvironment,
  snapsEnvironment,
  printBigIntsInWorkerMessages,
};
