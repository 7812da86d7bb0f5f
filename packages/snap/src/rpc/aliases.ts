import { invalidParams } from '../errors';
import { sameAddress } from '../starknet/felt';

/**
 * Some methods accept one value under two names
 * (docs/interface/snap.md#parameter-names-and-aliases). Returns the value, -32602 when both are
 * missing or when they disagree.
 */
export function pickAliased(
  values: Record<string, string | undefined>,
  expected = 'expected a Starknet address',
): string {
  const names = Object.keys(values);
  const given = names.filter((name) => values[name] !== undefined);
  if (given.length === 0) {
    throw invalidParams(
      names[0],
      `is required: ${expected} (also accepted as "${names.slice(1).join('", "')}")`,
    );
  }
  const first = values[given[0]] as string;
  for (const name of given.slice(1)) {
    if (!sameAddress(first, values[name] as string)) {
      throw invalidParams(name, `must equal "${given[0]}" when both are given`);
    }
  }
  return first;
}

/** Params are compared after validation, which turns amounts into bigints. */
const asText = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? `${item.toString()}n` : item,
  );

/**
 * The same for an object param known under two names (the production Starknet snap's name
 * beside the documented one, docs/interface/snap.md#parameter-names-and-aliases): the value given,
 * undefined when neither is, -32602 when both are given and differ.
 */
export function pickAliasedValue<Value>(
  values: Record<string, Value | undefined>,
): Value | undefined {
  const given = Object.entries(values).filter(([, value]) => value !== undefined);
  const [first] = given;
  for (const [name, value] of given.slice(1)) {
    if (asText(value) !== asText(first[1])) {
      throw invalidParams(name, `must equal "${first[0]}" when both are given`);
    }
  }
  return first?.[1];
}

/**
 * As pickAliasedValue, for a required param: -32602 naming the documented name when neither is
 * given.
 */
export function requireAliasedValue<Value>(
  values: Record<string, Value | undefined>,
  expected: string,
): Value {
  const value = pickAliasedValue(values);
  if (value === undefined) {
    const names = Object.keys(values);
    throw invalidParams(
      names[0],
      `is required: ${expected} (also accepted as "${names.slice(1).join('", "')}")`,
    );
  }
  return value;
}
