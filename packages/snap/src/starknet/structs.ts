/**
 * The protocol's values as superstruct structs, for method params. Each refinement returns a
 * message that says what was expected, and the dispatcher prefixes it with the field's path.
 */
import {
  array,
  coerce,
  defaulted,
  define,
  number,
  refine,
  size,
  string,
  type,
  union,
  type Infer,
  type Struct,
} from 'superstruct';

import { ADDRESS_BOUND, DECIMAL, FIELD_PRIME, formatAddress, HEX, parseFelt, toHex } from './felt';
import { DEFAULT_CHAIN_ID, describeKnownNetworks, findNetwork, normalizeChainId } from './networks';

/** A felt as a hex or decimal string, or a safe integer; coerced to canonical hex. */
export const FeltStruct: Struct<string, null> = coerce(
  define<string>('felt', (value) =>
    typeof value === 'string' && HEX.test(value) && parseFelt(value) !== undefined
      ? true
      : 'expected a felt: a hex (0x...) or decimal string below the Stark field prime',
  ),
  union([string(), number()]),
  (value) => {
    const parsed = parseFelt(value);
    return parsed === undefined ? value : toHex(parsed);
  },
);

/** A Starknet contract address, coerced to its padded form. */
export const AddressStruct: Struct<string, null> = coerce(
  define<string>('address', (value) =>
    // The coercion pads valid addresses; 64 hex digits alone could still be 0 or >= 2^251.
    typeof value === 'string' &&
    /^0x[0-9a-f]{64}$/u.test(value) &&
    BigInt(value) > 0n &&
    BigInt(value) < ADDRESS_BOUND
      ? true
      : 'expected a Starknet address: a non-zero hex string (0x...) below 2^251',
  ),
  string(),
  (value) => {
    const parsed = HEX.test(value) ? BigInt(value) : undefined;
    return parsed !== undefined && parsed > 0n && parsed < ADDRESS_BOUND
      ? formatAddress(parsed)
      : value;
  },
);

/** A chain ID the snap knows, coerced to canonical hex. */
export const ChainIdStruct: Struct<string, null> = coerce(
  define<string>('chainId', (value) =>
    typeof value === 'string' && findNetwork(value) !== undefined
      ? true
      : `expected a known chain ID: ${describeKnownNetworks()}`,
  ),
  string(),
  (value) => normalizeChainId(value) ?? value,
);

/** An optional chainId: Testnet when omitted (docs/interface/snap.md#networks). */
export const OptionalChainIdStruct = defaulted(ChainIdStruct, DEFAULT_CHAIN_ID);

/** A BIP-44 address index: a non-hardened child number. */
export const AddressIndexStruct: Struct<number, null> = define<number>('address index', (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2 ** 31 - 1
    ? true
    : 'expected an address index: an integer from 0 to 2147483647',
);

/**
 * A non-negative integer up to `max`, given as a number, a decimal string or a hex string. Strict:
 * BigInt('') and BigInt('  ') are 0n, which must not pass.
 */
export const boundedUint = (max: bigint, what: string): Struct<bigint, null> =>
  coerce(
    define<bigint>(what, (value) =>
      typeof value === 'bigint' && value >= 0n && value <= max
        ? true
        : `expected ${what}: a non-negative integer up to ${max}`,
    ),
    union([string(), number()]),
    (value) => {
      if (typeof value === 'number') {
        return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : value;
      }
      return HEX.test(value) || DECIMAL.test(value) ? BigInt(value) : value;
    },
  );

/** A non-negative felt-sized integer given as a number, a decimal string or a hex string. */
export const UintStruct: Struct<bigint, null> = coerce(
  define<bigint>('unsigned integer', (value) =>
    typeof value === 'bigint' && value >= 0n && value < FIELD_PRIME
      ? true
      : 'expected a non-negative integer below the Stark field prime (number, decimal or hex string)',
  ),
  union([string(), number()]),
  (value) => {
    if (typeof value === 'number') {
      return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : value;
    }
    return HEX.test(value) || DECIMAL.test(value) ? BigInt(value) : value;
  },
);

export const NonEmptyTrimmedString = (what: string): Struct<string, null> =>
  refine(string(), 'non-empty', (value) =>
    value.trim().length > 0 ? true : `expected ${what}, a non-empty string`,
  );

/**
 * Call (docs/interface/snap.md#calls): target `contractAddress`, `entrypoint` name, `calldata`
 * felts.
 */
export const CallStruct = type({
  contractAddress: AddressStruct,
  entrypoint: NonEmptyTrimmedString('an entrypoint name'),
  calldata: defaulted(array(FeltStruct), []),
});
export type CallValue = Infer<typeof CallStruct>;

export const CallsStruct = size(array(CallStruct), 1, 256);
