/**
 * Shared superstruct building blocks for method params. Each refinement returns a message that
 * says what was expected, and the dispatcher prefixes it with the field's path.
 */
import { coerce, defaulted, define, number, refine, string, union, type Struct } from 'superstruct';

import {
  DEFAULT_CHAIN_ID,
  describeKnownNetworks,
  findNetwork,
  normalizeChainId,
} from '../networks';

/** The Stark field prime: every felt is below it. */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;
/** Contract addresses live below 2^251. */
export const ADDRESS_BOUND = 2n ** 251n;

/** The only accepted integer spellings: no sign, no spaces, never empty. */
export const HEX = /^0x[0-9a-fA-F]{1,64}$/u;
export const DECIMAL = /^[0-9]{1,78}$/u;

export function parseFelt(value: string | number | bigint): bigint | undefined {
  let parsed: bigint;
  if (typeof value === 'bigint') {
    parsed = value;
  } else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      return undefined;
    }
    parsed = BigInt(value);
  } else if (HEX.test(value) || DECIMAL.test(value)) {
    parsed = BigInt(value);
  } else {
    return undefined;
  }
  return parsed >= 0n && parsed < FIELD_PRIME ? parsed : undefined;
}

/** A number (or a decimal or hex string) as 0x-prefixed lowercase hex without padding. */
export function toHex(value: bigint | number | string): string {
  return `0x${BigInt(value).toString(16)}`;
}

/** Addresses are stored and returned zero-padded to 64 hex digits, lowercase. */
export function formatAddress(value: bigint | string): string {
  const parsed = typeof value === 'bigint' ? value : BigInt(value);
  return `0x${parsed.toString(16).padStart(64, '0')}`;
}

export function sameAddress(a: string, b: string): boolean {
  return BigInt(a) === BigInt(b);
}

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

/** An optional chainId: Testnet when omitted (SPEC 2.1). */
export const OptionalChainIdStruct = defaulted(ChainIdStruct, DEFAULT_CHAIN_ID);

/** A BIP-44 address index: a non-hardened child number. */
export const AddressIndexStruct: Struct<number, null> = define<number>('address index', (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2 ** 31 - 1
    ? true
    : 'expected an address index: an integer from 0 to 2147483647',
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
