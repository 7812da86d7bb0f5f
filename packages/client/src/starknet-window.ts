/**
 * A get-starknet style wallet object (StarknetWindowObject, wallet API `request({type, params})`)
 * mapped onto the snap, so existing Starknet dapps can talk to it.
 */
import type { StarknetSnapClient } from './client';
import { InvalidParamsError, SnapError } from './errors';
import type { Call, ChainId, TypedData } from './types';

/** A call in the wallet API's shape (snake_case, as in get-starknet / starknet-types). */
export interface WalletApiCall {
  contract_address: string;
  entry_point: string;
  calldata?: string[];
}

export interface AddInvokeTransactionParams {
  calls: WalletApiCall[];
}

export interface AddDeclareTransactionParams {
  compiled_class_hash: string;
  class_hash?: string;
  contract_class: unknown;
}

export interface WatchAssetParams {
  type: 'ERC20';
  options: {
    address: string;
    symbol?: string;
    decimals?: number;
    image?: string;
    name?: string;
  };
}

export interface SwitchStarknetChainParams {
  chainId: ChainId;
}

export interface RequestAccountsParams {
  silent_mode?: boolean;
}

/** Request type -> [params, result]. */
export interface WalletRpcMethods {
  wallet_requestAccounts: [RequestAccountsParams | undefined, string[]];
  wallet_requestChainId: [undefined, ChainId];
  wallet_addInvokeTransaction: [AddInvokeTransactionParams, { transaction_hash: string }];
  wallet_addDeclareTransaction: [
    AddDeclareTransactionParams,
    { transaction_hash: string; class_hash: string },
  ];
  wallet_signTypedData: [TypedData, string[]];
  wallet_switchStarknetChain: [SwitchStarknetChainParams, boolean];
  wallet_watchAsset: [WatchAssetParams, boolean];
}

export type WalletRpcType = keyof WalletRpcMethods;

export type WalletRequest<T extends WalletRpcType = WalletRpcType> =
  undefined extends WalletRpcMethods[T][0]
    ? { type: T; params?: WalletRpcMethods[T][0] }
    : { type: T; params: WalletRpcMethods[T][0] };

export type AccountsChangeHandler = (accounts?: string[]) => void;
export type NetworkChangeHandler = (chainId?: ChainId, accounts?: string[]) => void;

export interface WalletEvents {
  accountsChanged: AccountsChangeHandler;
  networkChanged: NetworkChangeHandler;
}

export interface StarknetWindowObject {
  id: string;
  name: string;
  version: string;
  icon: string;
  request<T extends WalletRpcType>(call: WalletRequest<T>): Promise<WalletRpcMethods[T][1]>;
  on<E extends keyof WalletEvents>(event: E, handler: WalletEvents[E]): void;
  off<E extends keyof WalletEvents>(event: E, handler: WalletEvents[E]): void;
}

export interface StarknetWindowOptions {
  id?: string;
  name?: string;
  version?: string;
  icon?: string;
  /**
   * The snap sends no events, so changes made elsewhere (e.g. in another tab) are found by
   * polling l2_getCurrentNetwork at this interval while a listener is registered. 0 disables.
   */
  pollIntervalMs?: number;
}

const DEFAULT_ICON =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0c0c4f"/><path d="M9 21l7-12 7 12z" fill="#ec796b"/></svg>',
  );

function toSnapCall(call: WalletApiCall): Call {
  return {
    contractAddress: call.contract_address,
    entrypoint: call.entry_point,
    calldata: call.calldata ?? [],
  };
}

function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((value, i) => value === b[i]);
}

class SnapWalletObject implements StarknetWindowObject {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly icon: string;
  private readonly client: StarknetSnapClient;
  private readonly pollIntervalMs: number;
  private readonly accountsHandlers = new Set<AccountsChangeHandler>();
  private readonly networkHandlers = new Set<NetworkChangeHandler>();
  private accounts: string[] | undefined;
  private chainId: ChainId | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(client: StarknetSnapClient, options: StarknetWindowOptions) {
    this.client = client;
    this.id = options.id ?? 'metamask-starknet-snap';
    this.name = options.name ?? 'MetaMask Starknet Snap';
    this.version = options.version ?? 'v1.0.0';
    this.icon = options.icon ?? DEFAULT_ICON;
    this.pollIntervalMs = options.pollIntervalMs ?? 0;
  }

  async request<T extends WalletRpcType>(call: WalletRequest<T>): Promise<WalletRpcMethods[T][1]> {
    const result = await this.dispatch(call as WalletRequest);
    return result as WalletRpcMethods[T][1];
  }

