/**
 * The one JSON-RPC client of the tests, benches and scripts. Plain node:http rather than fetch,
 * so a test can set any header (fetch drops Host, which the gateway routes by).
 */
import http, { type IncomingHttpHeaders } from 'node:http';

export class JsonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}`);
    this.name = 'JsonRpcError';
  }
}

export interface HttpReply {
  status: number;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  headers: IncomingHttpHeaders;
}

/** A JSON-RPC request object; `params` is left out when undefined, as a client may send it. */
export function jsonRpcRequest(method: string, params?: unknown, id: number | string = 1) {
  return { jsonrpc: '2.0' as const, id, method, ...(params === undefined ? {} : { params }) };
}

/** POSTs a raw body (a string) or a JSON value and returns status, text, parsed JSON, headers. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpReply> {
  const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const { status, text, responseHeaders } = await new Promise<{
    status: number;
    text: string;
    responseHeaders: IncomingHttpHeaders;
  }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(payload.length),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            responseHeaders: response.headers,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, text, json, headers: responseHeaders };
}

/** The whole JSON-RPC response of one call (result or error), without throwing on an error. */
export async function rpcResponse<T = unknown>(
  url: string,
  method: string,
  params?: unknown,
): Promise<{ result?: T; error?: { code: number; message: string; data?: unknown } }> {
  const reply = await postJson(url, jsonRpcRequest(method, params ?? []));
  if (reply.json === undefined || typeof reply.json !== 'object') {
    throw new Error(`${method}: HTTP ${reply.status}, not a JSON-RPC response: ${reply.text}`);
  }
  return reply.json;
}

/** One JSON-RPC call; a JSON-RPC error is thrown as a JsonRpcError (with code and data). */
export async function rpc<T = unknown>(url: string, method: string, params?: unknown): Promise<T> {
  const body = await rpcResponse<T>(url, method, params);
  if (body.error) {
    throw new JsonRpcError(method, body.error.code, body.error.message, body.error.data);
  }
  return body.result as T;
}
