/**
 * Checks for caller input. Each throws -32602 naming the field (a JSON path) and never echoes a
 * private key.
 */
import { getAddress, isAddress, isHex } from 'viem';

import { show } from './chainConfig';
import { invalidParams } from '../errors';

export type Hex = `0x${string}`;

export function asRecord(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(field, `must be an object, got ${show(value)}`);
  }
  return value as Record<string, unknown>;
}

export function asArray(value: unknown, field: string, minLength = 0): unknown[] {
  if (!Array.isArray(value)) {
    throw invalidParams(field, `must be an array, got ${show(value)}`);
  }
  if (value.length < minLength) {
    throw invalidParams(field, `must have at least ${minLength} item(s)`);
  }
  return value;
}

export function asString(value: unknown, field: string): string {
  if (typeof value !== 'string') {
    throw invalidParams(field, `must be a string, got ${show(value)}`);
  }
  return value;
}

export function asAddress(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    throw invalidParams(field, `must be a 20-byte hex address, got ${show(value)}`);
  }
  return getAddress(value);
}

/** 0x-prefixed bytes (even length). */
export function asBytes(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0) {
    throw invalidParams(field, `must be 0x-prefixed hex bytes, got ${show(value)}`);
  }
  return value.toLowerCase() as Hex;
}

/** A non-negative integer given as a 0x quantity or a decimal string, below 2^bits. */
export function asQuantity(value: unknown, field: string, bits = 256): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'string') {
    if (/^0x[0-9a-fA-F]{1,64}$/u.test(value) || /^[0-9]{1,78}$/u.test(value)) {
      parsed = BigInt(value);
    }
  } else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    parsed = BigInt(value);
  }
  if (parsed === undefined || parsed >= 2n ** BigInt(bits)) {
    throw invalidParams(
      field,
      `must be a non-negative integer below 2^${bits} (0x hex or decimal string), got ${show(value)}`,
    );
  }
  return parsed;
}

export function optionalQuantity(value: unknown, field: string, bits = 256): bigint | undefined {
  return value === undefined || value === null ? undefined : asQuantity(value, field, bits);
}

/** Fields other than `allowed` are refused, so a typo is not silently ignored. */
export function onlyKeys(
  record: Record<string, unknown>,
  allowed: readonly string[],
  field: string,
) {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      throw invalidParams(
        `${field}.${key}`,
        `is not a known field (allowed: ${allowed.join(', ')})`,
      );
    }
  }
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
