/**
 * The Starknet wallet API (`request({type, params})`, the get-starknet v4 `StarknetWindowObject`)
 * mapped onto the snap's l2_* methods, typed by `@starknet-io/types-js`. Every failure is a
 * WalletApiError with the wallet API's code (wallet-errors.ts); a request is checked in full
 * before anything reaches the snap, so a refused payload sends and stores nothing.
 */
import type {
  AccountDeploymentData,
  AddDeclareTransactionParameters,
  AddInvokeTransactionParameters,
  AddStarknetChainParameters,
  API_VERSION,
  RequestFnCall,
  RpcMessage,
  RpcTypeToMessageMap,
  SpecVersion,
  StarknetWindowObject,
  SwitchStarknetChainParameters,
  TypedData as WalletTypedData,
  WalletEventHandlers,
  WatchAssetParameters,
} from '@starknet-io/types-js';

import type { StarknetSnapClient } from './client';
import { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID, type Call, type ChainId } from './types';
import {
  WalletApiError,
  invalidPayload,
  toWalletApiError,
  userRefused,
  type WalletApiErrorName,
} from './wallet-errors';

export type { StarknetWindowObject, WalletEventHandlers } from '@starknet-io/types-js';

/** A wallet API request type (`wallet_requestAccounts`, ...). */
export type WalletRequestType = RpcMessage['type'];
/** One wallet API request, as `request()` takes it. */
export type WalletRequest<T extends WalletRequestType = WalletRequestType> = RequestFnCall<T>;
/** The result of a wallet API request type. */
export type WalletResult<T extends WalletRequestType> = RpcTypeToMessageMap[T]['result'];

/** Wallet API versions this object implements (`api_version` accepts these, with any patch). */
export const SUPPORTED_WALLET_API_VERSIONS = ['0.7', '0.8'] as const satisfies API_VERSION[];
/** Starknet JSON-RPC versions the snap speaks to its node. */
export const SUPPORTED_SPEC_VERSIONS = ['0.9', '0.10'] as const satisfies SpecVersion[];
/** The wallet API requests this object answers. */
export const WALLET_API_METHODS = [
  'wallet_getPermissions',
  'wallet_requestAccounts',
  'wallet_requestChainId',
  'wallet_deploymentData',
  'wallet_addInvokeTransaction',
  'wallet_addDeclareTransaction',
  'wallet_signTypedData',
  'wallet_watchAsset',
  'wallet_switchStarknetChain',
  'wallet_addStarknetChain',
  'wallet_supportedSpecs',
  'wallet_supportedWalletApi',
] as const satisfies WalletRequestType[];

/** The networks the snap lists, by the short names the wallet API also accepts. */
export const LISTED_CHAINS: Readonly<Record<string, ChainId>> = {
  SN_MAIN: MAINNET_CHAIN_ID,
  SN_SEPOLIA: TESTNET_CHAIN_ID,
};

/** The wallet object of this package: a StarknetWindowObject whose account can be chosen. */
export interface SnapStarknetWindowObject extends StarknetWindowObject {
  /** Derivation index of the account the wallet requests act for (default 0). */
  readonly accountIndex: number;
  /** Whether the dapp connected (wallet_requestAccounts) and has not disconnected since. */
  readonly connected: boolean;
  /**
   * Acts for the account at `addressIndex` from now on (derived, not deployed, when new);
   * emits accountsChanged when the account changes. Returns the new account list.
   */
  selectAccount(addressIndex: number): Promise<string[]>;
  /** Forgets the connection: permissions are [] and silent requests get no account until the next connect. */
  disconnect(): void;
}

export interface StarknetWindowOptions {
  /** Derivation index of the account to act for at first (default 0); see selectAccount. */
  accountIndex?: number;
  id?: string;
  name?: string;
  version?: string;
  /** A `data:image/...` URL (the Wallet Standard requires one). */
  icon?: string;
  /**
   * The snap sends no events, so changes made elsewhere (e.g. in another tab) are found by
   * polling l2_getCurrentNetwork at this interval while a listener is registered. 0 disables.
   */
  pollIntervalMs?: number;
}

/** 32x32 rounded square with a triangle, base64 (the Wallet Standard's icon form). */
export const DEFAULT_WALLET_ICON =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzBjMGM0ZiIvPjxwYXRoIGQ9Ik05IDIxbDctMTIgNyAxMnoiIGZpbGw9IiNlYzc5NmIiLz48L3N2Zz4=';

