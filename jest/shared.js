// What the packages' jest projects (packages/*/jest.config.js) share. Every transform only
// transpiles, with swc (@swc/jest), module by module as tsconfig.base.json's isolatedModules
// promises works: `tsc -b` (npm test's type-check) type-checks the tests and the sources.
const path = require('node:path');

/**
 * ES-module-only dependencies that jest must compile: @scure and @noble (the devnet, the snaps).
 */
const transformIgnorePatterns = ['/node_modules/(?!(@scure|@noble)/)'];

/**
 * A jest transform entry: `[transformer, options]`, or under `npm run test:profile` the same
 * through transform.profiled.js, which records the CPU it spends.
 */
function transform(transformer, options = {}) {
  if (!process.env.L2_TEST_PROFILE) return [transformer, options];
  return [path.join(__dirname, 'transform.profiled.js'), { transformer, options }];
}

/**
 * swc compiling as tsconfig.base.json says: ES2022 with its class fields (useDefineForClassFields,
 * TypeScript's default for that target), CommonJS with esModuleInterop's helpers (swc's default
 * interop), and JSX (react-jsx) from `jsxImportSource`.
 */
function swcTransform(parser, jsxImportSource) {
  return transform('@swc/jest', {
    jsc: {
      parser,
      target: 'es2022',
      transform: {
        useDefineForClassFields: true,
        ...(jsxImportSource
          ? { react: { runtime: 'automatic', importSource: jsxImportSource } }
          : {}),
      },
    },
    module: { type: 'commonjs' },
  });
}

/** TypeScript: .ts, and .tsx with JSX from `jsxImportSource` (React unless said otherwise). */
const tsTransforms = (jsxImportSource = 'react') => ({
  '^.+\\.ts$': swcTransform({ syntax: 'typescript' }),
  '^.+\\.tsx$': swcTransform({ syntax: 'typescript', tsx: true }, jsxImportSource),
});

/** Plain JavaScript: the ES-module-only packages above, and a package's own .js files. */
const jsTransform = swcTransform({ syntax: 'ecmascript' });

/** The snaps' TypeScript, JSX (for @metamask/snaps-sdk) and JavaScript. */
const snapTransform = { ...tsTransforms('@metamask/snaps-sdk'), '^.+\\.js$': jsTransform };

/**
 * Dependencies whose loading costs much and whose use is rare, loaded on first use instead (a
 * project's moduleNameMapper): every test file that loads the snaps simulation paid for them.
 */
const lazyModules = {
  '^@spruceid/siwe-parser$': path.join(__dirname, 'lazy-siwe-parser.js'),
};

/** The shared setup file (the test timeout), from a package folder. */
const sharedSetup = '<rootDir>/../../jest/setup.js';

/**
 * jest's workers send results to the parent with JSON.stringify, which throws on a BigInt: a
 * failed assertion holding one crashed the worker ("Do not know how to serialize a BigInt") and
 * hid what failed. The test environments (environment.*.js) call this in the worker's own
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
const nodeEnvironment = '<rootDir>/../../jest/environment.node.js';
const snapsEnvironment = '<rootDir>/../../jest/environment.snaps.js';

/**
 * `Environment` (a jest test environment class), recording under `npm run test:profile` each test
 * file's wall time, this worker's CPU during it and that of the processes it started and saw exit
 * (servers, builds, Chromium), and each snaps-jest install (packages/testkit/src/profile.ts).
 */
function profiledEnvironment(Environment) {
  if (!process.env.L2_TEST_PROFILE) return Environment;
  const profile = require('../packages/testkit/dist/profile.js');
  return class ProfiledEnvironment extends Environment {
    constructor(config, context) {
      // Before super(): the test file's `process.env` is a copy made there.
      process.env.L2_TEST_PROFILE_FILE = path.relative(
        path.join(__dirname, '..'),
        context.testPath,
      );
      super(config, context);
      this.profiledFile = process.env.L2_TEST_PROFILE_FILE;
    }

    async setup() {
      this.profileStart = {
        wall: Date.now(),
        cpu: profile.ownCpuSeconds(),
        children: profile.reapedChildrenCpuSeconds(),
        transpiled: { ...(globalThis[Symbol.for('l2wallet.transpile')] ?? { cpu: 0, files: 0 }) },
      };
      await super.setup();
    }

    async teardown() {
      await super.teardown();
      const start = this.profileStart;
      const transpiled = globalThis[Symbol.for('l2wallet.transpile')] ?? { cpu: 0, files: 0 };
      profile.profileEvent({
        kind: 'transpile',
        name: this.profiledFile,
        cpu: transpiled.cpu - start.transpiled.cpu,
        files: transpiled.files - start.transpiled.files,
      });
      profile.profileEvent({
        kind: 'file',
        name: this.profiledFile,
        wall: (Date.now() - start.wall) / 1000,
        cpu: profile.ownCpuSeconds() - start.cpu,
        children: profile.reapedChildrenCpuSeconds() - start.children,
      });
    }

    async installSnap(...args) {
      const wall = Date.now();
      const cpu = profile.ownCpuSeconds();
      try {
        return await super.installSnap(...args);
      } finally {
        profile.profileEvent({
          kind: 'snap-install',
          name: 'snaps-jest',
          wall: (Date.now() - wall) / 1000,
          cpu: profile.ownCpuSeconds() - cpu,
        });
      }
    }
  };
}

module.exports = {
  profiledEnvironment,
  lazyModules,
  transformIgnorePatterns,
  tsTransforms,
  jsTransform,
  snapTransform,
  sharedSetup,
  nodeEnvironment,
  snapsEnvironment,
  printBigIntsInWorkerMessages,
};
