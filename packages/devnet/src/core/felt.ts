// Felts as the node computes them: an independent copy on purpose (the snap and the paymaster
// share @l2wallet/starknet-protocol's), built on @scure/starknet, not starknet.js.
import { keccak } from '@scure/starknet';

/** A Starknet field element, always kept as a non-negative bigint. */
export type Felt = bigint;

/** The Stark field prime p = 2^251 + 17 * 2^192 + 1. */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;
/** Contract addresses live below 2^251 - 256 (the protocol's ADDR_BOUND). */
export const ADDR_BOUND = 2n ** 251n - 256n;

export function toHex(value: bigint | number): string {
  return '0x' + value.toString(16);
}

/**
 * Parses a felt from a 0x-prefixed hex string, the spec's FELT (as real nodes, leading zeros
 * are tolerated); a JSON number or a decimal string is refused, as nodes refuse them.
 */
export function parseFelt(value: unknown): Felt {
  if (typeof value === 'bigint') return value;
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new TypeError('expected a felt (0x-prefixed hex string)');
  }
  const felt = BigInt(value);
  if (felt >= FIELD_PRIME) throw new TypeError('felt is not below the field prime');
  return felt;
}

export function encodeShortString(text: string): Felt {
  if (text.length > 31) throw new Error(`short string too long: ${text}`);
  let value = 0n;
  for (const char of Buffer.from(text, 'ascii')) value = (value << 8n) + BigInt(char);
  return value;
}

const selectorCache = new Map<string, Felt>();

/**
 * sn_keccak(name): the low 250 bits of keccak256, as entry point selectors and storage vars use.
 */
export function selectorFromName(name: string): Felt {
  let selector = selectorCache.get(name);
  if (selector === undefined) {
    selector = keccak(new TextEncoder().encode(name));
    selectorCache.set(name, selector);
  }
  return selector;
}

/** u256 values travel as two felts: low 128 bits, then high 128 bits. */
export const U128_MASK = (1n << 128n) - 1n;
export function splitU256(value: bigint): [Felt, Felt] {
  return [value & U128_MASK, value >> 128n];
}
