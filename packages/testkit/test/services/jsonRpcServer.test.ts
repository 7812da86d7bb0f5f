/**
 * The JSON-RPC service the ERC-4337 stack's paymaster runs on (src/jsonRpcServer.ts), against
 * the testkit's own client on 127.0.0.1: what a caller gets for a result, a thrown error with and
 * without a code, a batch and a body that is not JSON.
 */
import { postJson } from '@l2wallet/testkit';

import { jsonRpcFailure, serveJsonRpc } from '../../src/services/jsonRpcServer';

describe('serveJsonRpc', () => {
  let server: Awaited<ReturnType<typeof serveJsonRpc>>;
  const seen: string[] = [];

  beforeAll(async () => {
    server = await serveJsonRpc(0, async (method, params) => {
      seen.push(method);
      if (method === 'echo') return { params };
      if (method === 'refuse') throw jsonRpcFailure(-32602, 'params must be [x]');
      if (method === 'crash') throw Object.assign(new Error('long'), { shortMessage: 'short' });
      throw jsonRpcFailure(-32601, `Method not found: ${method}`);
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers results and errors in JSON-RPC envelopes, a batch in order, CORS open', async () => {
    const one = await postJson(server.url, { jsonrpc: '2.0', id: 7, method: 'echo', params: [1] });
    expect(one.json).toEqual({ jsonrpc: '2.0', id: 7, result: { params: [1] } });
    expect(one.headers['access-control-allow-origin']).toBe('*');
    const batch = await postJson(server.url, [
      { jsonrpc: '2.0', id: 1, method: 'refuse' },
      { jsonrpc: '2.0', id: 2, method: 'crash' },
      { jsonrpc: '2.0', id: 3, method: 'pm_unknown' },
      { jsonrpc: '2.0', method: 'echo' },
    ]);
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'params must be [x]' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'short' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found: pm_unknown' } },
      { jsonrpc: '2.0', id: null, result: {} },
    ]);
    expect(seen).toEqual(['echo', 'refuse', 'crash', 'pm_unknown', 'echo']);
  });

  it('answers a body that is not JSON with -32700 and id null', async () => {
    const reply = await postJson(server.url, '{"jsonrpc":');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });
});
