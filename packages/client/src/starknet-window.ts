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

/** The wallet object of this package: a StarknetWindowObject whose account can be chosen. */
export interface SnapStarknetWindowObject extends StarknetWindowObject {
  /** Derivation index of the account the wallet requests act for (default 0). */
  readonly accountIndex: number;
  /**
   * Acts for the account at `addressIndex` from now on (derived, not deployed, when new);
   * emits accountsChanged when the account changes. Returns the new account list.
   */
  selectAccount(addressIndex: number): Promise<string[]>;
}

export interface StarknetWindowOptions {
  /** Derivation index of the account to act for at first (default 0); see selectAccount. */
  accountIndex?: number;
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

class SnapWalletObject implements SnapStarknetWindowObject {
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
  private timer: ReturnType<typeof setTimeout> | undefined;
  private index: number;
  private pollGeneration = 0;

  constructor(client: StarknetSnapClient, options: StarknetWindowOptions) {
    this.client = client;
    this.id = options.id ?? 'metamask-starknet-snap';
    this.name = options.name ?? 'MetaMask Starknet Snap';
    this.version = options.version ?? 'v1.0.0';
    this.icon = options.icon ?? DEFAULT_ICON;
    this.pollIntervalMs = options.pollIntervalMs ?? 0;
    this.index = checkIndex(options.accountIndex ?? 0);
  }

  get accountIndex(): number {
    return this.index;
  }

  async selectAccount(addressIndex: number): Promise<string[]> {
    this.index = checkIndex(addressIndex);
    return this.requestAccounts();
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
        // Read before switching: a chain id not known yet would hide the change.
        const before = this.chainId ?? (await this.currentChainId());
        const switched = await this.client.switchNetwork({ chainId });
        if (switched) await this.refresh(before);
        return switched;
      }
      case 'wallet_watchAsset': {
        const params = call.params as WatchAssetParams;
        if (params?.type !== 'ERC20')
          throw new InvalidParamsError('only ERC20 assets are supported');
        const { address: tokenAddress, symbol, decimals, name, image } = params.options ?? {};
        if (typeof symbol !== 'string' || symbol.trim() === '')
          throw new InvalidParamsError('options.symbol is required');
        const [address] = await this.requestAccounts();
        await this.client.addErc20Token({
          address,
          chainId: await this.currentChainId(),
          tokenAddress,
          tokenName: name ?? symbol,
          tokenSymbol: symbol,
          tokenDecimals: decimals,
          ...(image ? { tokenLogo: image } : {}),
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

  /**
   * The selected account (index 0 unless selectAccount chose another) on the current network.
   * createAccount without deploy is idempotent and offline: it derives the account (storing it
   * when new) and sends nothing to the chain.
   */
  private async requestAccounts(): Promise<string[]> {
    const chainId = await this.currentChainId();
    const created = await this.client.createAccount({
      addressIndex: this.index,
      deploy: false,
      chainId,
    });
    const accounts = [created.address];
    this.noteAccounts(accounts);
    return accounts;
  }

  private noteAccounts(accounts: string[]) {
    const changed = this.accounts !== undefined && !sameList(this.accounts, accounts);
    this.accounts = accounts;
    if (changed) for (const handler of this.accountsHandlers) handler(accounts);
  }

  /** Re-reads the network; emits networkChanged (and accountsChanged) when it moved. */
  private async refresh(before: ChainId | undefined = this.chainId): Promise<void> {
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

  private listening(): boolean {
    return this.accountsHandlers.size + this.networkHandlers.size > 0;
  }

  /** One poll at a time: the next is scheduled only once the previous one has settled. */
  private updatePolling() {
    if (this.listening() && this.pollIntervalMs > 0 && this.timer === undefined) {
      const generation = ++this.pollGeneration;
      const tick = () => {
        this.refresh()
          .catch(() => undefined)
          .finally(() => {
            if (generation !== this.pollGeneration || this.timer === undefined) return; // stopped
            this.timer = setTimeout(tick, this.pollIntervalMs);
          });
      };
      this.timer = setTimeout(tick, this.pollIntervalMs);
    } else if (!this.listening() && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}

function checkIndex(addressIndex: number): number {
  if (!Number.isInteger(addressIndex) || addressIndex < 0)
    throw new InvalidParamsError('addressIndex must be a non-negative integer');
  return addressIndex;
}

/** Builds the get-starknet style wallet object on top of a snap client. */
export function createStarknetWindowObject(
  client: StarknetSnapClient,
  options: StarknetWindowOptions = {},
): SnapStarknetWindowObject {
  return new SnapWalletObject(client, options);
}
