/**
 * v3 transactions: the one builder and hasher. Each builder gives the hash starknet.js computes
 * and the broadcast JSON the node wants, unsigned (`withSignature` adds the signature): the
 * signing methods use the hash alone, the send path signs it and submits the payload. Estimates
 * use the query version (2^128 + 3), so a signature made for an estimate is never valid on chain.
 */
import { CallData, hash, transaction, type CompiledSierra } from 'starknet';

import type { V3Details } from './details';
import { boundsToRpc } from './fees';
import { toHex } from './felt';

export const TX_VERSION = '0x3';
export const QUERY_TX_VERSION = '0x100000000000000000000000000000003';
export type TxVersion = typeof TX_VERSION | typeof QUERY_TX_VERSION;

/** A call as the snap's accounts execute it. */
export type TxCall = {
  contractAddress: string;
  entrypoint: string;
  calldata: readonly string[];
};

/** A call by its selector, as a SNIP-9 outside execution carries it. */
export type SelectorCall = { to: string; selector: string; calldata: readonly string[] };

export type Transaction = {
  /** Transaction hash (0x-hex). */
  readonly hash: string;
  /** BROADCASTED_TXN JSON for starknet_add*Transaction / starknet_estimateFee. */
  payload: Record<string, unknown>;
};

/**
 * A transaction whose hash is computed when first read: an unsigned query transaction (a
 * simulation or estimate that skips validation) never needs it, and it is the costliest part of
 * building one (Poseidon over every member).
 */
function withLazyHash(
  compute: () => bigint | string,
  payload: Record<string, unknown>,
): Transaction {
  let memo: string | undefined;
  return {
    get hash(): string {
      memo ??= toHex(compute());
      return memo;
    },
    payload,
  };
}

/** The members of every v3 hash besides the transaction's own, as starknet.js types them. */
type HashCommon = Pick<
  Parameters<typeof hash.calculateInvokeTransactionHash>[0],
  | 'chainId'
  | 'version'
  | 'nonce'
  | 'nonceDataAvailabilityMode'
  | 'feeDataAvailabilityMode'
  | 'resourceBounds'
  | 'tip'
  | 'paymasterData'
>;

/** Argent 0.3.1 is a Cairo 1 account: __execute__ takes the Cairo 1 calldata layout. */
export function executeCalldata(calls: readonly TxCall[]): string[] {
  return transaction
    .getExecuteCalldata(
      calls.map((call) => ({ ...call, calldata: [...call.calldata] })),
      '1',
    )
    .map(toHex);
}

/**
 * The same layout for calls given by selector: their count, then each call's address, selector,
 * calldata length and calldata (the layout records.ts decodes). No name is hashed, so the invoke
 * runs exactly the selectors given.
 */
export function selectorExecuteCalldata(calls: readonly SelectorCall[]): string[] {
  return [
    calls.length,
    ...calls.flatMap((call) => [call.to, call.selector, call.calldata.length, ...call.calldata]),
  ].map((value) => toHex(BigInt(value)));
}

const daName = (mode: 0 | 1 | undefined): 'L1' | 'L2' => (mode === 1 ? 'L2' : 'L1');

/** The members every v3 hash takes besides the transaction's own. */
function hashFields(details: V3Details, chainId: string, version: TxVersion): HashCommon {
  const daMode = (mode: 0 | 1 | undefined): 0 | 1 => (mode === 1 ? 1 : 0);
  return {
    chainId: chainId as HashCommon['chainId'],
    version: version as HashCommon['version'],
    nonce: details.nonce,
    nonceDataAvailabilityMode: daMode(details.nonceDataAvailabilityMode),
    feeDataAvailabilityMode: daMode(details.feeDataAvailabilityMode),
    resourceBounds: details.resourceBounds,
    tip: details.tip,
    paymasterData: [...details.paymasterData],
  };
}

