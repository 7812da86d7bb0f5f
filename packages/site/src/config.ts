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
export {
  STRK_TOKEN_ADDRESS as STRK_ADDRESS,
  ETH_TOKEN_ADDRESS as ETH_ADDRESS,
} from '@l2wallet/starknet-constants';
