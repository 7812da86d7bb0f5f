import { dirname, resolve } from 'path';

import type { SnapConfig } from '@metamask/snaps-cli';
import type { Compiler } from 'webpack';

// Public defaults, shared with src/starknet/networks.ts (JSON: the mm-snap config loader cannot
// import TS).
import PUBLIC_ENDPOINTS from './src/starknet/publicEndpoints.json';

/**
 * Libraries the bundle holds once. starknet.js, key-tree and scure-bip39 each pin their own
 * versions of these (three copies of @noble/hashes, two of @noble/curves and @scure/base, some
 * as CommonJS): every import of them resolves as if made from this package, to the one version
 * installed at the top level and its ES module build. They keep their APIs within a major
 * version, and the tests check every signature and key against @scure/starknet and key-tree.
 */
const ONE_COPY = /^@(noble\/(curves|hashes)|scure\/base)(\/|$)/u;

const oneCopyOfEach = {
  apply(compiler: Compiler): void {
    compiler.hooks.normalModuleFactory.tap('OneCopyOfEach', (factory) => {
      factory.hooks.beforeResolve.tap('OneCopyOfEach', (data) => {
        if (ONE_COPY.test(data.request)) {
          data.context = __dirname;
          data.dependencyType = 'esm';
        }
      });
    });
  },
};

// key-tree's modules replaced by build/no-ed25519-curves.cjs and build/no-seed-derivers.cjs.
const KEY_TREE = dirname(require.resolve('@metamask/key-tree'));
const KEY_TREE_CURVES = resolve(KEY_TREE, 'curves');

// Network endpoints are fixed at build time: a shell variable overrides the public default.
const config: SnapConfig = {
  // SNAP_BUILD_FLOOR=starknet builds the floor bench/snap compares the bundle with: a snap that
  // imports one starknet.js function, built the same way.
  input:
    process.env.SNAP_BUILD_FLOOR === 'starknet'
      ? resolve(__dirname, 'build/starknet-floor.ts')
      : 'src/index.ts',
  server: { port: 8085 },
  customizeWebpackConfig: (webpackConfig) => {
    webpackConfig.resolve = {
      ...webpackConfig.resolve,
      alias: {
        ...(webpackConfig.resolve?.alias as Record<string, string> | undefined),
        [resolve(KEY_TREE_CURVES, 'ed25519.mjs')]: resolve(
          __dirname,
          'build/no-ed25519-curves.cjs',
        ),
        [resolve(KEY_TREE_CURVES, 'ed25519Bip32.mjs')]: resolve(
          __dirname,
          'build/no-ed25519-curves.cjs',
        ),
        [resolve(KEY_TREE, 'derivers/bip39.mjs')]: resolve(__dirname, 'build/no-seed-derivers.cjs'),
        [resolve(KEY_TREE, 'derivers/cip3.mjs')]: resolve(__dirname, 'build/no-seed-derivers.cjs'),
        lodash$: resolve(__dirname, 'build/lodash-memoize.cjs'),
        '@metamask/scure-bip39/dist/wordlists/english.js$': resolve(
          __dirname,
          'build/no-mnemonic-wordlist.cjs',
        ),
      },
    };
    webpackConfig.plugins = [...(webpackConfig.plugins ?? []), oneCopyOfEach];
    return webpackConfig;
  },
  // Only guarded `typeof Buffer` checks in dependencies: no polyfill needed.
  stats: { buffer: false },
  environment: {
    SNAP_MAINNET_RPC_URL: process.env.SNAP_MAINNET_RPC_URL ?? PUBLIC_ENDPOINTS.SNAP_MAINNET_RPC_URL,
    SNAP_TESTNET_RPC_URL: process.env.SNAP_TESTNET_RPC_URL ?? PUBLIC_ENDPOINTS.SNAP_TESTNET_RPC_URL,
    SNAP_MAINNET_EXPLORER_URL:
      process.env.SNAP_MAINNET_EXPLORER_URL ?? PUBLIC_ENDPOINTS.SNAP_MAINNET_EXPLORER_URL,
    SNAP_TESTNET_EXPLORER_URL:
      process.env.SNAP_TESTNET_EXPLORER_URL ?? PUBLIC_ENDPOINTS.SNAP_TESTNET_EXPLORER_URL,
    // SNIP-29 paymasters (fees in another token); AVNU's public ones by default.
    SNAP_MAINNET_PAYMASTER_URL:
      process.env.SNAP_MAINNET_PAYMASTER_URL ?? PUBLIC_ENDPOINTS.SNAP_MAINNET_PAYMASTER_URL,
    SNAP_TESTNET_PAYMASTER_URL:
      process.env.SNAP_TESTNET_PAYMASTER_URL ?? PUBLIC_ENDPOINTS.SNAP_TESTNET_PAYMASTER_URL,
    // How long the snap waits for one node, explorer or paymaster answer (src/node/client.ts).
    SNAP_RPC_TIMEOUT_MS: process.env.SNAP_RPC_TIMEOUT_MS ?? '20000',
  },
};

export default config;
