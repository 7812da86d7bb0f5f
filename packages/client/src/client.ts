import { SnapsNotSupportedError, WalletNotFoundError, toSnapError } from './errors';
import { discoverProvider, type DiscoverOptions, type Eip1193Provider } from './provider';
import type {
  AccountDeployFeeEstimate,
  AccountRecord,
  AddErc20TokenParams,
  CreateAccountParams,
  DeclareContractParams,
  DeclareResult,
  DeclareSignature,
  CreatedAccount,
  DeploymentData,
  DeployAccountResult,
  DisplayPrivateKeyParams,
  Erc20Balance,
  EstimateAccountDeployFeeParams,
  EstimateFeeParams,
  ExecuteResult,
  ExecuteTxnParams,
  ExtractPublicKeyParams,
  FeeEstimate,
  GetDeploymentDataParams,
  GetErc20TokenBalanceParams,
  GetTransactionStatusParams,
  GetTransactionsParams,
  Network,
  RecoverAccountsParams,
  SignDeclareTransactionParams,
  SignMessageParams,
  SignTransactionParams,
  SnapMethodName,
  SnapMethods,
  SwitchNetworkParams,
  Token,
  TransactionRecord,
  VerifySignedMessageParams,
} from './types';

export const DEFAULT_SNAP_ID = 'local:http://localhost:8085';

/** One entry of `wallet_getSnaps`. */
export interface InstalledSnap {
  id: string;
  version: string;
  enabled?: boolean;
  blocked?: boolean;
}

export interface SnapClientOptions {
  provider: Eip1193Provider;
  snapId?: string;
  /** Version range passed to wallet_requestSnaps; default '*' (any). */
  version?: string;
}

function stringifyTypedData<T extends { typedDataMessage: unknown }>(params: T): T {
  if (typeof params.typedDataMessage === 'string') return params;
  return { ...params, typedDataMessage: JSON.stringify(params.typedDataMessage) };
}

/** Typed access to the Starknet snap through an EIP-1193 provider. */
export class StarknetSnapClient {
  readonly provider: Eip1193Provider;
  readonly snapId: string;
  readonly version: string;

  constructor(options: SnapClientOptions) {
    this.provider = options.provider;
    this.snapId = options.snapId ?? DEFAULT_SNAP_ID;
    this.version = options.version ?? '*';
  }

  /** Discovers the wallet (EIP-6963, then window.ethereum) and builds a client on it. */
  static async discover(
    options: Omit<SnapClientOptions, 'provider'> & DiscoverOptions = {},
  ): Promise<StarknetSnapClient> {
    const found = await discoverProvider(options);
    if (!found) throw new WalletNotFoundError();
    return new StarknetSnapClient({ ...options, provider: found.provider });
  }

  private async raw(method: string, params?: unknown): Promise<unknown> {
    try {
      return await this.provider.request(params === undefined ? { method } : { method, params });
    } catch (error) {
      throw toSnapError(error);
    }
  }

  /**
   * The installed snaps; throws SnapsNotSupportedError when the wallet has no Snaps API
   * (wallet_getSnaps answers -32601 or 4200), and other failures mapped as by `invoke`.
   */
  async getSnaps(): Promise<Record<string, InstalledSnap>> {
    try {
      const result = await this.provider.request({ method: 'wallet_getSnaps' });
      return (result ?? {}) as Record<string, InstalledSnap>;
    } catch (error) {
      // Only "method not found" (-32601) and "unsupported method" (4200) mean the wallet has no
      // Snaps API; anything else (disconnected, internal error, ...) is reported as it is.
      const mapped = toSnapError(error);
      if (mapped.code !== -32601 && mapped.code !== 4200) throw mapped;
      throw new SnapsNotSupportedError(
        `This wallet cannot run snaps (wallet_getSnaps failed: ${mapped.message}). Use MetaMask Flask or a MetaMask version with Snaps support.`,
      );
    }
  }

  /** True when the wallet answers wallet_getSnaps. */
  async isSnapsSupported(): Promise<boolean> {
    try {
      await this.getSnaps();
      return true;
    } catch (error) {
      if (error instanceof SnapsNotSupportedError) return false;
      throw error;
    }
  }

  /** The installed snap with this client's id, or null. */
  async getInstalledSnap(): Promise<InstalledSnap | null> {
    const snaps = await this.getSnaps();
    return snaps[this.snapId] ?? null;
  }

