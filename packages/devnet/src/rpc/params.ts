import type { BlockId } from '../core/devnet';
import { Felt, parseFelt } from '../core/felt';
import { InvalidParamError } from '../core/transactions';

export type Params = Record<string, unknown>;

/** JSON-RPC allows params by name or by position; methods read them by name. */
export function normalizeParams(raw: unknown, names: readonly string[]): Params {
  if (raw === undefined || raw === null) return {};
  if (Array.isArray(raw)) {
    if (raw.length > names.length)
      throw new InvalidParamError('params', `expected at most ${names.length} params`);
    const params: Params = {};
    raw.forEach((value, index) => (params[names[index]] = value));
    return params;
  }
  if (typeof raw === 'object') {
    // As nodes do: a param the method does not have is refused, not ignored.
    const unknown = Object.keys(raw).find((key) => !names.includes(key));
    if (unknown !== undefined) throw new InvalidParamError(unknown, 'not a param of this method');
    return raw as Params;
  }
  throw new InvalidParamError('params', 'expected an object or an array');
}

export function required(params: Params, name: string): unknown {
  const value = params[name];
  if (value === undefined) throw new InvalidParamError(name, 'missing');
  return value;
}

export function feltParam(params: Params, name: string): Felt {
  const value = required(params, name);
  try {
    return parseFelt(value);
  } catch (error) {
    throw new InvalidParamError(name, (error as Error).message);
  }
}

export function feltArray(value: unknown, name: string): Felt[] {
  if (!Array.isArray(value)) throw new InvalidParamError(name, 'expected an array of felts');
  return value.map((item, index) => {
    try {
      return parseFelt(item);
    } catch (error) {
      throw new InvalidParamError(`${name}[${index}]`, (error as Error).message);
    }
  });
}

export function blockIdParam(params: Params, name = 'block_id', fallback?: BlockId): BlockId {
  const value = params[name];
  if (value === undefined && fallback) return fallback;
  return parseBlockId(value, name);
}

export function parseBlockId(value: unknown, name: string): BlockId {
  if (value === 'latest' || value === 'pre_confirmed' || value === 'l1_accepted') return value;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (
      typeof obj.block_number === 'number' &&
      Number.isInteger(obj.block_number) &&
      obj.block_number >= 0
    ) {
      return { block_number: obj.block_number };
    }
    if (obj.block_hash !== undefined) {
      try {
        return { block_hash: parseFelt(obj.block_hash) };
      } catch (error) {
        throw new InvalidParamError(`${name}.block_hash`, (error as Error).message);
      }
    }
  }
  throw new InvalidParamError(
    name,
    "expected 'latest', 'pre_confirmed', 'l1_accepted', {block_number} or {block_hash}",
  );
}

export function integerParam(params: Params, name: string, optional = false): number | undefined {
  const value = params[name];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidParamError(name, 'expected a non-negative integer');
  }
  return value;
}

export function stringList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new InvalidParamError(name, 'expected an array of strings');
  }
  return value as string[];
}