  private async dispatch(call: WalletRequest): Promise<unknown> {
    switch (call.type) {
      case 'wallet_requestAccounts':
        return this.requestAccounts();
      case 'wallet_requestChainId':
        return this.currentChainId();
      case 'wallet_addInvokeTransaction': {
        const params = call.params as AddInvokeTransactionParams;
        if (!Array.isArray(params?.calls)) throw new InvalidParamsError('calls must be an array');
        const [address] = await this.requestAccounts();
        return this.client.executeTxn({
          address,
          calls: params.calls.map(toSnapCall),
          chainId: await this.currentChainId(),
        });
      }
      case 'wallet_addDeclareTransaction': {
        const params = call.params as AddDeclareTransactionParams;
        if (!params?.contract_class) throw new InvalidParamsError('contract_class is required');
        const [senderAddress] = await this.requestAccounts();
        return this.client.declareContract({
          senderAddress,
          chainId: await this.currentChainId(),
          contractPayload: {
            contract: params.contract_class,
            compiledClassHash: params.compiled_class_hash,
            ...(params.class_hash ? { classHash: params.class_hash } : {}),
          },
        });
      }
      case 'wallet_signTypedData': {
        const [signerAddress] = await this.requestAccounts();
        const signature = await this.client.signMessage({
          typedDataMessage: call.params as TypedData,
          signerAddress,
          chainId: await this.currentChainId(),
        });
        return Array.isArray(signature) ? signature : signature.split(',');
      }
      case 'wallet_switchStarknetChain': {
        const { chainId } = call.params as SwitchStarknetChainParams;
        const switched = await this.client.switchNetwork({ chainId });
        if (switched) await this.refresh();
        return switched;
      }
      case 'wallet_watchAsset': {
        const params = call.params as WatchAssetParams;
        if (params?.type !== 'ERC20')
          throw new InvalidParamsError('only ERC20 assets are supported');
        const { address: tokenAddress, symbol, decimals, name } = params.options;
        const [address] = await this.requestAccounts();
        await this.client.addErc20Token({
          address,
          chainId: await this.currentChainId(),
          tokenAddress,
          tokenName: name ?? symbol ?? tokenAddress,
          tokenSymbol: symbol ?? '',
          tokenDecimals: decimals,
        });
        return true;
      }
      default:
        throw new SnapError(
          `Unsupported wallet request type: ${(call as { type: string }).type}`,
          -32601,
        );
    }
  }

  private async currentChainId(): Promise<ChainId> {
    const network = await this.client.getCurrentNetwork();
    this.chainId = network.chainId;
    return network.chainId;
  }

  /** The first account (index 0) on the current network; created when there is none yet. */
  private async requestAccounts(): Promise<string[]> {
    const chainId = await this.currentChainId();
    const records = await this.client.recoverAccounts({
      startScanIndex: 0,
      maxScanned: 1,
      maxMissed: 1,
      chainId,
    });
    let accounts = records.map((record) => record.address);
    if (accounts.length === 0) {
      const created = await this.client.createAccount({ addressIndex: 0, deploy: false, chainId });
      accounts = [created.address];
    }
    this.noteAccounts(accounts);
    return accounts;
  }

  private noteAccounts(accounts: string[]) {
    const changed = this.accounts !== undefined && !sameList(this.accounts, accounts);
    this.accounts = accounts;
    if (changed) for (const handler of this.accountsHandlers) handler(accounts);
  }

  /** Re-reads the network; emits networkChanged (and accountsChanged) when it moved. */
  private async refresh(): Promise<void> {
    const before = this.chainId;
    const chainId = await this.currentChainId();
    if (before !== undefined && before !== chainId) {
      let accounts: string[] | undefined;
      if (this.accounts !== undefined) {
        try {
          accounts = await this.requestAccounts();
        } catch {
          accounts = undefined;
        }
      }
      for (const handler of this.networkHandlers) handler(chainId, accounts);
    }
  }

  on<E extends keyof WalletEvents>(event: E, handler: WalletEvents[E]): void {
    if (event === 'accountsChanged') this.accountsHandlers.add(handler as AccountsChangeHandler);
    else if (event === 'networkChanged') this.networkHandlers.add(handler as NetworkChangeHandler);
    else throw new InvalidParamsError(`Unknown event: ${String(event)}`);
    if (this.chainId === undefined) this.currentChainId().catch(() => undefined);
    this.updatePolling();
  }

  off<E extends keyof WalletEvents>(event: E, handler: WalletEvents[E]): void {
    if (event === 'accountsChanged') this.accountsHandlers.delete(handler as AccountsChangeHandler);
    else if (event === 'networkChanged')
      this.networkHandlers.delete(handler as NetworkChangeHandler);
    this.updatePolling();
  }

  private updatePolling() {
    const listening = this.accountsHandlers.size + this.networkHandlers.size > 0;
    if (listening && this.pollIntervalMs > 0 && this.timer === undefined) {
      this.timer = setInterval(() => {
        this.refresh().catch(() => undefined);
      }, this.pollIntervalMs);
    } else if (!listening && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** Builds the get-starknet style wallet object on top of a snap client. */
export function createStarknetWindowObject(
  client: StarknetSnapClient,
  options: StarknetWindowOptions = {},
): StarknetWindowObject {
  return new SnapWalletObject(client, options);
}
