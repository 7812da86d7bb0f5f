/**
 * Typed data as the user reads it: the members of the declared types only (check.ts refused
 * anything else), each shown as the value it hashes to. Every basic value is read through
 * starknet.js's SNIP-12 encoding (types.ts hashedFelt), never from the text the site wrote: a
 * revision 0 bool "0x1" is shown as true, a felt "0b11" as 0x3 (3), a selector given as text by
 * its starknet_keccak. Then each is shown from its declared type: addresses padded (with the
 * token's symbol when it is watched), u128 / u256 as numbers, token amounts with symbol and
 * decimals, timestamps as dates, selectors by name when known, nested structs, arrays and enum
 * variants with their path. Nothing is cut: dialogs scroll, and ui/dialogs.ts refuses what is too
 * large to show.
 */
import { invalidParams } from '../../errors';
import { FIELD_PRIME, formatAddress } from '../felt';
import { knownEntryPoint } from '../selectors';
import type { Erc20Token } from '@l2wallet/starknet-protocol';

import { findTokenIn } from '../tokens';
import { formatTimestamp, formatUnits } from '../units';
import type { TypedDataValue } from '.';
import {
  domainTypeName,
  hashedFelt,
  isPlainObject,
  revisionOf,
  shortString,
  structMembers,
  type TypeMember,
} from './types';

export type TypedRow = [label: string, value: string];

type Context = { data: TypedDataValue; tokens: Erc20Token[]; revision: 0 | 1 };

const SMALL = 2n ** 64n;

const text = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** A felt as the number it is: hex, its decimal when short, its text when it spells one. */
function feltText(value: bigint): string {
  const notes: string[] = [];
  if (value < SMALL) {
    notes.push(value.toString());
  }
  const spelled = shortString(hex(value));
  if (spelled !== undefined) {
    notes.push(JSON.stringify(spelled));
  }
  return notes.length > 0 ? `${hex(value)} (${notes.join(', ')})` : hex(value);
}

function addressText(value: bigint, tokens: Erc20Token[]): string {
  const padded = formatAddress(value);
  const token = findTokenIn(tokens, padded);
  return token ? `${padded} (${token.symbol})` : padded;
}

/** A u256 preset ({low, high}, revision 1) as the number its two hashed u128 make. */
function u256Of(value: unknown, context: Context): bigint {
  const parts = isPlainObject(value) ? value : {};
  return (
    hashedFelt(context.data, 'u128', parts.low) +
    (hashedFelt(context.data, 'u128', parts.high) << 128n)
  );
}

/** A basic value by its declared type; undefined when the type is not basic. */
function basicValue(type: string, value: unknown, context: Context): string | undefined {
  const felt = (): bigint => hashedFelt(context.data, type, value);
  switch (type) {
    case 'felt':
      return feltText(felt());
    case 'shortstring': {
      const hashed = felt();
      const spelled = shortString(hex(hashed));
      return spelled === undefined
        ? hex(hashed)
        : spelled === value
          ? spelled
          : `${JSON.stringify(spelled)} (${hex(hashed)})`;
    }
    case 'string':
      // Revision 1 hashes the text itself (a ByteArray); revision 0 the felt it encodes to.
      return context.revision === 1 ? text(value) : feltText(felt());
    case 'bool': {
      const hashed = felt();
      if (hashed === 0n || hashed === 1n) {
        return String(hashed === 1n);
      }
      return `${hashed} (not a boolean: hashed as the number ${hashed})`;
    }
    case 'ContractAddress':
      return addressText(felt(), context.tokens);
    case 'ClassHash':
      return formatAddress(felt());
    case 'u128':
      return felt().toString();
    case 'i128': {
      const hashed = felt();
      return (hashed > FIELD_PRIME / 2n ? hashed - FIELD_PRIME : hashed).toString();
    }
    case 'u256':
      // Revision 0 has no u256: the name is hashed as a felt.
      return (context.revision === 1 ? u256Of(value, context) : felt()).toString();
    case 'timestamp':
      return formatTimestamp(felt());
    case 'selector': {
      const hashed = felt();
      const name =
        knownEntryPoint(hex(hashed)) ??
        (typeof value === 'string' && !/^0x/iu.test(value) ? value : undefined);
      return name ? `${name} (${hex(hashed)})` : hex(hashed);
    }
    default:
      return undefined;
  }
}

