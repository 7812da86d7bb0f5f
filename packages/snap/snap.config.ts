import { resolve } from 'path';

import type { SnapConfig } from '@metamask/snaps-cli';

// Public defaults, shared with src/networks.ts (JSON: the mm-snap config loader cannot import TS).
import PUBLIC_ENDPOINTS from './src/starknet/publicEndpoints.json';

// Network endpoints are fixed at build time: a shell variable overrides the public default.
const config: SnapConfig = {
  input: 'src/index.ts',
  server: { port: 8085 },
  customizeWebpackConfig: (webpackConfig) => {
    webpackConfig.resolve = {
      ...webpackConfig.resolve,
      alias: {
        ...(webpackConfig.resolve?.alias as Record<string, string> | undefined),
        lodash$: resolve(__dirname, 'build/lodash-memoize.cjs'),
      },
    };
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
    // How long the chain methods wait for one node or explorer answer (src/chain/rpc.ts).
    SNAP_RPC_TIMEOUT_MS: process.env.SNAP_RPC_TIMEOUT_MS ?? '20000',
  },
};

export default config;
