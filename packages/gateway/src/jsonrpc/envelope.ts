/**
 * JSON-RPC 2.0 envelopes: a body is one call or a batch of at most BATCH_LIMIT calls; a call is
 * `{jsonrpc: "2.0", id, method, params?}`. Shape only: methods and params are checked against the
 * method table afterwards.
 */
import { BATCH_LIMIT, errors, type JsonRpcId, RpcError } from './errors';

/** By position, or by name (Starknet methods only; the method table checks which). */
export type Params = unknown[] | Record<string, unknown>;

export interface Call {
  id: JsonRpcId;
  method: string;
  params: Params;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isId = (value: unknown): value is JsonRpcId =>
  value === null ||
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value));

/** The calls of a body, or the RpcError that refuses the whole body (nothing is charged). */
export function parseBody(body: string): { batch: boolean; calls: unknown[] } | RpcError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return errors.parse();
  }
  if (!Array.isArray(parsed)) return { batch: false, calls: [parsed] };
  if (parsed.length === 0) return errors.invalidRequest('empty batch');
  if (parsed.length > BATCH_LIMIT) return errors.batchTooLarge(parsed.length);
  return { batch: true, calls: parsed };
}

/** The id to answer a call with, even when the call is not valid (JSON-RPC says null then). */
export function idOf(call: unknown): JsonRpcId {
  return isObject(call) && isId(call.id) ? call.id : null;
}

/** Checks one call's envelope; throws -32600 (or -32602 for non-array params). */
export function checkCall(call: unknown): Call {
  if (!isObject(call)) throw errors.invalidRequest('a call must be a JSON object');
  if (call.jsonrpc !== '2.0') throw errors.invalidRequest('jsonrpc must be "2.0"');
  if (typeof call.method !== 'string') throw errors.invalidRequest('method must be a string');
  if (!('id' in call) || !isId(call.id)) {
    throw errors.invalidRequest('id must be a number, a string or null');
  }
  // By position (an array) or by name (an object: Starknet methods take them so).
  if (call.params !== undefined && (typeof call.params !== 'object' || call.params === null)) {
    throw errors.invalidParams('params must be an array');
  }
  return { id: call.id, method: call.method, params: (call.params as Params) ?? [] };
}
