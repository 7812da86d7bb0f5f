/**
 * A JSON-RPC 2.0 service over HTTP on 127.0.0.1, for the services the testkit runs itself (the
 * ERC-7677 paymaster): batches, -32700 for a body that is not JSON, and each error a method
 * throws as the error object (its `code`, else -32603). CORS is open, so a page can call it.
 */
import { serveHttp, type StubServer } from '../stubs/stubServers';

export type JsonRpcFailure = Error & { code?: number; shortMessage?: string };

/** An error the service answers as `{code, message}`. */
export function jsonRpcFailure(code: number, message: string): JsonRpcFailure {
  return Object.assign(new Error(message), { code });
}

type JsonRpcBody = { id?: unknown; method?: string; params?: unknown };

/** Serves `handle(method, params)` for every request: its result, or the error it throws. */
export function serveJsonRpc(
  port: number,
  handle: (method: string, params: unknown) => Promise<unknown>,
): Promise<StubServer> {
  async function answer(body: JsonRpcBody) {
    const { id = null, method, params } = body ?? {};
    try {
      return { jsonrpc: '2.0', id, result: await handle(String(method), params) };
    } catch (error) {
      const failure = error as JsonRpcFailure;
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: failure.code ?? -32603,
          message: String(failure.shortMessage ?? failure.message),
        },
      };
    }
  }
  return serveHttp(
    async (_request, response, text) => {
      let reply: unknown;
      try {
        const body = JSON.parse(text) as JsonRpcBody | JsonRpcBody[];
        reply = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
      } catch {
        reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      response.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      response.end(JSON.stringify(reply));
    },
    { port },
  );
}
