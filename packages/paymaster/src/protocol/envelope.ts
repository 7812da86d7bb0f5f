/** JSON-RPC 2.0 framing: a body into calls (one, or a batch), answers back into a body. */
import { errors, PaymasterError } from '../errors';

export type JsonRpcId = string | number | null;

export interface JsonRpcCall {
  /** Absent for a notification (no answer is sent). */
  id?: JsonRpcId;
  method: string;
  params: unknown;
}

export const BATCH_LIMIT = 20;

/**
 * The calls a body holds, each a call or the error that answers it; or an error for the whole body.
 */
export function parseBody(text: string): {
  batch: boolean;
  calls: (JsonRpcCall | { id: JsonRpcId; error: PaymasterError })[];
} {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.parse();
  }
  const batch = Array.isArray(parsed);
  const items = batch ? (parsed as unknown[]) : [parsed];
  if (batch && items.length === 0) throw errors.invalidRequest('an empty batch');
  if (items.length > BATCH_LIMIT) {
    throw errors.invalidRequest(`a batch holds at most ${BATCH_LIMIT} calls (got ${items.length})`);
  }
  return { batch, calls: items.map(readCall) };
}

function readCall(item: unknown): JsonRpcCall | { id: JsonRpcId; error: PaymasterError } {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return { id: null, error: errors.invalidRequest('a call is a JSON object') };
  }
  const call = item as Record<string, unknown>;
  const id = call.id;
  const idValid =
    id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
  if (!idValid)
    return { id: null, error: errors.invalidRequest('id must be a string, a number or null') };
  if (call.jsonrpc !== '2.0') {
    return { id: (id as JsonRpcId) ?? null, error: errors.invalidRequest('jsonrpc must be "2.0"') };
  }
  if (typeof call.method !== 'string') {
    return {
      id: (id as JsonRpcId) ?? null,
      error: errors.invalidRequest('method must be a string'),
    };
  }
  return { id: id as JsonRpcId | undefined, method: call.method, params: call.params };
}

export const resultMessage = (id: JsonRpcId, result: unknown) => ({
  jsonrpc: '2.0' as const,
  id,
  result,
});

export const errorMessage = (id: JsonRpcId, error: PaymasterError) => ({
  jsonrpc: '2.0' as const,
  id,
  error: error.toJSON(),
});
