/**
 * The relayer's v3 invoke transactions as Starknet JSON-RPC 0.10 takes them: signed for
 * submission (the hash is known before sending, so a submission whose answer is lost can be
 * looked up and re-sent unchanged), or as a query version for estimates and simulations.
 */
import { ec, hash } from 'starknet';

import { type Call, multicallCalldata } from './calls';
import { type Felt, hexList, toHex } from './felt';
import type { ResourceBounds } from './fees';

const VERSION_3 = '0x3';
/** 2^128 + 3: the version a transaction carries in estimates and simulations, never valid on chain. */
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

/** An unsigned query-version invoke, for starknet_estimateFee / simulateTransactions with SKIP_VALIDATE. */
export function queryInvoke(sender: Felt, calls: readonly Call[], nonce: bigint): InvokeV3Json {
  return invokeJson(sender, multicallCalldata(calls), nonce, ZERO_BOUNDS, 0n, QUERY_VERSION_3, []);
}

export interface SignedInvoke {
  hash: Felt;
  json: InvokeV3Json;
}

/** The relayer's invoke, hashed as the protocol defines it and signed with its Stark key. */
export function signedInvoke(options: {
  sender: Felt;
  calls: readonly Call[];
  nonce: bigint;
  bounds: ResourceBounds;
  tip: bigint;
  chainId: Felt;
  privateKey: string;
}): SignedInvoke {
  const calldata = multicallCalldata(options.calls);
  const b = options.bounds;
  const txHash = BigInt(
    hash.calculateInvokeTransactionHash({
      senderAddress: options.sender,
      version: VERSION_3,
      compiledCalldata: hexList(calldata),
      chainId: toHex(options.chainId) as `0x${string}` as never,
      nonce: options.nonce,
      accountDeploymentData: [],
      nonceDataAvailabilityMode: 0 as never,
      feeDataAvailabilityMode: 0 as never,
      resourceBounds: {
        l1_gas: { max_amount: b.l1Gas.maxAmount, max_price_per_unit: b.l1Gas.maxPricePerUnit },
        l2_gas: { max_amount: b.l2Gas.maxAmount, max_price_per_unit: b.l2Gas.maxPricePerUnit },
        l1_data_gas: {
          max_amount: b.l1DataGas.maxAmount,
          max_price_per_unit: b.l1DataGas.maxPricePerUnit,
        },
      },
      tip: options.tip,
      paymasterData: [],
    }),
  );
  const signature = ec.starkCurve.sign(toHex(txHash), options.privateKey);
  return {
    hash: txHash,
    json: invokeJson(
      options.sender,
      calldata,
      options.nonce,
      options.bounds,
      options.tip,
      VERSION_3,
      [signature.r, signature.s],
    ),
  };
}

/** A message hash signed with the relayer key (the start-up check that key and account agree). */
export function signHash(messageHash: Felt, privateKey: string): [Felt, Felt] {
  const signature = ec.starkCurve.sign(toHex(messageHash), privateKey);
  return [signature.r, signature.s];
}
