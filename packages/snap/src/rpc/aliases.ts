import { invalidParams } from './errors';
import { sameAddress } from './structs';

/**
 * Some methods accept one value under two names (SPEC 4.1 open points). Returns the value,
 * -32602 when both are missing or when they disagree.
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
