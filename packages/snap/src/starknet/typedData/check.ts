/**
 * What the snap requires of typed data before it shows or signs it (requireSignable):
 * - no `types` entry takes the name of a basic or preset type (bool, u256, TokenAmount, ...):
 *   starknet.js would hash it as the declared struct while the dialog shows the basic type, so
 *   members would be signed but not shown;
 * - the domain names the request's network (`chainId`, a member of the domain type), so the
 *   signature cannot be replayed on the other network, where the account has the same address;
 * - every member of the domain and the message is part of its declared type: anything else is
 *   not hashed, so it is refused rather than shown (as if signed) or hidden.
 * Both fail with -32602 before any dialog.
 */
import { findNetwork, getNetwork, normalizeChainId, shortNameOf } from '../networks';
import { invalidParams } from '../../errors';
import type { TypedDataValue } from '.';
import {
  BASIC_TYPE_NAMES,
  domainTypeName,
  isPlainObject,
  structMembers,
  type TypeMember,
} from './types';

const ROOT = 'typedDataMessage';

/** The chain ID a domain names (SN_MAIN / SN_SEPOLIA, hex, decimal), canonical, or undefined. */
function domainChainId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return `0x${value.toString(16)}`;
  }
  if (typeof value !== 'string') {
    return undefined;
  }
  if (/^[0-9]{1,78}$/u.test(value.trim())) {
    return `0x${BigInt(value.trim()).toString(16)}`;
  }
  return normalizeChainId(value);
}

export function requireChainBinding(data: TypedDataValue, chainId: string): void {
  const network = getNetwork(chainId);
  const field = `${ROOT}.domain.chainId`;
  const expected = `"${network.chainId}" or "${shortNameOf(network.chainId)}" (${network.name}, the network of this request)`;
  const domainType = domainTypeName(data);
  const members = structMembers(data, domainType);
  if (!members?.some((member) => member.name === 'chainId')) {
    throw invalidParams(
      field,
      `is required: the domain type "${domainType}" must have a chainId member, equal to ${expected}; typed data without it could be replayed on another network`,
    );
  }
  const given = data.domain.chainId;
  if (given === undefined || given === null || given === '') {
    throw invalidParams(
      field,
      `is required: expected ${expected}; typed data without it could be replayed on another network`,
    );
  }
  const canonical = domainChainId(given);
  if (canonical !== network.chainId) {
    const named = canonical ? findNetwork(canonical) : undefined;
    throw invalidParams(
      field,
      `must name the network of this request: expected ${expected}, got ${JSON.stringify(given)}${named ? ` (${named.name})` : ''}`,
    );
  }
}

function refuseUnsigned(path: string, key: string, typeName: string, members: TypeMember[]): Error {
  const names = members.map((member) => member.name).join(', ');
  return invalidParams(
    `${path}.${key}`,
    `is not a member of type "${typeName}" (${names}): it would not be signed, so the snap refuses it rather than show it or hide it`,
  );
}

function checkValue(
  data: TypedDataValue,
  member: TypeMember,
  type: string,
  value: unknown,
  path: string,
): void {
  if (type.endsWith('*')) {
    if (Array.isArray(value)) {
      const itemType = type.slice(0, -1);
      value.forEach((item, index) => checkValue(data, member, itemType, item, `${path}.${index}`));
    }
    return;
  }
  if (type === 'merkletree' && member.contains) {
    if (Array.isArray(value)) {
      const leafType = member.contains;
      value.forEach((leaf, index) => checkValue(data, member, leafType, leaf, `${path}.${index}`));
    }
    return;
  }
  if (type === 'enum' && member.contains && isPlainObject(value)) {
    const variants = (data.types[member.contains] ?? []) as TypeMember[];
    const keys = Object.keys(value);
    // The hash covers one variant: a second key would be shown but not signed.
    if (keys.length > 1) {
      throw invalidParams(
        `${path}.${keys[1]}`,
        `is a second variant of enum "${member.contains}": only one is signed`,
      );
    }
    for (const key of keys) {
      if (!variants.some((variant) => variant.name === key)) {
        throw refuseUnsigned(path, key, member.contains, variants);
      }
    }
    return;
  }
  if (structMembers(data, type)) {
    checkStruct(data, type, value, path);
  }
}

function checkStruct(data: TypedDataValue, typeName: string, value: unknown, path: string): void {
  const members = structMembers(data, typeName);
  if (!members || !isPlainObject(value)) {
    // Hashing reports a value of the wrong shape.
    return;
  }
  for (const key of Object.keys(value)) {
    if (!members.some((member) => member.name === key)) {
      throw refuseUnsigned(path, key, typeName, members);
    }
  }
  for (const member of members) {
    if (member.name in value) {
      checkValue(data, member, member.type, value[member.name], `${path}.${member.name}`);
    }
  }
}

/** Refuses any member of the domain or the message that its declared type does not list. */
export function requireOnlySignedFields(data: TypedDataValue): void {
  checkStruct(data, domainTypeName(data), data.domain, `${ROOT}.domain`);
  if (!structMembers(data, data.primaryType)) {
    throw invalidParams(
      `${ROOT}.primaryType`,
      `names no type of "types": ${JSON.stringify(data.primaryType)}`,
    );
  }
  checkStruct(data, data.primaryType, data.message, `${ROOT}.message`);
}

/**
 * Refuses a `types` entry named like a basic or preset type (either revision), or written with
 * the array or enum-variant syntax ("Call*", "(felt,u128)"): hashed as a struct, it would be shown
 * as something else.
 */
export function requireNoRedeclaredTypes(data: TypedDataValue): void {
  for (const name of Object.keys(data.types)) {
    if (BASIC_TYPE_NAMES.includes(name)) {
      throw invalidParams(
        `${ROOT}.types.${name}`,
        `redeclares the basic type "${name}": it would be hashed as this struct but shown as a ${name}, so its members would be signed without being shown`,
      );
    }
    if (/[*(),]/u.test(name)) {
      throw invalidParams(
        `${ROOT}.types.${name}`,
        'is not a type name the snap can show as it is hashed: "*" marks an array and "(", ")" and "," an enum variant',
      );
    }
  }
}

/** Every check above, before any dialog: what the dialog then shows is what is hashed. */
export function requireSignable(data: TypedDataValue, chainId: string): void {
  requireNoRedeclaredTypes(data);
  requireChainBinding(data, chainId);
  requireOnlySignedFields(data);
}