const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** A felt as the wallet API allows it (hex or decimal string, number, bigint) -> 0x-hex. */
function feltHex(value: unknown, field: string): string {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value.trim()))
    parsed = BigInt(value.trim());
  if (parsed === undefined || parsed < 0n || parsed >= FIELD_PRIME)
    throw invalidPayload(
      field,
      `must be a felt (hex or decimal string, number or bigint below the field prime), got ${show(value)}`,
    );
  return `0x${parsed.toString(16)}`;
}

function show(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 60 ? `${text.slice(0, 60)}...` : text;
  } catch {
    return typeof value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The snap's canonical hex chain id for a listed network (short name or hex), else undefined. */
export function listedChainId(chainId: unknown): ChainId | undefined {
  if (typeof chainId !== 'string') return undefined;
  const trimmed = chainId.trim();
  if (LISTED_CHAINS[trimmed]) return LISTED_CHAINS[trimmed];
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(trimmed)) return undefined;
  const hex = `0x${BigInt(trimmed).toString(16)}`;
  return Object.values(LISTED_CHAINS).find((listed) => listed === hex);
}

function checkApiVersion(params: unknown): void {
  if (!isRecord(params) || params.api_version === undefined) return;
  const requested = params.api_version;
  const majorMinor =
    typeof requested === 'string' ? /^(\d+\.\d+)(\.\d+)?$/.exec(requested)?.[1] : undefined;
  if (!majorMinor || !(SUPPORTED_WALLET_API_VERSIONS as readonly string[]).includes(majorMinor))
    throw new WalletApiError(
      'API_VERSION_NOT_SUPPORTED',
      `api_version ${show(requested)} is not supported: this wallet implements ${SUPPORTED_WALLET_API_VERSIONS.join(', ')}`,
      show(requested),
    );
}

/** Params of a request without the wallet API's envelope member `api_version`. */
function withoutApiVersion<T>(params: T): T {
  if (!isRecord(params) || !('api_version' in params)) return params;
  const { api_version: _ignored, ...rest } = params;
  return rest as T;
}

function toSnapCalls(params: AddInvokeTransactionParameters): Call[] {
  if (!isRecord(params) || !Array.isArray(params.calls) || params.calls.length === 0)
    throw invalidPayload('calls', 'must be a non-empty array of calls');
  return params.calls.map((call, i) => {
    if (!isRecord(call)) throw invalidPayload(`calls[${i}]`, 'must be an object');
    const entrypoint = call.entry_point;
    if (typeof entrypoint !== 'string' || entrypoint.trim() === '')
      throw invalidPayload(`calls[${i}].entry_point`, 'must be a non-empty string');
    const calldata = (call.calldata as unknown) ?? [];
    if (!Array.isArray(calldata))
      throw invalidPayload(`calls[${i}].calldata`, 'must be an array of felts');
    return {
      contractAddress: feltHex(call.contract_address, `calls[${i}].contract_address`),
      entrypoint,
      calldata: calldata.map((felt, j) => feltHex(felt, `calls[${i}].calldata[${j}]`)),
    };
  });
}

function checkTypedData(params: unknown): WalletTypedData {
  if (!isRecord(params)) throw invalidPayload('params', 'must be typed data (an object)');
  for (const field of ['types', 'domain', 'message'] as const)
    if (!isRecord(params[field])) throw invalidPayload(field, 'must be an object');
  if (typeof params.primaryType !== 'string' || params.primaryType === '')
    throw invalidPayload('primaryType', 'must be a non-empty string');
  return params as unknown as WalletTypedData;
}

function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((value, i) => value === b[i]);
}

function checkIndex(addressIndex: number): number {
  if (!Number.isInteger(addressIndex) || addressIndex < 0)
    throw invalidPayload('addressIndex', 'must be a non-negative integer');
  return addressIndex;
}

type AccountsHandler = WalletEventHandlers['accountsChanged'];
type NetworkHandler = WalletEventHandlers['networkChanged'];

class SnapWalletObject implements SnapStarknetWindowObject {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly icon: string;
  private readonly client: StarknetSnapClient;
  private readonly pollIntervalMs: number;
  private readonly accountsHandlers = new Set<AccountsHandler>();
  private readonly networkHandlers = new Set<NetworkHandler>();
  private accounts: string[] | undefined;
  private chainId: ChainId | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private index: number;
  private pollGeneration = 0;
  private isConnected = false;

