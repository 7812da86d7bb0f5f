/** Types of the snap's Area A API (docs/interface/snap.md). */
import type * as starknet from '@l2wallet/starknet-protocol';
import type { AccountRecord, Erc20Token, TransactionRecord } from '@l2wallet/starknet-protocol';

// The snap's records (docs/interface/snap.md#results), defined once beside the chain ids: the snap
// returns them as it keeps them.
export type {
  AccountRecord,
  TransactionRecord,
  TransactionStatus,
} from '@l2wallet/starknet-protocol';

/**
 * Hex chain ids of the two networks the snap knows. Their one definition is in
 * @l2wallet/starknet-protocol, and the compiler checks these equal it. They are written out
 * rather than imported so that a dapp bundle holds two strings, not that CommonJS module with
 * the values it does not use (the difference: bench/RESULTS.md, bench/client).
 */
export const MAINNET_CHAIN_ID = '0x534e5f4d41494e' satisfies typeof starknet.MAINNET_CHAIN_ID;
export const TESTNET_CHAIN_ID = '0x534e5f5345504f4c4941' satisfies typeof starknet.TESTNET_CHAIN_ID;

export type ChainId = string;

export interface Network {
  name: string;
  chainId: ChainId;
}

/** An integer the snap accepts: a number, or a decimal or hex string (bigints as strings). */
export type IntegerLike = string | number;

/** The most a transaction may spend on one resource. */
export interface ResourceBound {
  max_amount: IntegerLike;
  max_price_per_unit: IntegerLike;
}

/** v3 fee bounds; l1_data_gas defaults to zero bounds when left out. */
export interface ResourceBounds {
  l1_gas: ResourceBound;
  l2_gas: ResourceBound;
  l1_data_gas?: ResourceBound;
}

/** Data-availability mode. */
export type DataAvailabilityMode = 'L1' | 'L2';

/**
 * The fee paid in another token than STRK (`gasToken`, e.g. ETH) through the network's SNIP-29
 * paymaster: a relayer submits the calls (and deploys the account first when needed).
 */
export interface FeeMode {
  mode: 'default';
  gasToken: string;
}

/** Transaction details; every member is optional (docs/interface/snap.md#transaction-details). */
export interface TxDetails {
  nonce?: IntegerLike;
  blockIdentifier?: string | number;
  maxFee?: IntegerLike;
  tip?: IntegerLike;
  paymasterData?: string[];
  accountDeploymentData?: string[];
  nonceDataAvailabilityMode?: DataAvailabilityMode;
  feeDataAvailabilityMode?: DataAvailabilityMode;
  version?: string | number;
  resourceBounds?: ResourceBounds;
  skipValidate?: boolean;
  /** Pay the fee in a gas token through the paymaster (l2_executeTxn, l2_estimateFee). */
  feeMode?: FeeMode;
}

/** Details of a transaction that is only signed: the snap needs the nonce and the fee bounds. */
export interface SignedTxDetails extends TxDetails {
  nonce: IntegerLike;
  resourceBounds: ResourceBounds;
}

/**
 * One call of a multicall (docs/interface/snap.md#calls). The address member follows starknet.js:
 * `contractAddress`.
 */
export interface Call {
  contractAddress: string;
  entrypoint: string;
  calldata?: string[];
}

/** createAccount with deploy: true. */
export interface DeployAccountResult {
  address: string;
  transaction_hash: string;
}

/** createAccount without deploy: the derived (stored) account. */
export interface CreatedAccount {
  address: string;
  addressIndex: number;
}

export interface DeclareResult {
  transaction_hash: string;
  class_hash: string;
}

export interface ExecuteResult {
  transaction_hash: string;
}

export interface AccountDeployFeeEstimate {
  suggestedMaxFee: string;
  overallFee: string;
  gasConsumed: string;
  gasPrice: string;
  unit: string;
}

export interface FeeEstimate extends AccountDeployFeeEstimate {
  includeDeploy: boolean;
  /** With `details.feeMode`: the paymaster's estimate in the gas token (base-10). */
  overallFeeInGasToken?: string;
  /** With `details.feeMode`: the most the account would pay, in the gas token (base-10). */
  suggestedMaxFeeInGasToken?: string;
  /** With `details.feeMode`: the gas token. */
  gasToken?: string;
}

export interface Erc20Balance {
  balancePending: string;
  balanceLatest: string;
}

/** A token of the watch list, as l2_addErc20Token returns it (docs/interface/snap.md#token). */
export type Token = Erc20Token;

export interface DeclareSignature {
  signature: string[];
}

export interface TypedDataField {
  name: string;
  type: string;
}

