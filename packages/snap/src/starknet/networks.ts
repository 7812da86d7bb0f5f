/**
 * The networks the snap knows. A chain ID is always kept in one canonical form: lowercase hex
 * with no leading zeros, so that state keys and comparisons never disagree.
 *
 * RPC, explorer and paymaster URLs are fixed at build time (snap.config.ts `environment`); node/
 * reads them from here.
 */
import {
  MAINNET_CHAIN_ID,
  STARKNET_CHAIN_IDS,
  TESTNET_CHAIN_ID,
} from '@l2wallet/starknet-protocol';

// The same public defaults snap.config.ts injects when no shell variable is set; used directly
// where nothing was injected (tests that import this module).
import PUBLIC_ENDPOINTS from './publicEndpoints.json';

export type Network = {
  name: string;
  chainId: string;
  /** Starknet JSON-RPC endpoint. */
  rpcUrl: string;
  /** Base URL of the explorer (transaction lists and links). */
  explorerUrl: string;
  /** The SNIP-29 paymaster that relays transactions whose fee is paid in another token. */
  paymasterUrl: string;
};

export { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID };
/** docs/interface/snap.md#networks: wherever chainId is optional, the default is the testnet. */
export const DEFAULT_CHAIN_ID = TESTNET_CHAIN_ID;

export const MAINNET: Network = {
  name: 'Mainnet',
  chainId: MAINNET_CHAIN_ID,
  rpcUrl: process.env.SNAP_MAINNET_RPC_URL ?? PUBLIC_ENDPOINTS.SNAP_MAINNET_RPC_URL,
  explorerUrl: process.env.SNAP_MAINNET_EXPLORER_URL ?? PUBLIC_ENDPOINTS.SNAP_MAINNET_EXPLORER_URL,
  paymasterUrl:
    process.env.SNAP_MAINNET_PAYMASTER_URL ?? PUBLIC_ENDPOINTS.SNAP_MAINNET_PAYMASTER_URL,
};

export const TESTNET: Network = {
  name: 'Testnet',
  chainId: TESTNET_CHAIN_ID,
  rpcUrl: process.env.SNAP_TESTNET_RPC_URL ?? PUBLIC_ENDPOINTS.SNAP_TESTNET_RPC_URL,
  explorerUrl: process.env.SNAP_TESTNET_EXPLORER_URL ?? PUBLIC_ENDPOINTS.SNAP_TESTNET_EXPLORER_URL,
  paymasterUrl:
    process.env.SNAP_TESTNET_PAYMASTER_URL ?? PUBLIC_ENDPOINTS.SNAP_TESTNET_PAYMASTER_URL,
};

export const NETWORKS: readonly Network[] = [MAINNET, TESTNET];

/** Short-string names ('SN_MAIN', 'SN_SEPOLIA') are accepted as well as hex. */
const SHORT_NAMES: Record<string, string> = STARKNET_CHAIN_IDS;

/** The short-string name of a known chain ID ('SN_MAIN', 'SN_SEPOLIA'). */
export function shortNameOf(chainId: string): string | undefined {
  return Object.keys(SHORT_NAMES).find((name) => SHORT_NAMES[name] === chainId);
}

/** Canonical form of a chain ID, or undefined when the text is not a chain ID at all. */
export function normalizeChainId(chainId: string): string | undefined {
  const trimmed = chainId.trim();
  if (SHORT_NAMES[trimmed]) {
    return SHORT_NAMES[trimmed];
  }
  if (!/^0x[0-9a-fA-F]{1,64}$/u.test(trimmed)) {
    return undefined;
  }
  return `0x${BigInt(trimmed).toString(16)}`;
}

export function findNetwork(chainId: string): Network | undefined {
  const canonical = normalizeChainId(chainId);
  return NETWORKS.find((network) => network.chainId === canonical);
}

/** The network for a chain ID that validation has already accepted. */
export function getNetwork(chainId: string): Network {
  const network = findNetwork(chainId);
  if (!network) {
    throw new Error(`Unknown network ${chainId}`);
  }
  return network;
}

export function describeKnownNetworks(): string {
  return NETWORKS.map((network) => `${network.chainId} (${network.name})`).join(' or ');
}
