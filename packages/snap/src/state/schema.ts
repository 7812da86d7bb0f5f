/**
 * The snap's persistent state (snap_manageState). Bump STATE_VERSION and add a migration in
 * migrations.ts for every change of shape.
 */
import { ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-constants';

import { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID } from '../networks';

export const STATE_VERSION = 2;

/** SPEC 2.4 account record. */
export type AccountRecord = {
  address: string;
  addressIndex: number;
  publicKey: string;
  addressSalt: string;
  /** Empty until the account is deployed (chain methods). */
  deployTxnHash: string;
  derivationPath: string;
  chainId: string;
};

export type TransactionStatus = 'RECEIVED' | 'PENDING' | 'ACCEPTED_ON_L2' | 'REJECTED';

/** SPEC 2.4 transaction record. */
export type TransactionRecord = {
  txnHash: string;
  txnType: string;
  senderAddress: string;
  contractAddress: string;
  contractFuncName: string;
  contractCallData: string[];
  status: TransactionStatus | string;
  failureReason: string | null;
  eventIds: string[];
  /** Unix seconds. */
  timestamp: number;
  chainId: string;
};

/** Token of the ERC-20 watch list (SPEC 2.4 plus name and chainId). */
export type Erc20Token = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  chainId: string;
  logo?: string;
};

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

export type SnapState = {
  version: typeof STATE_VERSION;
  currentChainId: string;
  /** Keyed by canonical chain ID. */
  accounts: Record<string, AccountRecord[]>;
  transactions: Record<string, TransactionRecord[]>;
  erc20Tokens: Record<string, Erc20Token[]>;
  /** Keyed by origin (as MetaMask passes it to onRpcRequest). */
  grants: Record<string, SiteGrant>;
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