  constructor(client: StarknetSnapClient, options: StarknetWindowOptions) {
    this.client = client;
    this.id = options.id ?? 'metamask-starknet-snap';
    this.name = options.name ?? 'MetaMask Starknet Snap';
    this.version = options.version ?? '1.0.0';
    this.icon = options.icon ?? DEFAULT_WALLET_ICON;
    this.pollIntervalMs = options.pollIntervalMs ?? 0;
    this.index = checkIndex(options.accountIndex ?? 0);
    // Bound: dapps pass these around detached (e.g. get-starknet's `request` feature).
    this.request = this.request.bind(this) as typeof this.request;
    this.on = this.on.bind(this) as typeof this.on;
    this.off = this.off.bind(this) as typeof this.off;
  }

  get accountIndex(): number {
    return this.index;
  }

  get connected(): boolean {
    return this.isConnected;
  }

  async selectAccount(addressIndex: number): Promise<string[]> {
    this.index = checkIndex(addressIndex);
    return this.currentAccounts().catch((error) => {
      throw toWalletApiError(error);
    });
  }

  disconnect(): void {
    this.isConnected = false;
    this.accounts = undefined;
  }

  async request<T extends WalletRequestType>(call: WalletRequest<T>): Promise<WalletResult<T>> {
    try {
      if (!isRecord(call) || typeof call.type !== 'string')
        throw invalidPayload('type', 'must name a wallet API request');
      checkApiVersion(call.params);
      return (await this.dispatch(call.type, call.params)) as WalletResult<T>;
    } catch (error) {
      throw toWalletApiError(error);
    }
  }

  private async dispatch(type: string, params: unknown): Promise<unknown> {
    switch (type) {
      case 'wallet_getPermissions':
        return this.isConnected ? ['accounts'] : [];
      case 'wallet_requestAccounts':
        return this.requestAccounts(isRecord(params) && params.silent_mode === true);
      case 'wallet_requestChainId':
        return this.currentChainId();
      case 'wallet_deploymentData':
        return this.deploymentData();
      case 'wallet_addInvokeTransaction': {
        const calls = toSnapCalls(params as AddInvokeTransactionParameters);
        const [address] = await this.currentAccounts();
        return this.client.executeTxn({ address, calls, chainId: await this.currentChainId() });
      }
      case 'wallet_addDeclareTransaction':
        return this.declare(params as AddDeclareTransactionParameters);
      case 'wallet_signTypedData': {
        const typedData = checkTypedData(withoutApiVersion(params));
        const [signerAddress] = await this.currentAccounts();
        const signature = await this.client.signMessage({
          typedDataMessage: typedData as never,
          signerAddress,
          chainId: await this.currentChainId(),
        });
        return Array.isArray(signature) ? signature : signature.split(',');
      }
      case 'wallet_watchAsset':
        return this.watchAsset(params as WatchAssetParameters);
      case 'wallet_switchStarknetChain':
        return this.switchChain(params as SwitchStarknetChainParameters);
      case 'wallet_addStarknetChain': {
        const chain = params as AddStarknetChainParameters;
        if (!isRecord(chain)) throw invalidPayload('params', 'must describe a chain');
        if (listedChainId(chain.chain_id) === undefined)
          throw invalidPayload(
            'chain_id',
            `${show(chain.chain_id)} cannot be added: this wallet works on the networks it lists only (${Object.keys(LISTED_CHAINS).join(', ')})`,
          );
        return true;
      }
      case 'wallet_supportedSpecs':
        return [...SUPPORTED_SPEC_VERSIONS];
      case 'wallet_supportedWalletApi':
        return [...SUPPORTED_WALLET_API_VERSIONS];
      default:
        throw new WalletApiError('UNKNOWN_ERROR', `This wallet does not implement ${show(type)}`);
    }
  }

  /**
   * Connects (installing the snap first when this site has not got it yet); in silent mode
   * nothing is asked and [] comes back unless the dapp is connected.
   */
  private async requestAccounts(silent: boolean): Promise<string[]> {
    if (silent && !this.isConnected) return [];
    if (!silent && !(await this.client.getInstalledSnap())) await this.client.connect();
    const accounts = await this.currentAccounts();
    this.isConnected = true;
    return accounts;
  }

  private async deploymentData(): Promise<AccountDeploymentData> {
    const [address] = await this.currentAccounts();
    const data = await this.client.getDeploymentData({
      address,
      chainId: await this.currentChainId(),
    });
    if (data.deployed)
      throw new WalletApiError(
        'ACCOUNT_ALREADY_DEPLOYED',
        `The account ${data.address} is already deployed`,
      );
    const { deployed: _deployed, ...deployment } = data;
    return deployment;
  }

