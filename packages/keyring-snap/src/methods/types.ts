import type { Json } from '@metamask/snaps-sdk';

import type { ChainConfig } from '../evm/chainConfig';
import type { StoredAccount } from '../state/store';
import type { Hex } from '../evm/validation';

export type AccountType = 'eip155:eoa' | 'eip155:erc4337';

export type RequestContext = {
  stored: StoredAccount;
  /** The chain id of the request's scope; null for an EOA request with an empty scope. */
  chainId: number | null;
  /** The scope's chain config; null for a chain without one (EOA signing needs none). */
  chain: ChainConfig | null;
  /** The raw `request.params` (validated by each method). */
  params: unknown;
  /** The signing key, derived or imported, for this request only. */
  signingKey: () => Promise<Hex>;
};

/** One method of `keyring_submitRequest`; each answers synchronously. */
export type RequestMethod = {
  name: string;
  accountTypes: readonly AccountType[];
  handle: (context: RequestContext) => Promise<Json>;
};

/** Field paths in errors start at the keyring request's `request.params`. */
export const PARAMS = 'request.params';
