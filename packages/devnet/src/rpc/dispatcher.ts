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

interface PreparedBody {
  text: string;
  /** Placeholder string (as JSON.parse returns it) -> the numeric id literal exactly as sent. */
  rawIds: Map<string, string>;
}

const LONG_INTEGER = /^-?\d{16,}$/;

/** Whether a numeric id literal would not come back unchanged from JSON.parse + stringify. */
function idNeedsRawEcho(text: string): boolean {
  for (const match of text.matchAll(/"id"\s*:\s*(-?\d[\d.eE+-]*)/g)) {
    if (String(Number(match[1])) !== match[1]) return true;
  }
  return false;
}

/**
 * Integers too long for a double (devnet_mint amounts are sent as bare JSON numbers) would lose
 * digits in JSON.parse: quote them first. A request's numeric `id` must come back exactly as
 * sent (a number, every digit): it is replaced by a placeholder string, swapped back for the
 * literal in the response text. Only scans when such a literal is present.
 */
function prepareBody(body: string): PreparedBody {
  const rawIds = new Map<string, string>();
  if (!/[:,[]\s*-?\d{16,}/.test(body) && !idNeedsRawEcho(body)) return { text: body, rawIds };
  const sentinel = `\u0000rpc-id-${Math.random().toString(36).slice(2)}:`;
  let out = '';
  let inString = false;
  let stringStart = 0;
  let lastString: string | undefined; // the string token just closed, if nothing followed yet
  let key: string | undefined; // the key whose value comes next
  const containers: string[] = [];
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i];
    if (inString) {
      out += char;
      if (char === '\\') out += body[++i] ?? '';
      else if (char === '"') {
        inString = false;
        lastString = body.slice(stringStart, i + 1);
      }
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      out += char;
      continue;
    }
    if (char === '"') {
      inString = true;
      stringStart = i;
      key = undefined;
      out += char;
      continue;
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      let j = i + 1;
      while (j < body.length && /[0-9.eE+-]/.test(body[j])) j += 1;
      const literal = body.slice(i, j);
      // The id of a request: a top-level object, or an object directly in a top-level batch.
      const requestLevel =
        containers.length === 1 || (containers.length === 2 && containers[0] === '[');
      if (key === '"id"' && requestLevel && containers[containers.length - 1] === '{') {
        const placeholder = `${sentinel}${rawIds.size}`;
        rawIds.set(placeholder, literal);
        out += JSON.stringify(placeholder);
      } else out += LONG_INTEGER.test(literal) ? `"${literal}"` : literal;
      i = j - 1;
      key = undefined;
      lastString = undefined;
      continue;
    }
    if (char === '{' || char === '[') containers.push(char);
    else if (char === '}' || char === ']') containers.pop();
    key = char === ':' ? lastString : undefined;
    lastString = undefined;
    out += char;
  }
  return { text: out, rawIds };
}

/** The response text with each numeric id placeholder back to the literal the client sent. */
function restoreIds(text: string, rawIds: Map<string, string>): string {
  let out = text;
  for (const [placeholder, literal] of rawIds) {
    out = out.split(JSON.stringify(placeholder)).join(literal);
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
  const { text, rawIds } = prepareBody(body);
  try {
    parsed = JSON.parse(text);
  } catch {
    return JSON.stringify(errorResponse(null, { code: -32700, message: 'Parse error' }));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      return JSON.stringify(errorResponse(null, { code: -32600, message: 'Invalid Request' }));
    const responses = parsed
      .map((request) => handleOne(host, metrics, request))
      .filter((r): r is JsonRpcResponse => r !== undefined);
    return responses.length ? restoreIds(JSON.stringify(responses), rawIds) : '';
  }
  const response = handleOne(host, metrics, parsed);
  return response ? restoreIds(JSON.stringify(response), rawIds) : '';
}
