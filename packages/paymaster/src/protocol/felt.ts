/**
 * Felts as the paymaster holds them (bigint) and writes them (@l2wallet/starknet-protocol's
 * felt module), and the readers that turn a client's JSON into them, naming the field that is
 * wrong.
 */
import { FIELD_PRIME } from '@l2wallet/starknet-protocol';

import { errors, quoted } from '../errors';

export { hexList, toHex, u256Join } from '@l2wallet/starknet-protocol';

export type Felt = bigint;

/** A felt from JSON: a hex string (the spec's FELT), a decimal string or a safe integer. */
export function readFelt(value: unknown, field: string): Felt {
  let parsed: bigint | undefined;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^(0|[1-9][0-9]{0,77})$/.test(value))
    parsed = BigInt(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    parsed = BigInt(value);
  }
  if (parsed === undefined) throw errors.invalidParams(field, 'expected a felt (a 0x hex string)');
  if (parsed >= FIELD_PRIME) throw errors.invalidParams(field, 'is not below the field prime');
  return parsed;
}

export function readFelts(value: unknown, field: string, max = 10_000): Felt[] {
  if (!Array.isArray(value)) throw errors.invalidParams(field, 'expected an array of felts');
  if (value.length > max) throw errors.invalidParams(field, `holds more than ${max} felts`);
  return value.map((item, i) => readFelt(item, `${field}[${i}]`));
}

/** An object (not an array, not null), for reading its members. */
export function readObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.invalidParams(field, 'expected an object');
  }
  return value as Record<string, unknown>;
}

/** Fails on a member not in `known` (a typo or a field this paymaster does not honour). */
export function onlyKeys(object: Record<string, unknown>, known: string[], field: string): void {
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      throw errors.invalidParams(`${field}.${quoted(key)}`, 'unexpected member');
    }
  }
}
