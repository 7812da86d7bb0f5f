/**
 * The SNIP-12 type system as the snap reads it: which struct a name stands for (revision 1 adds
 * the preset types u256, TokenAmount and NftId), the domain's type name per revision, and the
 * felt each basic value hashes to (starknet.js's own encoding, the one the signed hash uses).
 */
import { typedData, type TypedData, type TypedDataRevision } from 'starknet';

import type { TypedDataValue } from '.';

export type TypeMember = { name: string; type: string; contains?: string };

export const REVISION_1_PRESETS: Record<string, TypeMember[]> = {
  u256: [
    { name: 'low', type: 'u128' },
    { name: 'high', type: 'u128' },
  ],
  TokenAmount: [
    { name: 'token_address', type: 'ContractAddress' },
    { name: 'amount', type: 'u256' },
  ],
  NftId: [
    { name: 'collection_address', type: 'ContractAddress' },
    { name: 'token_id', type: 'u256' },
  ],
};

/**
 * Every name the snap reads as a basic or preset type, in either revision (revision 0 hashes the
 * revision 1 names as felts, and the display reads them by name in both). A `types` entry with
 * one of these names would be hashed as a struct while shown as the basic type: refused.
 */
export const BASIC_TYPE_NAMES: readonly string[] = [
  'felt',
  'bool',
  'string',
  'selector',
  'merkletree',
  'enum',
  'u128',
  'i128',
  'ContractAddress',
  'ClassHash',
  'timestamp',
  'shortstring',
  ...Object.keys(REVISION_1_PRESETS),
];

/** Revision 1 when the domain says so (starknet.js's rule), else revision 0. */
export function revisionOf(data: TypedDataValue): 0 | 1 {
  const { revision } = data.domain;
  return revision === 1 || revision === '1' ? 1 : 0;
}

export function domainTypeName(data: TypedDataValue): string {
  return revisionOf(data) === 1 ? 'StarknetDomain' : 'StarkNetDomain';
}

/** The members of a struct type (declared, or a revision 1 preset), undefined for basic types. */
export function structMembers(data: TypedDataValue, typeName: string): TypeMember[] | undefined {
  const declared = data.types[typeName] as TypeMember[] | undefined;
  if (declared) {
    return declared;
  }
  return revisionOf(data) === 1 ? REVISION_1_PRESETS[typeName] : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A hex felt that spells printable ASCII (a short string), decoded; else undefined. */
export function shortString(value: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{2,62}$/u.test(value)) {
    return undefined;
  }
  const hex = BigInt(value).toString(16);
  const bytes = hex.length % 2 === 0 ? hex : `0${hex}`;
  const decoded = bytes.replace(/../gu, (pair) => String.fromCharCode(parseInt(pair, 16)));
  return /^[\x20-\x7e]+$/u.test(decoded) ? decoded : undefined;
}

/**
 * The felt a basic value of `type` hashes to: starknet.js's SNIP-12 encoding itself (a felt
 * given as "0b11" is 3, "hello" is its short string, a revision 0 bool "0x1" is 1, a selector
 * name its starknet_keccak). What the dialog shows is read from this, never from the text given.
 */
export function hashedFelt(data: TypedDataValue, type: string, value: unknown): bigint {
  const revision = (revisionOf(data) === 1 ? '1' : '0') as TypedDataRevision;
  const [, encoded] = typedData.encodeValue(
    data.types as TypedData['types'],
    type,
    value,
    undefined,
    revision,
  );
  return BigInt(encoded);
}