  /** Installs or updates the snap (wallet_requestSnaps) and returns what is installed. */
  async connect(): Promise<InstalledSnap> {
    const result = (await this.raw('wallet_requestSnaps', {
      [this.snapId]: { version: this.version },
    })) as Record<string, InstalledSnap & { error?: unknown }>;
    const entry = result?.[this.snapId];
    if (!entry) throw toSnapError({ message: `The wallet did not install ${this.snapId}.` });
    if (entry.error) throw toSnapError(entry.error);
    return entry;
  }

  /** Calls one snap method through wallet_invokeSnap with typed params and result. */
  async invoke<M extends SnapMethodName>(
    method: M,
    ...args: undefined extends SnapMethods[M][0]
      ? [params?: SnapMethods[M][0]]
      : [params: SnapMethods[M][0]]
  ): Promise<SnapMethods[M][1]> {
    const params = args[0];
    const request = params === undefined ? { method } : { method, params };
    return (await this.raw('wallet_invokeSnap', {
      snapId: this.snapId,
      request,
    })) as SnapMethods[M][1];
  }

  /**
   * Without deploy: the derived account `{address, addressIndex}`; with deploy: true, `{address,
   * transaction_hash}`.
   */
  createAccount(params: CreateAccountParams & { deploy: true }): Promise<DeployAccountResult>;
  createAccount(params?: CreateAccountParams & { deploy?: false }): Promise<CreatedAccount>;
  createAccount(params?: CreateAccountParams): Promise<CreatedAccount | DeployAccountResult>;
  createAccount(params?: CreateAccountParams): Promise<CreatedAccount | DeployAccountResult> {
    return this.invoke('l2_createAccount', params);
  }

  declareContract(params: DeclareContractParams): Promise<DeclareResult> {
    return this.invoke('l2_declareContract', params);
  }

  displayPrivateKey(params: DisplayPrivateKeyParams): Promise<null> {
    return this.invoke('l2_displayPrivateKey', params);
  }

  estimateAccountDeployFee(
    params?: EstimateAccountDeployFeeParams,
  ): Promise<AccountDeployFeeEstimate> {
    return this.invoke('l2_estimateAccountDeployFee', params);
  }

  estimateFee(params: EstimateFeeParams): Promise<FeeEstimate> {
    return this.invoke('l2_estimateFee', params);
  }

  executeTxn(params: ExecuteTxnParams): Promise<ExecuteResult> {
    return this.invoke('l2_executeTxn', params);
  }

  extractPublicKey(params: ExtractPublicKeyParams): Promise<string> {
    return this.invoke('l2_extractPublicKey', params);
  }

  getCurrentNetwork(): Promise<Network> {
    return this.invoke('l2_getCurrentNetwork');
  }

  getDeploymentData(params: GetDeploymentDataParams): Promise<DeploymentData> {
    return this.invoke('l2_getDeploymentData', params);
  }

  getErc20TokenBalance(params: GetErc20TokenBalanceParams): Promise<Erc20Balance> {
    return this.invoke('l2_getErc20TokenBalance', params);
  }

  addErc20Token(params: AddErc20TokenParams): Promise<Token> {
    return this.invoke('l2_addErc20Token', params);
  }

  getTransactions(params: GetTransactionsParams): Promise<TransactionRecord[]> {
    return this.invoke('l2_getTransactions', params);
  }

  getTransactionStatus(params: GetTransactionStatusParams): Promise<TransactionRecord['status']> {
    return this.invoke('l2_getTransactionStatus', params);
  }

  recoverAccounts(params?: RecoverAccountsParams): Promise<AccountRecord[]> {
    return this.invoke('l2_recoverAccounts', params);
  }

  signDeclareTransaction(params: SignDeclareTransactionParams): Promise<DeclareSignature> {
    return this.invoke('l2_signDeclareTransaction', params);
  }

  /** Signs typed data; an object is sent as its JSON string. */
  signMessage(params: SignMessageParams): Promise<string> {
    return this.invoke('l2_signMessage', stringifyTypedData(params));
  }

  signTransaction(params: SignTransactionParams): Promise<string[]> {
    return this.invoke('l2_signTransaction', params);
  }

  switchNetwork(params: SwitchNetworkParams): Promise<boolean> {
    return this.invoke('l2_switchNetwork', params);
  }

  verifySignedMessage(params: VerifySignedMessageParams): Promise<boolean> {
    const withString = Array.isArray(params.signature)
      ? { ...params, signature: params.signature.join(',') }
      : params;
    return this.invoke('l2_verifySignedMessage', stringifyTypedData(withString));
  }
}
