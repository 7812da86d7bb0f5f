/**
 * The records the snap keeps in its state and returns to dapps as they are
 * (docs/interface/snap.md#results): the snap's state schema and the dapp client both name these
 * types, so they are defined once, here. Types only: nothing of this module reaches a bundle.
 */

/** Account record (docs/interface/snap.md#account-record) (l2_recoverAccounts). */
export type AccountRecord = {
  address: string;
  addressIndex: number;
  publicKey: string;
  addressSalt: string;
  /** Empty until the account is deployed. */
  deployTxnHash: string;
  /** BIP-44 path, m/44'/9004'/0'/0/{addressIndex}. */
  derivationPath: string;
  /** Hex chain id. */
  chainId: string;
};

/**
 * Statuses (docs/interface/snap.md#transaction-statuses) of a transaction record (a node's own
 * finality status may appear too).
 */
export type TransactionStatus = 'RECEIVED' | 'PENDING' | 'ACCEPTED_ON_L2' | 'REJECTED';

/** Transaction record (docs/interface/snap.md#transaction-record) (l2_getTransactions). */
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

/** A token of the ERC-20 watch list (docs/interface/snap.md#token, plus its name and chain). */
export type Erc20Token = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  chainId: string;
  logo?: string;
};
