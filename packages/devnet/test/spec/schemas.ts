/**
 * The official starknet-specs v0.10.0 JSON schemas (copied beside this file, see its README)
 * as validators: a method's result, a method's error and a WebSocket notification's params.
 * Every file is registered under its own name, so the specs' cross-file `$ref`s resolve.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface SpecMethod {
  file: string;
  index: number;
  name: string;
  params: { name: string; required?: boolean }[];
  errors: string[];
}

export interface SpecError {
  code: number;
  message: string;
  /** The `data` schema's ref, when the spec gives the error data. */
  dataRef?: string;
}

const SPEC_DIR = join(__dirname, 'v0.10.0', 'api');
const CROSS_FILE = './api/';

/** The three slips in the spec text, mended so the schemas mean what the text says. */
function mend(node: Json, path: string[]): Json {
  if (Array.isArray(node)) return node.map((item, i) => mend(item, [...path, String(i)]));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required' && typeof value === 'string') {
      out[key] = [value];
    } else if (key === 'data' && value === 'string' && path.includes('errors')) {
      out[key] = { type: 'string' };
    } else if (key === '$ref' && typeof value === 'string' && value.startsWith(CROSS_FILE)) {
      out[key] = value.slice(CROSS_FILE.length);
    } else {
      out[key] = mend(value, [...path, key]);
    }
  }
  // A leftover `{"schema": X}` wrapper where a schema belongs reads as X; method params and
  // results carry their schema under `schema` on purpose.
  const isMethodPart = path.length >= 2 && path[0] === 'methods';
  const schema = out.schema;
  if (!isMethodPart && schema && typeof schema === 'object' && !Array.isArray(schema)) {
    const rest = { ...out };
    delete rest.schema;
    return { ...rest, ...schema };
  }
  return out;
}

function load(): { ajv: Ajv; methods: Map<string, SpecMethod>; files: Map<string, JsonObject> } {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  const methods = new Map<string, SpecMethod>();
  const files = new Map<string, JsonObject>();
  for (const file of readdirSync(SPEC_DIR).filter((name) => name.endsWith('.json'))) {
    const raw = JSON.parse(readFileSync(join(SPEC_DIR, file), 'utf8')) as Json;
    const doc = mend(raw, []) as JsonObject;
    files.set(file, doc);
    ajv.addSchema(doc as object, file);
    const list = (doc.methods ?? []) as JsonObject[];
    list.forEach((method, index) => {
      const errors = ((method.errors ?? []) as JsonObject[]).map((e) => String(e.$ref));
      methods.set(String(method.name), {
        file,
        index,
        name: String(method.name),
        params: (method.params as JsonObject[]).map((p) => ({
          name: String(p.name),
          required: p.required === true,
        })),
        errors: errors.map((ref) => (ref.startsWith('#') ? `${file}${ref}` : ref)),
      });
    });
  }
  return { ajv, methods, files };
}

let loaded: ReturnType<typeof load> | undefined;
function spec(): ReturnType<typeof load> {
  loaded ??= load();
  return loaded;
}

const compiled = new Map<string, ValidateFunction>();
function validator(ref: string): ValidateFunction {
  let fn = compiled.get(ref);
  if (!fn) {
    fn = spec().ajv.compile({ $ref: ref });
    compiled.set(ref, fn);
  }
  return fn;
}

function problems(fn: ValidateFunction, value: unknown): string[] {
  if (fn(value)) return [];
  return (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}

function method(name: string): SpecMethod {
  const found = spec().methods.get(name);
  if (!found) throw new Error(`${name} is not a method of starknet-specs v0.10.0`);
  return found;
}

/** Every method the spec files define (read, write, trace and WebSocket APIs). */
export function specMethodNames(): string[] {
  return [...spec().methods.keys()];
}

/** The spec's params of a method, in order. */
export function specParams(name: string): { name: string; required?: boolean }[] {
  return method(name).params;
}

/** Where a method's result fails its schema; empty when it conforms. */
export function resultProblems(name: string, result: unknown): string[] {
  const m = method(name);
  return problems(validator(`${m.file}#/methods/${m.index}/result/schema`), result);
}

/**
 * Where a value fails a named schema, e.g. `starknet_api_openrpc.json#/components/schemas/FELT`.
 */
export function schemaProblems(ref: string, value: unknown): string[] {
  return problems(validator(ref), value);
}

/** Where a notification's params (by name) fail the spec's params of that notification method. */
export function notificationProblems(name: string, params: Record<string, unknown>): string[] {
  const m = method(name);
  const out: string[] = [];
  m.params.forEach((param, i) => {
    if (!(param.name in params)) {
      if (param.required) out.push(`missing ${param.name}`);
      return;
    }
    const ref = `${m.file}#/methods/${m.index}/params/${i}/schema`;
    out.push(...problems(validator(ref), params[param.name]).map((p) => `${param.name}${p}`));
  });
  return out;
}

function resolveError(ref: string): SpecError {
  const [file, pointer] = ref.split('#');
  let node: Json = spec().files.get(file) ?? null;
  for (const part of pointer.split('/').filter(Boolean)) {
    node = node && typeof node === 'object' && !Array.isArray(node) ? (node[part] ?? null) : null;
  }
  const error = node as JsonObject | null;
  if (!error) throw new Error(`no error at ${ref}`);
  return {
    code: Number(error.code),
    message: String(error.message),
    dataRef: error.data === undefined ? undefined : `${ref}/data`,
  };
}

/** The errors the spec lists for a method. */
export function specErrors(name: string): SpecError[] {
  return method(name).errors.map(resolveError);
}

/**
 * Where a JSON-RPC error fails the spec for that method: its code must be one the method lists
 * (or a JSON-RPC 2.0 code such as -32602), its message the spec's text, its data the spec's shape.
 */
export function errorProblems(
  name: string,
  error: { code: number; message: string; data?: unknown },
): string[] {
  if (error.code <= -32000 && error.code >= -32768) return [];
  const listed = specErrors(name).find((e) => e.code === error.code);
  if (!listed) return [`code ${error.code} is not an error of ${name}`];
  const out: string[] = [];
  if (error.message !== listed.message) {
    out.push(`message ${JSON.stringify(error.message)} is not ${JSON.stringify(listed.message)}`);
  }
  if (listed.dataRef) {
    out.push(...problems(validator(listed.dataRef), error.data).map((p) => `data${p}`));
  } else if (error.data !== undefined) {
    out.push('data given where the spec defines none');
  }
  return out;
}
