/**
 * What the wallet object declares about itself: the request types it answers, the versions it
 * speaks, the networks it lists and its default icon.
 */
import type {
  API_VERSION,
  RequestFnCall,
  RpcMessage,
  RpcTypeToMessageMap,
  SpecVersion,
} from '@starknet-io/types-js';

// The snap's list itself, from its own small module (a dapp bundle carries these two strings).
import { SUPPORTED_SPEC_VERSIONS as SNAP_SPEC_VERSIONS } from '@l2wallet/starknet-protocol/dist/specVersions';

import { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID, type ChainId } from '../types';

export type { StarknetWindowObject, WalletEventHandlers } from '@starknet-io/types-js';

/** A wallet API request type (`wallet_requestAccounts`, ...). */
export type WalletRequestType = RpcMessage['type'];
/** One wallet API request, as `request()` takes it. */
export type WalletRequest<T extends WalletRequestType = WalletRequestType> = RequestFnCall<T>;
/** The result of a wallet API request type. */
export type WalletResult<T extends WalletRequestType> = RpcTypeToMessageMap[T]['result'];

/** Wallet API versions this object implements (`api_version` accepts these, with any patch). */
export const SUPPORTED_WALLET_API_VERSIONS = [
  '0.7',
  '0.8',
  '0.10',
] as const satisfies API_VERSION[];
/** Starknet JSON-RPC versions the snap speaks to its node. */
export const SUPPORTED_SPEC_VERSIONS = SNAP_SPEC_VERSIONS satisfies readonly SpecVersion[];
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
  // Wallet API 0.10's STRK20 privacy requests: answered NOT_REGISTERED (router.ts).
  'wallet_strk20InvokeTransaction',
  'wallet_strk20PrepareInvoke',
  'wallet_strk20Balances',
  'wallet_strk20ShadowAccountCommitment',
] as const satisfies WalletRequestType[];

/** The networks the snap lists, by the short names the wallet API also accepts. */
export const LISTED_CHAINS: Readonly<Record<string, ChainId>> = {
  SN_MAIN: MAINNET_CHAIN_ID,
  SN_SEPOLIA: TESTNET_CHAIN_ID,
};

/** The snap's canonical hex chain id for a listed network (short name or hex), else undefined. */
export function listedChainId(chainId: unknown): ChainId | undefined {
  if (typeof chainId !== 'string') return undefined;
  const trimmed = chainId.trim();
  if (LISTED_CHAINS[trimmed]) return LISTED_CHAINS[trimmed];
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(trimmed)) return undefined;
  const hex = `0x${BigInt(trimmed).toString(16)}`;
  return Object.values(LISTED_CHAINS).find((listed) => listed === hex);
}

/** 32x32 rounded square with a triangle, base64 (the Wallet Standard's icon form). */
export const DEFAULT_WALLET_ICON =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzBjMGM0ZiIvPjxwYXRoIGQ9Ik05IDIxbDctMTIgNyAxMnoiIGZpbGw9IiNlYzc5NmIiLz48L3N2Zz4=';