function typedLabel(label: string, type: string, member: TypeMember): string {
  const shown =
    type === 'enum' || type === 'merkletree' ? `${type} ${member.contains ?? ''}`.trim() : type;
  return `${label} (${shown})`;
}

/** A revision 1 enum: the variant, then each of its values as its declared type. */
function enumRows(
  member: TypeMember,
  value: Record<string, unknown>,
  label: string,
  context: Context,
): TypedRow[] {
  const [variant] = Object.keys(value);
  const variants = (context.data.types[member.contains ?? ''] ?? []) as TypeMember[];
  const declared = variants.find((candidate) => candidate.name === variant);
  const subtypes = (declared?.type ?? '()').slice(1, -1).split(',').filter(Boolean);
  const values = Array.isArray(value[variant]) ? (value[variant] as unknown[]) : [];
  return [
    [typedLabel(label, 'enum', member), variant],
    ...subtypes.flatMap((subtype, index) =>
      rowsOf(
        { name: `${variant}[${index}]`, type: subtype },
        subtype,
        values[index],
        `${label}.${variant}[${index}]`,
        context,
      ),
    ),
  ];
}

function rowsOf(
  member: TypeMember,
  type: string,
  value: unknown,
  label: string,
  context: Context,
): TypedRow[] {
  if (type.endsWith('*') || (type === 'merkletree' && member.contains)) {
    const itemType = type.endsWith('*') ? type.slice(0, -1) : (member.contains as string);
    const items = Array.isArray(value) ? value : [];
    if (items.length === 0) {
      return [[typedLabel(label, type, member), '(empty)']];
    }
    return items.flatMap((item, index) =>
      rowsOf(member, itemType, item, `${label}[${index}]`, context),
    );
  }
  if (context.revision === 1 && type === 'enum' && isPlainObject(value)) {
    return enumRows(member, value, label, context);
  }
  if (context.revision === 1 && type === 'TokenAmount' && isPlainObject(value)) {
    const amount = u256Of(value.amount, context);
    const tokenAddress = hashedFelt(context.data, 'ContractAddress', value.token_address);
    const token = findTokenIn(context.tokens, formatAddress(tokenAddress));
    return [
      [`${label}.token_address (ContractAddress)`, addressText(tokenAddress, context.tokens)],
      [
        `${label}.amount (u256)`,
        token
          ? `${formatUnits(amount, token.decimals, token.symbol)} (${amount})`
          : `${amount} (token not in your watch list: raw units)`,
      ],
    ];
  }
  const basic = basicValue(type, value, context);
  if (basic !== undefined) {
    return [[typedLabel(label, type, member), basic]];
  }
  if (structMembers(context.data, type) && isPlainObject(value)) {
    return structRows(type, value, label, context);
  }
  // A type hashed as a felt (revision 0 names nothing else): shown as that felt.
  return [[typedLabel(label, type, member), feltText(hashedFelt(context.data, type, value))]];
}

function structRows(
  typeName: string,
  value: Record<string, unknown>,
  prefix: string,
  context: Context,
): TypedRow[] {
  const members = structMembers(context.data, typeName) ?? [];
  return members.flatMap((member) =>
    rowsOf(
      member,
      member.type,
      value[member.name],
      prefix ? `${prefix}.${member.name}` : member.name,
      context,
    ),
  );
}

/**
 * Rows of the domain and of the message, from their declared types. Called after the message
 * was hashed: a value the encoding cannot read is refused rather than shown as written.
 */
export function describeTypedData(
  data: TypedDataValue,
  tokens: Erc20Token[],
): { domain: TypedRow[]; message: TypedRow[] } {
  const context: Context = { data, tokens, revision: revisionOf(data) };
  try {
    return {
      domain: structRows(domainTypeName(data), data.domain, '', context),
      message: structRows(data.primaryType, data.message, '', context),
    };
  } catch {
    throw invalidParams(
      'typedDataMessage',
      'has a value the snap cannot show as it is hashed (its type does not read it)',
    );
  }
}
