/**
 * Typed data as the user reads it: the members of the declared types only (check.ts refused
 * anything else), each shown from its declared type: addresses as addresses (with the token's
 * symbol when it is watched), u128 / u256 as numbers, token amounts with symbol and decimals,
 * timestamps as dates, selectors by name when known, nested structs and arrays with their path.
 * Nothing is cut: dialogs scroll, and ui/dialogs refuses what is too large to show.
 */
import { formatAddress } from '../rpc/structs';
import { knownEntryPoint } from '../selectors';
import { findTokenIn, type Erc20Token } from '../state';
import { formatTimestamp, formatUnits } from '../ui/amounts';
import type { TypedDataValue } from '.';
import {
  domainTypeName,
  isPlainObject,
  shortString,
  structMembers,
  type TypeMember,
} from './types';

export type TypedRow = [label: string, value: string];

type Context = { data: TypedDataValue; tokens: Erc20Token[] };

const text = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

function address(value: unknown, tokens: Erc20Token[]): string {
  const padded = formatAddress(BigInt(text(value)));
  const token = findTokenIn(tokens, padded);
  return token ? `${padded} (${token.symbol})` : padded;
}

function u256Of(value: unknown): bigint {
  if (isPlainObject(value)) {
    return BigInt(text(value.low ?? 0)) + (BigInt(text(value.high ?? 0)) << 128n);
  }
  return BigInt(text(value));
}

function selector(value: unknown): string {
  const given = text(value);
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/u.test(given)) {
    return given; // A name: hashed as its selector.
  }
  const name = knownEntryPoint(given);
  return name ? `${name} (${given})` : given;
}

/** A basic (non-struct) value by its declared type; undefined when the type is not basic. */
function basicValue(type: string, value: unknown, context: Context): string | undefined {
  switch (type) {
    case 'felt': {
      const given = text(value);
      const decoded = shortString(given);
      return decoded ? `${given} ("${decoded}")` : given;
    }
    case 'shortstring': {
      const given = text(value);
      return shortString(given) ?? given;
    }
    case 'string':
      return text(value);
    case 'bool':
      return String(value === true || value === 'true' || value === 1 || value === '1');
    case 'ContractAddress':
      return address(value, context.tokens);
    case 'ClassHash':
      return formatAddress(BigInt(text(value)));
    case 'u128':
    case 'i128':
      return BigInt(text(value)).toString();
    case 'u256':
      return u256Of(value).toString();
    case 'timestamp':
      return formatTimestamp(BigInt(text(value)));
    case 'selector':
      return selector(value);
    default:
      return undefined;
  }
}

function rowsOf(
  member: TypeMember,
  type: string,
  value: unknown,
  label: string,
  context: Context,
): TypedRow[] {
  const typedLabel = `${label} (${type === 'enum' || type === 'merkletree' ? `${type} ${member.contains ?? ''}`.trim() : type})`;
  try {
    if (type.endsWith('*') || (type === 'merkletree' && member.contains)) {
      const itemType = type.endsWith('*') ? type.slice(0, -1) : (member.contains as string);
      const items = Array.isArray(value) ? value : [];
      if (items.length === 0) {
        return [[typedLabel, '(empty)']];
      }
      return items.flatMap((item, index) =>
        rowsOf(member, itemType, item, `${label}[${index}]`, context),
      );
    }
    if (type === 'enum' && isPlainObject(value)) {
      const [variant] = Object.keys(value);
      return [[typedLabel, `${variant}(${text(value[variant])})`]];
    }
    if (type === 'TokenAmount' && isPlainObject(value)) {
      const amount = u256Of(value.amount);
      const token = findTokenIn(context.tokens, formatAddress(BigInt(text(value.token_address))));
      return [
        [`${label}.token_address (ContractAddress)`, address(value.token_address, context.tokens)],
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
      return [[typedLabel, basic]];
    }
    if (structMembers(context.data, type) && isPlainObject(value)) {
      return structRows(type, value, label, context);
    }
  } catch {
    // A value its type cannot read (hashing accepted it): shown as given.
  }
  return [[typedLabel, text(value)]];
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

/** Rows of the domain and of the message, from their declared types. */
export function describeTypedData(
  data: TypedDataValue,
  tokens: Erc20Token[],
): { domain: TypedRow[]; message: TypedRow[] } {
  const context = { data, tokens };
  return {
    domain: structRows(domainTypeName(data), data.domain, '', context),
    message: structRows(data.primaryType, data.message, '', context),
  };
}
