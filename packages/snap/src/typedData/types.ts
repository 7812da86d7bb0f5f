/**
 * The SNIP-12 type system as the snap reads it: which struct a name stands for (revision 1 adds
 * the preset types u256, TokenAmount and NftId), and the domain's type name per revision.
 */
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
