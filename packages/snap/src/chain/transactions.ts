/**
 * v3 transactions (fees in STRK): the broadcast JSON the node wants, the hash starknet.js
 * computes, and the Argent signature [r, s]. Estimates use the same builders with the query
 * version (2^128 + 3), so a signature made for an estimate can never be replayed on chain.
 */
import { CallData, hash, type CompiledSierra } from 'starknet';

import { signWithPrivateKey } from '../keys/signing';
import { toHex } from '../rpc/structs';
import type { V3Details } from '../transactions/details';
import { executeCalldata } from '../transactions/hash';
import { boundsToRpc, ZERO_BOUNDS, type ResourceBounds } from './fees';

export const TX_VERSION = '0x3';
export const QUERY_TX_VERSION = '0x100000000000000000000000000000003';

export type ChainCall = { contractAddress: string; entrypoint: string; calldata: string[] };

export type SignedTransaction = {
  /** Transaction hash (0x-hex). */
  hash: string;
  /** BROADCASTED_TXN JSON for starknet_add*Transaction / estimateFee. */
  payload: Record<string, unknown>;
};

const daMode = (mode: 0 | 1 | undefined): 0 | 1 => (mode === 1 ? 1 : 0);
const daName = (mode: 0 | 1 | undefined): 'L1' | 'L2' => (mode === 1 ? 'L2' : 'L1');

function commonFields(details: V3Details): Record<string, unknown> {
  return {
    nonce: toHex(details.nonce),
    resource_bounds: boundsToRpc(details.resourceBounds),
    tip: toHex(details.tip),
    paymaster_data: details.paymasterData.map(toHex),
    nonce_data_availability_mode: daName(details.nonceDataAvailabilityMode),
    fee_data_availability_mode: daName(details.feeDataAvailabilityMode),
  };
}

function hashFields(details: V3Details): {
  nonce: bigint;
  nonceDataAvailabilityMode: 0 | 1;
  feeDataAvailabilityMode: 0 | 1;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: string[];
} {
  return {
    nonce: details.nonce,
    nonceDataAvailabilityMode: daMode(details.nonceDataAvailabilityMode),
    feeDataAvailabilityMode: daMode(details.feeDataAvailabilityMode),
    resourceBounds: details.resourceBounds,
    tip: details.tip,
    paymasterData: details.paymasterData,
  };
}

export type SignOptions = {
  chainId: string;
  privateKey: string;
  /** Estimates use the query version; with `sign: false` the signature is empty (SKIP_VALIDATE). */
  query?: boolean;
  sign?: boolean;
};

export function buildInvoke(
  senderAddress: string,
  calls: readonly ChainCall[],
  details: V3Details,
  options: SignOptions,
): SignedTransaction {
  const version = options.query ? QUERY_TX_VERSION : TX_VERSION;
  const calldata = executeCalldata(calls);
  const accountDeploymentData = (details.accountDeploymentData ?? []).map(toHex);
  const txHash = hash.calculateInvokeTransactionHash({
    senderAddress,
    version: version as never,
    compiledCalldata: calldata,
    chainId: options.chainId as never,
    accountDeploymentData,
    ...hashFields(details),
  });
  return {
    hash: toHex(txHash),
    payload: {
      type: 'INVOKE',
      version,
      sender_address: senderAddress,
      calldata,
      signature: options.sign === false ? [] : signWithPrivateKey(options.privateKey, txHash),
      account_deployment_data: accountDeploymentData,
      ...commonFields(details),
    },
  };
}

export type DeployAccountData = {
  address: string;
  classHash: string;
  salt: string;
  constructorCalldata: string[];
};

export function buildDeployAccount(
  account: DeployAccountData,
  details: V3Details,
  options: SignOptions,
): SignedTransaction {
  const version = options.query ? QUERY_TX_VERSION : TX_VERSION;
  const constructorCalldata = CallData.compile(account.constructorCalldata).map((value) =>
    toHex(value),
  );
  const txHash = hash.calculateDeployAccountTransactionHash({
    contractAddress: account.address,
    classHash: account.classHash,
    compiledConstructorCalldata: constructorCalldata,
    salt: account.salt,
    version: version as never,
    chainId: options.chainId as never,
    ...hashFields(details),
  });
  return {
    hash: toHex(txHash),
    payload: {
      type: 'DEPLOY_ACCOUNT',
      version,
      signature: options.sign === false ? [] : signWithPrivateKey(options.privateKey, txHash),
      contract_address_salt: toHex(account.salt),
      constructor_calldata: constructorCalldata,
      class_hash: toHex(account.classHash),
      ...commonFields(details),
    },
  };
}

export type DeclarePayload = {
  sierra: CompiledSierra;
  classHash: string;
  compiledClassHash: string;
};

export function buildDeclare(
  senderAddress: string,
  declare: DeclarePayload,
  details: V3Details,
  options: SignOptions,
): SignedTransaction {
  const version = options.query ? QUERY_TX_VERSION : TX_VERSION;
  const accountDeploymentData = (details.accountDeploymentData ?? []).map(toHex);
  const txHash = hash.calculateDeclareTransactionHash({
    classHash: declare.classHash,
    compiledClassHash: declare.compiledClassHash,
    senderAddress,
    version: version as never,
    chainId: options.chainId as never,
    accountDeploymentData,
    ...hashFields(details),
  });
  const sierra = declare.sierra;
  return {
    hash: toHex(txHash),
    payload: {
      type: 'DECLARE',
      version,
      signature: options.sign === false ? [] : signWithPrivateKey(options.privateKey, txHash),
      sender_address: senderAddress,
      compiled_class_hash: toHex(declare.compiledClassHash),
      contract_class: {
        sierra_program: sierra.sierra_program,
        contract_class_version: sierra.contract_class_version,
        entry_points_by_type: sierra.entry_points_by_type,
        abi: abiString(sierra.abi),
      },
      account_deployment_data: accountDeploymentData,
      ...commonFields(details),
    },
  };
}

/** Details for an estimate: the right nonce and zero bounds (an estimate does not charge). */
export function estimateDetails(nonce: bigint, base?: Partial<V3Details>): V3Details {
  return {
    nonce,
    resourceBounds: base?.resourceBounds ?? ZERO_BOUNDS,
    tip: base?.tip ?? 0n,
    paymasterData: base?.paymasterData ?? [],
    accountDeploymentData: base?.accountDeploymentData,
    nonceDataAvailabilityMode: base?.nonceDataAvailabilityMode,
    feeDataAvailabilityMode: base?.feeDataAvailabilityMode,
  };
}

/**
 * The ABI string a Sierra class carries on chain, formatted as starknet.js formats it for the
 * class hash (JSON with a space after every ':' and ',' outside strings), so the node computes
 * the same class hash the snap signed.
 */
export function abiString(abi: unknown): string {
  const parsed: unknown = typeof abi === 'string' ? JSON.parse(abi) : abi;
  const json = JSON.stringify(parsed);
  let insideQuotes = false;
  let out = '';
  for (let index = 0; index < json.length; index += 1) {
    const char = json[index];
    if (char === '"' && json[index - 1] !== '\\') {
      insideQuotes = !insideQuotes;
    }
    out += !insideQuotes && (char === ':' || char === ',') ? `${char} ` : char;
  }
  return out;
}
