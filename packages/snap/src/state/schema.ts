/**
 * The snap's persistent state (snap_manageState). Bump STATE_VERSION and add a migration in
 * migrations.ts for every change of shape; an optional field that older state only lacks (read
 * as absent, junk read as none) needs neither.
 */
import {
  type AccountRecord,
  type Erc20Token,
  ETH_TOKEN_ADDRESS,
  STRK_TOKEN_ADDRESS,
  type TransactionRecord,
} from '@l2wallet/starknet-protocol';

import { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID } from '../starknet/networks';

export const STATE_VERSION = 3;

// The records the snap keeps and returns as they are (docs/interface/snap.md#results): one
// definition, shared with the dapp client.
export type {
  AccountRecord,
  Erc20Token,
  TransactionRecord,
  TransactionStatus,
} from '@l2wallet/starknet-protocol';

/**
 * What one site (origin) was allowed, and when. A site may derive, use and list only the account
 * indexes listed here; adding one asks the user. An index names the same address on every chain.
 */
export type SiteGrant = {
  origin: string;
  /** Unix seconds of the first grant. */
  grantedAt: number;
  addressIndexes: number[];
};

/**
 * A token of the watch list as stored: the token (docs/interface/snap.md#token) (what
 * l2_addErc20Token returns) plus what only the user sees: the sites that added it (the home page
 * lists them per site), and whether its symbol and decimals were read from its contract.
 */
export type StoredToken = Erc20Token & {
  /** Origins that added or updated it, first first; none for the preloaded ETH and STRK. */
  addedBy?: string[];
  /**
   * Stored before the snap read symbol and decimals from the contract (state version 2, when a
   * site's values were taken as given): kept in the list, never used to format an amount, until
   * a site adds the token again and the chain is read.
   */
  unchecked?: true;
};

export type SnapState = {
  version: typeof STATE_VERSION;
  currentChainId: string;
  /** Keyed by canonical chain ID. */
  accounts: Record<string, AccountRecord[]>;
  transactions: Record<string, TransactionRecord[]>;
  erc20Tokens: Record<string, StoredToken[]>;
  /** Keyed by origin (as MetaMask passes it to onRpcRequest). */
  grants: Record<string, SiteGrant>;
  /**
   * Relayed executions whose paymaster answer was lost or an error after they were sent, keyed
   * by chain: their records (txnHash: the tracking id until the relayer's hash is known) are
   * resolved through the paymaster and the node (history/relayed.ts). Absent until one exists.
   */
  relayedPending?: Record<string, PendingRelayed[]>;
  /**
   * Per chain, then per account address (as starknet/felt.ts toHex writes it): the account's own nonce
   * (not a SNIP-9 nonce) the snap expects it to have next, kept with the state writes of its sends.
   * Only a guess for an execution that has read nothing yet: the simulation that rides in the
   * account batch on it is used only when the batch confirms it. Absent until one is kept.
   */
  accountNonces?: Record<string, Record<string, string>>;
};

/** A relayed execution that may have been submitted, until its fate is known. */
export type PendingRelayed = {
  /** pedersen(account, SNIP-9 nonce): the paymaster's tracking id of it. */
  trackingId: string;
  account: string;
  /** The outside execution's SNIP-9 nonce: once the account has used it, the execution ran. */
  nonce?: string;
  /** Unix seconds: after it the execution can no longer run. */
  executeBefore: number;
  /** Known for good: the relayer's transaction (if any) the tracking id still answers as. */
  settled?: boolean;
  transactionHash?: string;
};

export { ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS };

/** ETH and STRK have the same addresses on Mainnet and Sepolia. */
export function defaultTokens(chainId: string): Erc20Token[] {
  return [
    { address: ETH_TOKEN_ADDRESS, name: 'Ether', symbol: 'ETH', decimals: 18, chainId },
    { address: STRK_TOKEN_ADDRESS, name: 'Starknet Token', symbol: 'STRK', decimals: 18, chainId },
  ];
}

export function createInitialState(): SnapState {
  return {
    version: STATE_VERSION,
    currentChainId: TESTNET_CHAIN_ID,
    accounts: {},
    transactions: {},
    erc20Tokens: {
      [MAINNET_CHAIN_ID]: defaultTokens(MAINNET_CHAIN_ID),
      [TESTNET_CHAIN_ID]: defaultTokens(TESTNET_CHAIN_ID),
    },
    grants: {},
  };
}