  private async declare(params: AddDeclareTransactionParameters) {
    if (!isRecord(params)) throw invalidPayload('params', 'must be an object');
    if (!isRecord(params.contract_class))
      throw invalidPayload('contract_class', 'must be a Sierra contract class object');
    const compiledClassHash = feltHex(params.compiled_class_hash, 'compiled_class_hash');
    const classHash =
      params.class_hash === undefined ? undefined : feltHex(params.class_hash, 'class_hash');
    const [senderAddress] = await this.currentAccounts();
    return this.client.declareContract({
      senderAddress,
      chainId: await this.currentChainId(),
      contractPayload: {
        contract: params.contract_class,
        compiledClassHash,
        ...(classHash ? { classHash } : {}),
      },
    });
  }

  private async watchAsset(params: WatchAssetParameters): Promise<boolean> {
    if (!isRecord(params)) throw invalidPayload('params', 'must be an asset');
    if (params.type !== 'ERC20')
      throw invalidPayload('type', `must be "ERC20", got ${show(params.type)}`);
    if (!isRecord(params.options)) throw invalidPayload('options', 'must be an object');
    const { address, symbol, decimals, name, image } = params.options;
    const tokenAddress = feltHex(address, 'options.address');
    // The snap reads nothing from the token contract: it needs the symbol to show it.
    if (typeof symbol !== 'string' || symbol.trim() === '')
      throw invalidPayload('options.symbol', 'is required by this wallet');
    if (decimals !== undefined && (!Number.isInteger(decimals) || decimals < 0 || decimals > 255))
      throw invalidPayload('options.decimals', 'must be an integer from 0 to 255');
    if (name !== undefined && typeof name !== 'string')
      throw invalidPayload('options.name', 'must be a string');
    if (image !== undefined && typeof image !== 'string')
      throw invalidPayload('options.image', 'must be a URL string');
    const [account] = await this.currentAccounts();
    await this.client.addErc20Token({
      address: account,
      chainId: await this.currentChainId(),
      tokenAddress,
      tokenName: name ?? symbol,
      tokenSymbol: symbol,
      ...(decimals !== undefined ? { tokenDecimals: decimals } : {}),
      ...(image ? { tokenLogo: image } : {}),
    });
    return true;
  }

  private async switchChain(params: SwitchStarknetChainParameters): Promise<boolean> {
    if (!isRecord(params) || params.chainId === undefined)
      throw invalidPayload('chainId', 'is required');
    const target = listedChainId(params.chainId);
    if (!target)
      throw new WalletApiError(
        'UNLISTED_NETWORK',
        `The network ${show(params.chainId)} is not listed in this wallet (it lists ${Object.keys(LISTED_CHAINS).join(', ')})`,
      );
    // Read before switching: a chain id not known yet would hide the change.
    const before = this.chainId ?? (await this.currentChainId());
    if (before === target) return true;
    if (!(await this.client.switchNetwork({ chainId: target })))
      throw userRefused('The user declined to switch the network.');
    await this.refresh(before);
    return true;
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
  private async currentAccounts(): Promise<string[]> {
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
          accounts = await this.currentAccounts();
        } catch {
          accounts = undefined;
        }
      }
      for (const handler of this.networkHandlers) handler(chainId, accounts);
    }
  }

  on<E extends keyof WalletEventHandlers>(event: E, handler: WalletEventHandlers[E]): void {
    if (event === 'accountsChanged') this.accountsHandlers.add(handler as AccountsHandler);
    else if (event === 'networkChanged') this.networkHandlers.add(handler as NetworkHandler);
    else throw invalidPayload('event', `must be accountsChanged or networkChanged`);
    if (this.chainId === undefined) this.currentChainId().catch(() => undefined);
    this.updatePolling();
  }

  off<E extends keyof WalletEventHandlers>(event: E, handler: WalletEventHandlers[E]): void {
    if (event === 'accountsChanged') this.accountsHandlers.delete(handler as AccountsHandler);
    else if (event === 'networkChanged') this.networkHandlers.delete(handler as NetworkHandler);
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

/** Builds the wallet-API object (get-starknet v4 `StarknetWindowObject`) on top of a snap client. */
export function createStarknetWindowObject(
  client: StarknetSnapClient,
  options: StarknetWindowOptions = {},
): SnapStarknetWindowObject {
  return new SnapWalletObject(client, options);
}

/** The wallet API error names, for callers that switch on them. */
export type { WalletApiErrorName };
