/**
 * Build-time settings (GATSBY_* variables, inlined by Gatsby), each overridable with a query
 * parameter so one build can point at another snap or devnet: ?snapId=...&devnet=...
 */
const DEFAULT_SNAP_ID = process.env.GATSBY_SNAP_ID || 'local:http://localhost:8085';
const DEFAULT_SNAP_VERSION = process.env.GATSBY_SNAP_VERSION || '*';
const DEFAULT_DEVNET_RPC_URL = process.env.GATSBY_DEVNET_RPC_URL || 'http://127.0.0.1:5050/rpc';

export interface SiteConfig {
  snapId: string;
  snapVersion: string;
  devnetRpcUrl: string;
}

export function readConfig(search: string): SiteConfig {
  const query = new URLSearchParams(search);
  return {
    snapId: query.get('snapId') || DEFAULT_SNAP_ID,
    snapVersion: query.get('snapVersion') || DEFAULT_SNAP_VERSION,
    devnetRpcUrl: query.get('devnet') || DEFAULT_DEVNET_RPC_URL,
  };
}

/** Starknet fee token (STRK), same address on Mainnet, Sepolia and the local devnet. */
export const STRK_ADDRESS = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
export const ETH_ADDRESS = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
