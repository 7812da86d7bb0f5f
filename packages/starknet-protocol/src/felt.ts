/**
 * Felts, addresses and u256 values as the snap and the paymaster write them: bigint in, lowercase
 * 0x-hex out. Pure: no starknet.js at run time, so a snap bundle pays only for these lines.
 */

/** The Stark field prime: every felt is below it. */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;
/** Contract addresses live below 2^251. */
export const ADDRESS_BOUND = 2n ** 251n;

const U128 = 1n << 128n;

/**
 * A number (or a decimal or hex string) as 0x-prefixed lowercase hex without padding, as
 * starknet.js's toHex and getSelectorFromName write it (it compares selectors as strings).
 */
export function toHex(value: bigint | number | string): string {
  return `0x${BigInt(value).toString(16)}`;
}

export const hexList = (values: readonly bigint[]): string[] => values.map(toHex);

/** An address zero-padded to 64 hex digits, lowercase: how addresses are stored and returned. */
export function formatAddress(value: bigint | string): string {
  const parsed = typeof value === 'bigint' ? value : BigInt(value);
  return `0x${parsed.toString(16).padStart(64, '0')}`;
}

/** A u256 as Cairo serialises it: [low, high]. */
export const u256Split = (value: bigint): [bigint, bigint] => [value % U128, value / U128];

/** The u256 of Cairo's [low, high] (check each half with isU128 where it may be out of range). */
export const u256Join = (low: bigint, high: bigint): bigint => low + high * U128;

export const isU128 = (value: bigint): boolean => value >= 0n && value < U128;
