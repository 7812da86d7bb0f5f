/**
 * A method card's form: its fields, the context its defaults come from, and the turning of the
 * form's strings into the method's params.
 */
import type { StarknetSnapClient } from '@l2wallet/client';

export type FieldKind = 'text' | 'number' | 'boolean' | 'json' | 'chain';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  optional?: boolean;
  hint?: string;
}

/** What the defaults are computed from. */
export interface DefaultsContext {
  address: string;
  nextIndex: number;
  chainId: string;
  lastSignature: string;
  lastTxHash: string;
}

export type FieldValues = Record<string, string>;

export interface MethodSpec {
  method: string;
  group: 'Accounts' | 'Network' | 'Signing' | 'Transactions' | 'Tokens';
  summary: string;
  fields: FieldSpec[];
  defaults(ctx: DefaultsContext): FieldValues;
  call(client: StarknetSnapClient, params: Record<string, unknown>): Promise<unknown>;
}

/** New defaults for a form: every field takes its new default except those the user edited. */
export function refillDefaults(
  current: FieldValues,
  defaults: FieldValues,
  edited: ReadonlySet<string>,
): FieldValues {
  const next: FieldValues = { ...defaults };
  for (const name of edited) if (name in current) next[name] = current[name];
  return next;
}

/** Turns form strings into params; empty optional fields are left out. Throws on bad input. */
export function buildParams(
  spec: MethodSpec,
  values: FieldValues,
): Record<string, unknown> | undefined {
  if (spec.fields.length === 0) return undefined;
  const params: Record<string, unknown> = {};
  for (const field of spec.fields) {
    const raw = (values[field.name] ?? '').trim();
    if (raw === '') {
      if (field.optional) continue;
      throw new Error(`${field.name} is required`);
    }
    switch (field.kind) {
      case 'number': {
        const value = Number(raw);
        if (!Number.isInteger(value)) throw new Error(`${field.name} must be an integer`);
        params[field.name] = value;
        break;
      }
      case 'boolean':
        params[field.name] = raw === 'true';
        break;
      case 'json':
        try {
          params[field.name] = JSON.parse(raw) as unknown;
        } catch {
          throw new Error(`${field.name} is not valid JSON`);
        }
        break;
      default:
        params[field.name] = raw;
    }
  }
  return params;
}
