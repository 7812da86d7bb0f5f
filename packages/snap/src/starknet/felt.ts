/**
 * Felts, addresses and u256 values: the one way the snap reads and writes them.
 */

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

/** Whether a value is a felt as a node writes one: a 0x-hex string. */
export function isHexFelt(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
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

/**
 * A u256 as Cairo returns it, [low, high] as hex felts (an ERC-20 balance_of answer); undefined
 * for anything else: a value of the wrong shape is never read as a number.
 */
export function u256FromFelts(value: unknown): bigint | undefined {
  if (!Array.isArray(value) || value.length !== 2 || !value.every(isHexFelt)) {
    return undefined;
  }
  const [low, high] = value as string[];
  return BigInt(low) + (BigInt(high) << 128n);
}

/** A u256 as the [low, high] felts of Cairo calldata. */
export function u256ToFelts(value: bigint): [string, string] {
  return [toHex(value & (2n ** 128n - 1n)), toHex(value >> 128n)];
}
