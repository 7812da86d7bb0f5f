/**
 * v3 transaction details (SPEC 2.2 TxDetails members that enter the hash) as superstruct
 * structs, coerced to the shapes starknet.js hash functions take.
 */
import {
  array,
  coerce,
  defaulted,
  define,
  boolean,
  literal,
  number,
  optional,
  string,
  type,
  union,
  type Infer,
  type Struct,
} from 'superstruct';

import type { ResourceBounds } from '../chain/fees';
import { DECIMAL, FeltStruct, HEX, UintStruct } from '../rpc/structs';

const U64_MAX = 2n ** 64n - 1n;
const U128_MAX = 2n ** 128n - 1n;

const bounded = (max: bigint, what: string): Struct<bigint, null> =>
  coerce(
    define<bigint>(what, (value) =>
      typeof value === 'bigint' && value >= 0n && value <= max
        ? true
        : `expected ${what}: a non-negative integer up to ${max}`,
    ),
    union([string(), number()]),
    // Strict, as UintStruct: BigInt('') and BigInt('  ') are 0n, which must not pass.
    (value) => {
      if (typeof value === 'number') {
        return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : value;
      }
      return HEX.test(value) || DECIMAL.test(value) ? BigInt(value) : value;
    },
  );

const ResourceBoundStruct = type({
  max_amount: bounded(U64_MAX, 'a u64 amount'),
  max_price_per_unit: bounded(U128_MAX, 'a u128 price'),
});

const ZERO_BOUND = { max_amount: 0n, max_price_per_unit: 0n };

export const ResourceBoundsStruct = type({
  l1_gas: ResourceBoundStruct,
  l2_gas: ResourceBoundStruct,
  l1_data_gas: defaulted(ResourceBoundStruct, ZERO_BOUND),
});
export type ResourceBoundsValue = Infer<typeof ResourceBoundsStruct>;

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

/** Only v3 transactions exist here (DESIGN: fees in STRK). */
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

/** The members of TxDetails that enter a v3 hash; nonce and resourceBounds are required. */
export const V3DetailsFields = {
  nonce: UintStruct,
  resourceBounds: ResourceBoundsStruct,
  tip: defaulted(bounded(U64_MAX, 'a u64 tip'), 0n),
  paymasterData: defaulted(array(FeltStruct), []),
  accountDeploymentData: defaulted(array(FeltStruct), []),
  nonceDataAvailabilityMode: defaulted(DaModeStruct, 0 as const),
  feeDataAvailabilityMode: defaulted(DaModeStruct, 0 as const),
  version: defaulted(VersionStruct, '0x3' as const),
  maxFee: optional(union([string(), number()])),
  skipValidate: optional(boolean()),
};

export const V3DetailsStruct = type(V3DetailsFields);

/**
 * The members of a v3 transaction that enter its hash besides the calls or class: what the
 * hash functions and the transaction builders (chain/transactions) take. V3DetailsStruct
 * validates a caller's details into this shape (plus version, maxFee and skipValidate).
 */
export type V3Details = {
  nonce: bigint;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: string[];
  accountDeploymentData?: string[];
  /** 0 = L1, 1 = L2. */
  nonceDataAvailabilityMode?: 0 | 1;
  feeDataAvailabilityMode?: 0 | 1;
};
