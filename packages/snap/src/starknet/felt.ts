/**
 * Felts, addresses and u256 values: the one way the snap reads them. How they are written is
 * @l2wallet/starknet-protocol's (re-exported here for the snap's modules).
 */
import { FIELD_PRIME, u256Join } from '@l2wallet/starknet-protocol';

export { ADDRESS_BOUND, FIELD_PRIME, formatAddress, toHex } from '@l2wallet/starknet-protocol';

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
  return u256Join(BigInt(low), BigInt(high));
}
