/**
 * TxDetails (docs/interface/snap.md#transaction-details): the one details struct. Every member is
 * validated one way, whichever method takes it:
 * - `TxDetailsStruct` (l2_estimateFee, l2_executeTxn, l2_declareContract): every member optional;
 *   the snap reads the nonce and estimates the bounds that are missing (flows/fees.ts says what it
 *   does with each member);
 * - `V3DetailsStruct` (l2_signTransaction, l2_signDeclareTransaction): the snap signs without
 *   reading the chain, so `nonce` and `resourceBounds` are required and the rest defaulted.
 * Both coerce to the shapes the transaction builder (transaction.ts) takes.
 */
import {
  array,
  boolean,
  coerce,
  defaulted,
  define,
  literal,
  number,
  optional,
  string,
  type,
  union,
  unknown,
  type Infer,
  type Struct,
} from 'superstruct';

import { invalidParams } from '../errors';
import { DECIMAL, HEX } from './felt';
import { ZERO_BOUNDS, type ResourceBounds } from './fees';
import { AddressStruct, boundedUint, FeltStruct, UintStruct } from './structs';

const U64_MAX = 2n ** 64n - 1n;
const U128_MAX = 2n ** 128n - 1n;

const ResourceBoundStruct = type({
  max_amount: boundedUint(U64_MAX, 'a u64 amount'),
  max_price_per_unit: boundedUint(U128_MAX, 'a u128 price'),
});

const ZERO_BOUND = { max_amount: 0n, max_price_per_unit: 0n };

export const ResourceBoundsStruct = type({
  l1_gas: ResourceBoundStruct,
  l2_gas: ResourceBoundStruct,
  l1_data_gas: defaulted(ResourceBoundStruct, ZERO_BOUND),
});

/** Data-availability mode: 'L1' | 'L2' or the numbers 0 | 1; coerced to the number. */
export const DaModeStruct: Struct<0 | 1, null> = coerce(
  define<0 | 1>('data-availability mode', (value) =>
    value === 0 || value === 1 ? true : "expected a data-availability mode: 'L1' or 'L2'",
  ),
  union([string(), number()]),
  (value) => {
    if (value === 'L1' || value === '0x0' || value === '0') {
      return 0;
    }
    if (value === 'L2' || value === '0x1' || value === '1') {
      return 1;
    }
    return value;
  },
);

/**
 * Only v3 transactions exist here (docs/architecture/snap.md#fixed-decisions: fees in STRK), and
 * their query version.
 */
export const VersionStruct = coerce(
  union([literal('0x3'), literal('0x100000000000000000000000000000003')]),
  union([string(), number()]),
  (value) => {
    if (value === 3 || value === '3' || value === '0x3' || value === '0x03') {
      return '0x3';
    }
    if (typeof value === 'string' && /^0x0*100000000000000000000000000000003$/iu.test(value)) {
      return '0x100000000000000000000000000000003';
    }
    return value;
  },
);

/**
 * `details.feeMode` (docs/interface/snap.md#fees-in-another-token): `{ mode: 'default', gasToken }`
 * pays the fee in that token through the network's SNIP-29 paymaster (flows/sendRelayed.ts);
 * without it the transaction is a v3 transaction paid in STRK.
 */
export const FeeModeStruct = type({
  mode: literal('default'),
  gasToken: AddressStruct,
});

/** Every member of TxDetails, each with its one validator. */
const Member = {
  nonce: UintStruct,
  /** The most all the request's transactions may be charged, tip included (FRI). */
  maxFee: UintStruct,
  resourceBounds: ResourceBoundsStruct,
  /** A u64 in the v3 transaction. */
  tip: boundedUint(U64_MAX, 'a u64 tip'),
  paymasterData: array(FeltStruct),
  accountDeploymentData: array(FeltStruct),
  nonceDataAvailabilityMode: DaModeStruct,
  feeDataAvailabilityMode: DaModeStruct,
  version: VersionStruct,
  skipValidate: boolean(),
  /** Accepted and not used: estimates run against pre_confirmed. */
  blockIdentifier: unknown(),
  feeMode: FeeModeStruct,
};

/** SNIP-29's named tips, for a relayed transaction (`feeMode`) only. */
export const TIP_SPEEDS = ['slow', 'normal', 'fast'] as const;
type TipSpeed = (typeof TIP_SPEEDS)[number];
const isTipSpeed = (value: unknown): value is TipSpeed =>
  (TIP_SPEEDS as readonly unknown[]).includes(value);