export interface TypedData {
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

export interface ContractPayload {
  contract: unknown;
  [member: string]: unknown;
}

// ---- params of each method ----

export interface CreateAccountParams {
  addressIndex?: number;
  deploy?: boolean;
  /** With `deploy: true`: the deployment's fee paid in a gas token through the paymaster. */
  details?: { feeMode?: FeeMode };
  chainId?: ChainId;
}

export interface DeclareContractParams {
  senderAddress: string;
  contractPayload: ContractPayload;
  invocationsDetails?: TxDetails;
  chainId?: ChainId;
}

export interface DisplayPrivateKeyParams {
  userAddress: string;
  chainId?: ChainId;
}

export interface EstimateAccountDeployFeeParams {
  addressIndex?: number;
  chainId?: ChainId;
}

export interface EstimateFeeParams {
  address: string;
  invocations: Call[];
  details?: TxDetails;
  chainId?: ChainId;
}

export interface ExecuteTxnParams {
  address: string;
  calls: Call[];
  details?: TxDetails;
  abis?: unknown;
  chainId?: ChainId;
}

export interface ExtractPublicKeyParams {
  userAddress: string;
  chainId?: ChainId;
}

export interface GetErc20TokenBalanceParams {
  tokenAddress: string;
  userAddress: string;
  chainId?: ChainId;
}

export interface AddErc20TokenParams {
  address: string;
  chainId: ChainId;
  tokenAddress: string;
  tokenName: string;
  tokenSymbol: string;
  tokenDecimals?: string | number;
  tokenLogo?: string;
}

export interface GetTransactionsParams {
  senderAddress: string;
  contractAddress?: string;
  pageSize?: 10 | 25 | 50;
  txnsInLastNumOfDays?: number;
  withDeployTxn?: boolean;
  onlyFromState?: boolean;
  chainId?: ChainId;
}

export interface GetTransactionStatusParams {
  transactionHash: string;
  chainId?: ChainId;
}

export interface RecoverAccountsParams {
  startScanIndex?: number;
  maxScanned?: number;
  maxMissed?: number;
  chainId?: ChainId;
}

/**
 * One of several aliased members must be given (the snap reads whichever is present and
 * refuses two different values).
 */
type OneOf<Members extends string, Value> = {
  [Given in Members]: { [K in Given]: Value } & { [K in Exclude<Members, Given>]?: Value };
}[Members];

export interface DeclareTransactionDetails extends SignedTxDetails {
  classHash: string;
  compiledClassHash: string;
  /** Alias of the params' `senderAddress` / `address`. */
  senderAddress?: string;
  /** Must equal the params' `chainId` when given. */
  chainId?: ChainId;
}

/** The sender is `senderAddress`, `address` or `details.senderAddress` (at least one). */
export type SignDeclareTransactionParams = {
  chainId: ChainId;
  address?: string;
  senderAddress?: string;
  details: DeclareTransactionDetails;
} & ({ address: string } | { senderAddress: string } | { details: { senderAddress: string } });

/** The signer is `signerAddress` or its alias `address`. */
export type SignMessageParams = {
  /**
   * Typed data; an object is sent as its JSON string, which docs/interface/snap.md#typed-data
   * accepts.
   */
  typedDataMessage: string | TypedData;
  chainId?: ChainId;
} & OneOf<'signerAddress' | 'address', string>;

/** The signer is `address` or its alias `senderAddress`. */
export type SignTransactionParams = {
  chainId: ChainId;
  transactions: Call[];
  transactionsDetail: SignedTxDetails;
} & OneOf<'address' | 'senderAddress', string>;

export interface GetDeploymentDataParams {
  /** One of the snap's accounts. */
  address: string;
  chainId?: ChainId;
}

/** l2_getDeploymentData: what deploys the account (Argent 0.3.1), and whether it is deployed. */
export interface DeploymentData {
  address: string;
  class_hash: string;
  salt: string;
  calldata: string[];
  version: 1;
  deployed: boolean;
}

export interface SwitchNetworkParams {
  chainId: ChainId;
}

/** The signer is `address` or its alias `signerAddress`. */
export type VerifySignedMessageParams = {
  typedDataMessage: string | TypedData;
  signature: string | string[];
  chainId?: ChainId;
} & OneOf<'address' | 'signerAddress', string>;

/** Method name -> [params, result]. Drives the typed `invoke`. */
export interface SnapMethods {
  l2_createAccount: [CreateAccountParams | undefined, CreatedAccount | DeployAccountResult];
  l2_declareContract: [DeclareContractParams, DeclareResult];
  l2_displayPrivateKey: [DisplayPrivateKeyParams, null];
  l2_estimateAccountDeployFee: [
    EstimateAccountDeployFeeParams | undefined,
    AccountDeployFeeEstimate,
  ];
  l2_estimateFee: [EstimateFeeParams, FeeEstimate];
  l2_executeTxn: [ExecuteTxnParams, ExecuteResult];
  l2_extractPublicKey: [ExtractPublicKeyParams, string];
  l2_getCurrentNetwork: [undefined, Network];
  l2_getDeploymentData: [GetDeploymentDataParams, DeploymentData];
  l2_getErc20TokenBalance: [GetErc20TokenBalanceParams, Erc20Balance];
  l2_addErc20Token: [AddErc20TokenParams, Token];
  l2_getTransactions: [GetTransactionsParams, TransactionRecord[]];
  l2_getTransactionStatus: [GetTransactionStatusParams, TransactionRecord['status']];
  l2_recoverAccounts: [RecoverAccountsParams | undefined, AccountRecord[]];
  l2_signDeclareTransaction: [SignDeclareTransactionParams, DeclareSignature];
  /** "0xr,0xs". */
  l2_signMessage: [SignMessageParams, string];
  l2_signTransaction: [SignTransactionParams, string[]];
  l2_switchNetwork: [SwitchNetworkParams, boolean];
  l2_verifySignedMessage: [VerifySignedMessageParams, boolean];
}

export type SnapMethodName = keyof SnapMethods;
