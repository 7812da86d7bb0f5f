/**
 * The relayer's v3 invoke transactions as Starknet JSON-RPC 0.10 takes them: signed for
 * submission (the hash is known before sending, so a submission whose answer is lost can be
 * looked up and re-sent unchanged), or as a query version for estimates and simulations.
 */
import { ec, hash, shortString } from 'starknet';

import { type Call, multicallCalldata } from './calls';
import { type Felt, hexList, toHex } from './felt';
import type { ResourceBounds } from './fees';

const VERSION_3 = '0x3';
/**
 * 2^128 + 3: the version a transaction carries in estimates and simulations, never valid on chain.
 */
const QUERY_VERSION_3 = '0x100000000000000000000000000000003';

export interface InvokeV3Json {
  type: 'INVOKE';
  version: string;
  sender_address: string;
  calldata: string[];
  signature: string[];
  nonce: string;
  resource_bounds: Record<
    'l1_gas' | 'l2_gas' | 'l1_data_gas',
    { max_amount: string; max_price_per_unit: string }
  >;
  tip: string;
  paymaster_data: string[];
  account_deployment_data: string[];
  nonce_data_availability_mode: 'L1';
  fee_data_availability_mode: 'L1';
}

const ZERO_BOUNDS: ResourceBounds = {
  l1Gas: { maxAmount: 0n, maxPricePerUnit: 0n },
  l2Gas: { maxAmount: 0n, maxPricePerUnit: 0n },
  l1DataGas: { maxAmount: 0n, maxPricePerUnit: 0n },
};

function boundsJson(bounds: ResourceBounds): InvokeV3Json['resource_bounds'] {
  const one = (b: { maxAmount: bigint; maxPricePerUnit: bigint }) => ({
    max_amount: toHex(b.maxAmount),
    max_price_per_unit: toHex(b.maxPricePerUnit),
  });
  return {
    l1_gas: one(bounds.l1Gas),
    l2_gas: one(bounds.l2Gas),
    l1_data_gas: one(bounds.l1DataGas),
  };
}

function invokeJson(
  sender: Felt,
  calldata: Felt[],
  nonce: bigint,
  bounds: ResourceBounds,
  tip: bigint,
  version: string,
  signature: Felt[],
): InvokeV3Json {
  return {
    type: 'INVOKE',
    version,
    sender_address: toHex(sender),
    calldata: hexList(calldata),
    signature: hexList(signature),
    nonce: toHex(nonce),
    resource_bounds: boundsJson(bounds),
    tip: toHex(tip),
    paymaster_data: [],
    account_deployment_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
  };
}

/**
 * An unsigned query-version invoke, for starknet_estimateFee / simulateTransactions with
 * SKIP_VALIDATE.
 */
export function queryInvoke(sender: Felt, calls: readonly Call[], nonce: bigint): InvokeV3Json {
  return invokeJson(sender, multicallCalldata(calls), nonce, ZERO_BOUNDS, 0n, QUERY_VERSION_3, []);
}

export interface SignedInvoke {
  hash: Felt;
  json: InvokeV3Json;
}

const INVOKE_PREFIX = BigInt(shortString.encodeShortString('invoke'));
const RESOURCE_NAMES = {
  l1Gas: BigInt(shortString.encodeShortString('L1_GAS')),
  l2Gas: BigInt(shortString.encodeShortString('L2_GAS')),
  l1DataGas: BigInt(shortString.encodeShortString('L1_DATA')),
};
const poseidon = (values: bigint[]): bigint => BigInt(hash.computePoseidonHashOnElements(values));
/**
 * Resource bound as the v3 hash encodes it: name << 192 | max_amount << 128 | max_price_per_unit.
 */
const bound = (name: bigint, b: { maxAmount: bigint; maxPricePerUnit: bigint }) =>
  (name << 192n) + (b.maxAmount << 128n) + b.maxPricePerUnit;

/**
 * An invoke ready to sign but for its nonce: the parts of the v3 hash that do not depend on it
 * (the calldata's Poseidon hash, the fee field) are computed here, outside the relayer's one-at-a-
 * time section, which then only hashes ten felts and signs.
 */
export interface PreparedInvoke {
  sender: Felt;
  calldata: Felt[];
  bounds: ResourceBounds;
  tip: bigint;
  chainId: Felt;
  feeFieldHash: bigint;
  calldataHash: bigint;
}

export function prepareInvoke(options: {
  sender: Felt;
  calls: readonly Call[];
  bounds: ResourceBounds;
  tip: bigint;
  chainId: Felt;
}): PreparedInvoke {
  const calldata = multicallCalldata(options.calls);
  const b = options.bounds;
  return {
    sender: options.sender,
    calldata,
    bounds: b,
    tip: options.tip,
    chainId: options.chainId,
    feeFieldHash: poseidon([
      options.tip,
      bound(RESOURCE_NAMES.l1Gas, b.l1Gas),
      bound(RESOURCE_NAMES.l2Gas, b.l2Gas),
      bound(RESOURCE_NAMES.l1DataGas, b.l1DataGas),
    ]),
    calldataHash: poseidon(calldata),
  };
}

const EMPTY_HASH = poseidon([]);

/** The v3 invoke hash (the protocol's, as starknet.js computes it) with `nonce`, signed. */
export function signInvoke(
  prepared: PreparedInvoke,
  nonce: bigint,
  privateKey: string,
): SignedInvoke {
  const txHash = poseidon([
    INVOKE_PREFIX,
    3n,
    prepared.sender,
    prepared.feeFieldHash,
    EMPTY_HASH, // paymaster_data
    prepared.chainId,
    nonce,
    0n, // nonce and fee data availability modes: L1, L1
    EMPTY_HASH, // account_deployment_data
    prepared.calldataHash,
  ]);
  const signature = ec.starkCurve.sign(toHex(txHash), privateKey);
  return {
    hash: txHash,
    json: invokeJson(
      prepared.sender,
      prepared.calldata,
      nonce,
      prepared.bounds,
      prepared.tip,
      VERSION_3,
      [signature.r, signature.s],
    ),
  };
}

/** prepareInvoke then signInvoke. */
export function signedInvoke(options: {
  sender: Felt;
  calls: readonly Call[];
  nonce: bigint;
  bounds: ResourceBounds;
  tip: bigint;
  chainId: Felt;
  privateKey: string;
}): SignedInvoke {
  return signInvoke(prepareInvoke(options), options.nonce, options.privateKey);
}

/** A message hash signed with the relayer key (the start-up check that key and account agree). */
export function signHash(messageHash: Felt, privateKey: string): [Felt, Felt] {
  const signature = ec.starkCurve.sign(toHex(messageHash), privateKey);
  return [signature.r, signature.s];
}
