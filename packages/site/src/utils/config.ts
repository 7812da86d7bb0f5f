/**
 * The site's settings, read in this one place: build-time GATSBY_* variables (inlined by
 * Gatsby), each overridable by a query parameter on the page URL, so one build can point at
 * another snap, devnet or gateway: ?snapId=...&devnet=... Pages read them with useSiteConfig.
 */
export interface SiteConfig {
  /** The Starknet snap (`?snapId=`) and the version to install (`?snapVersion=`). */
  snapId: string;
  snapVersion: string;
  /** The local devnet the page funds accounts from (`?devnet=`). */
  devnetRpcUrl: string;
  /** The EVM keyring snap of the /evm/ page (`?keyringSnapId=`). */
  keyringSnapId: string;
  /** The metered gateway of the /gateway/ page (`?gateway=`) and its API key (`?key=`). */
  gatewayUrl: string;
  gatewayKey: string;
  /**
   * The SNIP-29 paymaster the starknet-react page sponsors Testnet transactions through
   * (`?paymaster=`) and the dapp's sponsor key for it (`?paymasterKey=`, sent as
   * `x-paymaster-api-key`). A demo key only: anything in a page's bundle is public.
   */
  paymasterUrl: string;
  paymasterKey: string;
}

interface Setting {
  query: string;
  fallback: string;
  /** An empty query parameter is a value (no key), not a request for the default. */
  emptyIsValue?: boolean;
}

// Gatsby inlines only `process.env.GATSBY_*` written out literally.
const SETTINGS: Record<keyof SiteConfig, Setting> = {
  snapId: {
    query: 'snapId',
    fallback: process.env.GATSBY_SNAP_ID || 'local:http://localhost:8085',
  },
  snapVersion: { query: 'snapVersion', fallback: process.env.GATSBY_SNAP_VERSION || '*' },
  devnetRpcUrl: {
    query: 'devnet',
    fallback: process.env.GATSBY_DEVNET_RPC_URL || 'http://127.0.0.1:5050/rpc',
  },
  keyringSnapId: {
    query: 'keyringSnapId',
    fallback: process.env.GATSBY_KEYRING_SNAP_ID || 'local:http://localhost:8086',
  },
  // Set by `npm start` (scripts/start.mjs) when it builds the site: its demo gateway and key.
  gatewayUrl: {
    query: 'gateway',
    fallback: process.env.GATSBY_GATEWAY_URL || 'http://127.0.0.1:8545',
  },
  gatewayKey: { query: 'key', fallback: process.env.GATSBY_GATEWAY_KEY || '', emptyIsValue: true },
  // Set by `npm start` too: its local paymaster (127.0.0.1:8090) and demo sponsor key.
  paymasterUrl: {
    query: 'paymaster',
    fallback: process.env.GATSBY_PAYMASTER_URL || 'http://127.0.0.1:8090',
  },
  paymasterKey: {
    query: 'paymasterKey',
    fallback: process.env.GATSBY_PAYMASTER_API_KEY || '',
    emptyIsValue: true,
  },
};

/** The settings for a page URL's query string (`''`: the build-time values). */
export function readSiteConfig(search: string): SiteConfig {
  const query = new URLSearchParams(search);
  const config = {} as SiteConfig;
  for (const [name, { query: parameter, fallback, emptyIsValue }] of Object.entries(SETTINGS)) {
    const given = query.get(parameter);
    config[name as keyof SiteConfig] = (emptyIsValue ? given : given || null) ?? fallback;
  }
  return config;
}

/** Starknet fee token (STRK), same address on Mainnet, Sepolia and the local devnet. */
export {
  STRK_TOKEN_ADDRESS as STRK_ADDRESS,
  ETH_TOKEN_ADDRESS as ETH_ADDRESS,
} from '@l2wallet/starknet-protocol';