/** A u64 tip, or a SNIP-29 speed; the error of anything else is the u64's. */
const TipStruct: Struct<bigint | TipSpeed, null> = coerce(
  define<bigint | TipSpeed>('tip', (value) =>
    isTipSpeed(value)
      ? true
      : typeof value === 'bigint' && value >= 0n && value <= U64_MAX
        ? true
        : `expected a u64 tip: a non-negative integer up to ${U64_MAX}, or "slow", "normal" or "fast" with feeMode`,
  ),
  union([string(), number()]),
  (value) => {
    if (typeof value === 'number') {
      return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : value;
    }
    return HEX.test(value) || DECIMAL.test(value) ? BigInt(value) : value;
  },
);

/** TxDetails of the methods that send: every member optional. */
export const TxDetailsStruct = type({
  nonce: optional(Member.nonce),
  maxFee: optional(Member.maxFee),
  resourceBounds: optional(Member.resourceBounds),
  /** A u64; with `feeMode` it is SNIP-29's tip (`{custom}`), or one of TIP_SPEEDS. */
  tip: optional(TipStruct),
  paymasterData: optional(Member.paymasterData),
  accountDeploymentData: optional(Member.accountDeploymentData),
  nonceDataAvailabilityMode: optional(Member.nonceDataAvailabilityMode),
  feeDataAvailabilityMode: optional(Member.feeDataAvailabilityMode),
  version: optional(Member.version),
  skipValidate: optional(Member.skipValidate),
  blockIdentifier: optional(Member.blockIdentifier),
  feeMode: optional(Member.feeMode),
});
export type TxDetails = Infer<typeof TxDetailsStruct>;

/** The members of a v3 transaction the user signs, which a relayed transaction does not have. */
export const V3_ONLY_MEMBERS = [
  'nonce',
  'maxFee',
  'resourceBounds',
  'tip',
  'paymasterData',
  'accountDeploymentData',
  'nonceDataAvailabilityMode',
  'feeDataAvailabilityMode',
] as const;

/** TxDetails of the methods that only sign: the members that enter the hash, defaults filled. */
export const V3DetailsFields = {
  nonce: Member.nonce,
  resourceBounds: Member.resourceBounds,
  tip: defaulted(Member.tip, 0n),
  paymasterData: defaulted(Member.paymasterData, []),
  accountDeploymentData: defaulted(Member.accountDeploymentData, []),
  nonceDataAvailabilityMode: defaulted(Member.nonceDataAvailabilityMode, 0 as const),
  feeDataAvailabilityMode: defaulted(Member.feeDataAvailabilityMode, 0 as const),
  version: defaulted(Member.version, '0x3' as const),
  maxFee: optional(Member.maxFee),
  skipValidate: optional(Member.skipValidate),
};

export const V3DetailsStruct = type(V3DetailsFields);

/**
 * The members of a v3 transaction that enter its hash besides the calls or the class: what the
 * transaction builder takes.
 */
export type V3Details = {
  nonce: bigint;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: readonly string[];
  accountDeploymentData?: readonly string[];
  /** 0 = L1, 1 = L2. */
  nonceDataAvailabilityMode?: 0 | 1;
  feeDataAvailabilityMode?: 0 | 1;
};

/** The caller's members that enter the transaction as given, every default filled. */
export function givenDetails(
  details: TxDetails | undefined,
): Omit<V3Details, 'nonce' | 'resourceBounds'> {
  return {
    tip: v3Tip(details),
    paymasterData: details?.paymasterData ?? [],
    accountDeploymentData: details?.accountDeploymentData ?? [],
    nonceDataAvailabilityMode: details?.nonceDataAvailabilityMode,
    feeDataAvailabilityMode: details?.feeDataAvailabilityMode,
  };
}

/** The caller's resource bounds, signed as given (no estimate needed). */
export function givenBounds(details: TxDetails | undefined): ResourceBounds | undefined {
  const bounds = details?.resourceBounds;
  return bounds
    ? { l1_gas: bounds.l1_gas, l1_data_gas: bounds.l1_data_gas, l2_gas: bounds.l2_gas }
    : undefined;
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

/** The tip of a v3 transaction: a u64; a named SNIP-29 tip applies with `feeMode` only. */
export function v3Tip(details: TxDetails | undefined, field = 'details'): bigint {
  const tip = details?.tip ?? 0n;
  if (typeof tip === 'string') {
    throw invalidParams(
      `${field}.tip`,
      `"${tip}" is a paymaster tip (SNIP-29), which applies with feeMode only: the tip of a v3 transaction is a u64 (FRI per L2 gas unit)`,
    );
  }
  return tip;
}
