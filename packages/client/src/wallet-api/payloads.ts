/**
 * Each request's params checked in full and turned into the snap's params, before anything is
 * sent: a refused payload is a 114 naming the field (or 162 for `api_version`). Pure: no client.
 */
import type {
  AddDeclareTransactionParameters,
  AddInvokeTransactionParameters,
  AddStarknetChainParameters,
  SwitchStarknetChainParameters,
  TypedData as WalletTypedData,
  WatchAssetParameters,
} from '@starknet-io/types-js';

import type { AddErc20TokenParams, Call, ChainId, ContractPayload } from '../types';
import {
  LISTED_CHAINS,
  SUPPORTED_WALLET_API_VERSIONS,
  WALLET_API_METHODS,
  listedChainId,
} from './constants';
import { WalletApiError, invalidPayload } from './errors';

export type WalletApiMethod = (typeof WALLET_API_METHODS)[number];

const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** A value as an error message quotes it: JSON, cut at 60 characters. */
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

/** 162 unless `api_version` is absent or one of ours (any patch). */
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

/**
 * The request `{type, params}` a dapp sent: a type this wallet answers (else 163), and an
 * `api_version`, when given, that it speaks (else 162).
 */
export function checkRequest(call: unknown): { type: WalletApiMethod; params: unknown } {
  if (!isRecord(call) || typeof call.type !== 'string')
    throw invalidPayload('type', 'must name a wallet API request');
  checkApiVersion(call.params);
  const type = call.type as WalletApiMethod;
  if (!WALLET_API_METHODS.includes(type))
    throw new WalletApiError('UNKNOWN_ERROR', `This wallet does not implement ${show(type)}`);
  return { type, params: call.params };
}

/** Params of a request without the wallet API's envelope member `api_version`. */
function withoutApiVersion<T>(params: T): T {
  if (!isRecord(params) || !('api_version' in params)) return params;
  const { api_version: _ignored, ...rest } = params;
  return rest as T;
}

export function checkIndex(addressIndex: number): number {
  if (!Number.isInteger(addressIndex) || addressIndex < 0)
    throw invalidPayload('addressIndex', 'must be a non-negative integer');
  return addressIndex;
}

/**
 * wallet_requestAccounts: whether the dapp asked for silent mode (nothing is asked of the user).
 */
export function isSilent(params: unknown): boolean {
  return isRecord(params) && params.silent_mode === true;
}

/** wallet_switchStarknetChain: the listed network to switch to (else 112). */
export function toSwitchTarget(params: SwitchStarknetChainParameters): ChainId {
  if (!isRecord(params) || params.chainId === undefined)
    throw invalidPayload('chainId', 'is required');
  const target = listedChainId(params.chainId);
  if (!target)
    throw new WalletApiError(
      'UNLISTED_NETWORK',
      `The network ${show(params.chainId)} is not listed in this wallet (it lists ${Object.keys(LISTED_CHAINS).join(', ')})`,
    );
  return target;
}

/** wallet_addStarknetChain: only a network the wallet lists already can be "added". */
export function checkAddedChain(params: AddStarknetChainParameters): void {
  if (!isRecord(params)) throw invalidPayload('params', 'must describe a chain');
  if (listedChainId(params.chain_id) === undefined)
    throw invalidPayload(
      'chain_id',
      `${show(params.chain_id)} cannot be added: this wallet works on the networks it lists only (${Object.keys(LISTED_CHAINS).join(', ')})`,
    );
}

/** wallet_addInvokeTransaction: the wallet API's calls as the snap's (every felt as 0x-hex). */
export function toSnapCalls(params: AddInvokeTransactionParameters): Call[] {
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

/** wallet_addDeclareTransaction: the snap's contract payload. */
export function toDeclarePayload(params: AddDeclareTransactionParameters): ContractPayload {
  if (!isRecord(params)) throw invalidPayload('params', 'must be an object');
  if (!isRecord(params.contract_class))
    throw invalidPayload('contract_class', 'must be a Sierra contract class object');
  const compiledClassHash = feltHex(params.compiled_class_hash, 'compiled_class_hash');
  const classHash =
    params.class_hash === undefined ? undefined : feltHex(params.class_hash, 'class_hash');
  return {
    contract: params.contract_class,
    compiledClassHash,
    ...(classHash ? { classHash } : {}),
  };
}

/** wallet_signTypedData: the typed data (`api_version` is not part of what is signed). */
export function toTypedData(params: unknown): WalletTypedData {
  const typedData = withoutApiVersion(params);
  if (!isRecord(typedData)) throw invalidPayload('params', 'must be typed data (an object)');
  for (const field of ['types', 'domain', 'message'] as const)
    if (!isRecord(typedData[field])) throw invalidPayload(field, 'must be an object');
  if (typeof typedData.primaryType !== 'string' || typedData.primaryType === '')
    throw invalidPayload('primaryType', 'must be a non-empty string');
  return typedData as unknown as WalletTypedData;
}

/** wallet_watchAsset: the snap's token params, without the account and chain. */
export function toWatchedToken(
  params: WatchAssetParameters,
): Omit<AddErc20TokenParams, 'address' | 'chainId'> {
  if (!isRecord(params)) throw invalidPayload('params', 'must be an asset');
  if (params.type !== 'ERC20')
    throw invalidPayload('type', `must be "ERC20", got ${show(params.type)}`);
  if (!isRecord(params.options)) throw invalidPayload('options', 'must be an object');
  const { address, symbol, decimals, name, image } = params.options;
  const tokenAddress = feltHex(address, 'options.address');
  // docs/interface/snap.md#l2_adderc20token requires tokenSymbol; the snap checks it (and decimals)
  // against the token contract.
  if (typeof symbol !== 'string' || symbol.trim() === '')
    throw invalidPayload('options.symbol', 'is required by this wallet');
  if (decimals !== undefined && (!Number.isInteger(decimals) || decimals < 0 || decimals > 255))
    throw invalidPayload('options.decimals', 'must be an integer from 0 to 255');
  if (name !== undefined && typeof name !== 'string')
    throw invalidPayload('options.name', 'must be a string');
  if (image !== undefined && typeof image !== 'string')
    throw invalidPayload('options.image', 'must be a URL string');
  return {
    tokenAddress,
    tokenName: name ?? symbol,
    tokenSymbol: symbol,
    ...(decimals !== undefined ? { tokenDecimals: decimals } : {}),
    ...(image ? { tokenLogo: image } : {}),
  };
}
