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

module.exports = { transformIgnorePatterns, jsTransform, snapTransform, sharedSetup };
