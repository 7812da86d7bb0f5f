import { StarknetRpcError } from '../core/errors';
import { InvalidParamError } from '../core/transactions';
import { DevnetHost, methods, runMethod } from './methods';

export interface RpcMetrics {
  httpRequests: number;
  rpcCalls: Record<string, number>;
}

interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

type JsonRpcId = string | number | null;

interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: JsonRpcError;
}

const errorResponse = (id: JsonRpcId, error: JsonRpcError): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error,
});

/**
 * Integers too long for a double (devnet_mint amounts are sent as bare JSON numbers) would lose
 * digits in JSON.parse: quote them first. Only runs when such a literal is present.
 */
function quoteLongIntegers(text: string): string {
  if (!/[:,[]\s*\d{16,}/.test(text)) return text;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
      continue;
    }
    if (char >= '0' && char <= '9') {
      let j = i;
      while (j < text.length && /[0-9.eE+-]/.test(text[j])) j += 1;
      const literal = text.slice(i, j);
      out += /^\d{16,}$/.test(literal) ? `"${literal}"` : literal;
      i = j - 1;
      continue;
    }
    out += char;
  }
  return out;
}

/** Handles one JSON-RPC request object; returns undefined for a notification. */
function handleOne(
  host: DevnetHost,
  metrics: RpcMetrics,
  request: unknown,
): JsonRpcResponse | undefined {
  if (!request || typeof request !== 'object' || Array.isArray(request)) {
    return errorResponse(null, { code: -32600, message: 'Invalid Request' });
  }
  const { jsonrpc, method, params, id } = request as Record<string, unknown>;
  const validId = typeof id === 'string' || typeof id === 'number' || id === null;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || (id !== undefined && !validId)) {
    return errorResponse(validId ? (id as JsonRpcId) : null, {
      code: -32600,
      message: 'Invalid Request',
    });
  }
  const responseId = (id ?? null) as JsonRpcId;
  metrics.rpcCalls[method] = (metrics.rpcCalls[method] ?? 0) + 1;
  let response: JsonRpcResponse;
  if (!Object.prototype.hasOwnProperty.call(methods, method)) {
    response = errorResponse(responseId, { code: -32601, message: `Method not found: ${method}` });
  } else {
    try {
      response = { jsonrpc: '2.0', id: responseId, result: runMethod(host, method, params) };
    } catch (error) {
      response = errorResponse(responseId, toJsonRpcError(error));
    }
  }
  return id === undefined ? undefined : response;
}

export function toJsonRpcError(error: unknown): JsonRpcError {
  if (error instanceof StarknetRpcError) {
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  }
  if (error instanceof InvalidParamError) {
    return { code: -32602, message: error.message, data: { field: error.field } };
  }
  // Never leak a stack or internals: the message names the failure only.
  return {
    code: -32603,
    message: 'Internal error',
    data: error instanceof Error ? error.message : String(error),
  };
}

/** Handles a POST body: a request or a batch. Returns the response text, or '' for no content. */
export function handleRpcBody(host: DevnetHost, metrics: RpcMetrics, body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoteLongIntegers(body));
  } catch {
    return JSON.stringify(errorResponse(null, { code: -32700, message: 'Parse error' }));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      return JSON.stringify(errorResponse(null, { code: -32600, message: 'Invalid Request' }));
    const responses = parsed
      .map((request) => handleOne(host, metrics, request))
      .filter((r): r is JsonRpcResponse => r !== undefined);
    return responses.length ? JSON.stringify(responses) : '';
  }
  const response = handleOne(host, metrics, parsed);
  return response ? JSON.stringify(response) : '';
}