/** The members every v3 broadcast carries besides the transaction's own. */
function payloadFields(details: V3Details, version: TxVersion): Record<string, unknown> {
  return {
    version,
    signature: [],
    nonce: toHex(details.nonce),
    resource_bounds: boundsToRpc(details.resourceBounds),
    tip: toHex(details.tip),
    paymaster_data: details.paymasterData.map(toHex),
    nonce_data_availability_mode: daName(details.nonceDataAvailabilityMode),
    fee_data_availability_mode: daName(details.feeDataAvailabilityMode),
  };
}

export type Common = { chainId: string; details: V3Details; version?: TxVersion };

export function invokeTransaction({
  senderAddress,
  calls,
  chainId,
  details,
  version = TX_VERSION,
}: Common & {
  senderAddress: string;
  calls: readonly TxCall[] | { bySelector: readonly SelectorCall[] };
}): Transaction {
  const calldata =
    'bySelector' in calls ? selectorExecuteCalldata(calls.bySelector) : executeCalldata(calls);
  const accountDeploymentData = (details.accountDeploymentData ?? []).map(toHex);
  const txHash = () =>
    hash.calculateInvokeTransactionHash({
      senderAddress,
      compiledCalldata: calldata,
      accountDeploymentData,
      ...hashFields(details, chainId, version),
    });
  return withLazyHash(txHash, {
    type: 'INVOKE',
    sender_address: senderAddress,
    calldata,
    account_deployment_data: accountDeploymentData,
    ...payloadFields(details, version),
  });
}

/** What deploys an account: its counterfactual address, class, salt and constructor calldata. */
export type DeployAccountData = {
  address: string;
  classHash: string;
  salt: string;
  constructorCalldata: readonly string[];
};

export function deployAccountTransaction({
  account,
  chainId,
  details,
  version = TX_VERSION,
}: Common & { account: DeployAccountData }): Transaction {
  const constructorCalldata = CallData.compile([...account.constructorCalldata]).map(toHex);
  const txHash = () =>
    hash.calculateDeployAccountTransactionHash({
      contractAddress: account.address,
      classHash: account.classHash,
      compiledConstructorCalldata: constructorCalldata,
      salt: account.salt,
      ...hashFields(details, chainId, version),
    });
  return withLazyHash(txHash, {
    type: 'DEPLOY_ACCOUNT',
    contract_address_salt: toHex(account.salt),
    constructor_calldata: constructorCalldata,
    class_hash: toHex(account.classHash),
    ...payloadFields(details, version),
  });
}

/** A class to declare: the Sierra class (absent when only the hash is signed) and both hashes. */
export type DeclarePayload = {
  sierra?: CompiledSierra;
  classHash: string;
  compiledClassHash: string;
};

export function declareTransaction({
  senderAddress,
  declare,
  chainId,
  details,
  version = TX_VERSION,
}: Common & { senderAddress: string; declare: DeclarePayload }): Transaction {
  const accountDeploymentData = (details.accountDeploymentData ?? []).map(toHex);
  const txHash = () =>
    hash.calculateDeclareTransactionHash({
      classHash: declare.classHash,
      compiledClassHash: declare.compiledClassHash,
      senderAddress,
      accountDeploymentData,
      ...hashFields(details, chainId, version),
    });
  const { sierra } = declare;
  return withLazyHash(txHash, {
    type: 'DECLARE',
    sender_address: senderAddress,
    compiled_class_hash: toHex(declare.compiledClassHash),
    ...(sierra
      ? {
          contract_class: {
            sierra_program: sierra.sierra_program,
            contract_class_version: sierra.contract_class_version,
            entry_points_by_type: sierra.entry_points_by_type,
            abi: abiString(sierra.abi),
          },
        }
      : {}),
    account_deployment_data: accountDeploymentData,
    ...payloadFields(details, version),
  });
}

/** The transaction with its signature. */
export function withSignature(tx: Transaction, signature: readonly string[]): Transaction {
  return { hash: tx.hash, payload: { ...tx.payload, signature: [...signature] } };
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
