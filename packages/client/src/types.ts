/** Types of the snap's Area A API (SPEC.md sections 2 and 4.1). */

/** Hex chain ids of the two networks the snap knows. */
export const MAINNET_CHAIN_ID = '0x534e5f4d41494e';
export const TESTNET_CHAIN_ID = '0x534e5f5345504f4c4941';

export type ChainId = string;

export interface Network {
  name: string;
  chainId: ChainId;
}

/** Transaction details; every member is optional (SPEC 2.2). */
export interface TxDetails {
  nonce?: string | number;
  blockIdentifier?: string | number;
  maxFee?: string;
  tip?: string;
  paymasterData?: string[];
  accountDeploymentData?: string[];
  nonceDataAvailabilityMode?: string;
  feeDataAvailabilityMode?: string;
  version?: string | number;
  resourceBounds?: Record<string, unknown>;
  skipValidate?: boolean;
}

/** One call of a multicall (SPEC 2.3). The address member follows starknet.js: `contractAddress`. */
export interface Call {
  contractAddress: string;
  entrypoint: string;
  calldata?: string[];
}

export interface DeployAccountResult {
  address: string;
  transaction_hash: string;
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
}

export interface Erc20Balance {
  balancePending: string;
  balanceLatest: string;
}

export interface Token {
  address: string;
  symbol: string;
  decimals: number;
  logo?: string;
}

export interface DeclareSignature {
  signature: string[];
}

export interface AccountRecord {
  address: string;
  addressIndex: number;
  publicKey: string;
  addressSalt: string;
  deployTxnHash: string;
  derivationPath: string;
  chainId: ChainId;
}

export type TransactionStatus = 'RECEIVED' | 'PENDING' | 'ACCEPTED_ON_L2' | 'REJECTED' | string;

export interface TransactionRecord {
  txnHash: string;
  txnType: string;
  senderAddress: string;
  contractAddress: string;
  contractFuncName: string;
  contractCallData: string[];
  status: TransactionStatus;
  failureReason: string | null;
  eventIds: string[];
  timestamp: number;
  chainId: ChainId;
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

export interface DeclareTransactionDetails extends TxDetails {
  classHash: string;
  compiledClassHash?: string;
  senderAddress: string;
  chainId: ChainId;
}

export interface SignDeclareTransactionParams {
  address: string;
  chainId: ChainId;
  details: DeclareTransactionDetails;
  senderAddress: string;
}

export interface SignMessageParams {
  /** Typed data; an object is sent as its JSON string, as SPEC 4.1 declares a string. */
  typedDataMessage: string | TypedData;
  signerAddress: string;
  chainId?: ChainId;
}

export interface SignTransactionParams {
  address: string;
  chainId: ChainId;
  transactions: Call[];
  transactionsDetail?: TxDetails;
}

export interface SwitchNetworkParams {
  chainId: ChainId;
}

export interface VerifySignedMessageParams {
  typedDataMessage: string | TypedData;
  address: string;
  signature: string | string[];
  chainId?: ChainId;
}

/** Method name -> [params, result]. Drives the typed `invoke`. */
export interface SnapMethods {
  l2_createAccount: [CreateAccountParams | undefined, DeployAccountResult];
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
  l2_getErc20TokenBalance: [GetErc20TokenBalanceParams, Erc20Balance];
  l2_addErc20Token: [AddErc20TokenParams, Token];
  l2_getTransactions: [GetTransactionsParams, TransactionRecord[]];
  l2_getTransactionStatus: [GetTransactionStatusParams, TransactionStatus];
  l2_recoverAccounts: [RecoverAccountsParams | undefined, AccountRecord[]];
  l2_signDeclareTransaction: [SignDeclareTransactionParams, DeclareSignature];
  l2_signMessage: [SignMessageParams, string | string[]];
  l2_signTransaction: [SignTransactionParams, string[]];
  l2_switchNetwork: [SwitchNetworkParams, boolean];
  l2_verifySignedMessage: [VerifySignedMessageParams, boolean];
}

export type SnapMethodName = keyof SnapMethods;
