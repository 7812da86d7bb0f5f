/**
 * postJson names each way an exchange fails, against a real server on 127.0.0.1; JsonRpcError
 * writes the response's `error` member.
 */
import type { ServerResponse } from 'node:http';

import { CLOSED_URL, serveHttp, type StubServer } from '@l2wallet/testkit';

import { JsonRpcError, withoutStack } from '../src/error';
import { ExchangeFailure, postJson } from '../src/http';

const ROUTES: Record<string, (response: ServerResponse) => void> = {
  '/answer': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }));
  },
  '/refused': (response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'no' } }));
  },
  '/text': (response) => {
    response.writeHead(502);
    response.end('Bad gateway');
  },
  '/stall': () => undefined,
  '/stall-body': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"jsonrpc":');
  },
  '/break-body': (response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    response.write('{"jsonrpc":', () => response.destroy());
  },
};

let server: StubServer;
let base: string;

beforeAll(async () => {
  server = await serveHttp((request, response) => ROUTES[request.url ?? '']?.(response));
  base = server.url;
});

afterAll(() => server.close());

async function failure(url: string, timeoutMs = 300): Promise<ExchangeFailure> {
  const error = await postJson(url, { jsonrpc: '2.0', id: 1, method: 'm' }, { timeoutMs }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExchangeFailure);
  return error as ExchangeFailure;
}

describe('postJson', () => {
  it('returns the parsed answer with its status, an HTTP error status included', async () => {
    const options = { timeoutMs: 2000 };
    expect(await postJson(`${base}/answer`, {}, options)).toEqual({
      status: 200,
      ok: true,
      body: { jsonrpc: '2.0', id: 1, result: '0x1' },
    });
    const refused = await postJson(`${base}/refused`, {}, options);
    expect(refused).toMatchObject({ status: 401, ok: false, body: { error: { code: -32001 } } });
  });

  it('names each failure: no answer, a stalled or broken body, text, no server', async () => {
    expect(await failure(`${base}/stall`)).toMatchObject({ kind: 'timeout', status: undefined });
    expect(await failure(`${base}/stall-body`)).toMatchObject({
      kind: 'body-timeout',
      status: 200,
    });
    expect(await failure(`${base}/break-body`, 2000)).toMatchObject({
      kind: 'body-closed',
      status: 200,
    });
    expect(await failure(`${base}/text`, 2000)).toMatchObject({ kind: 'not-json', status: 502 });
    expect(await failure(CLOSED_URL, 2000)).toMatchObject({
      kind: 'connection',
    });
  });
});

describe('JsonRpcError', () => {
  it('is the error member: data only when there is some; the HTTP status is not in it', () => {
    expect(JSON.stringify(new JsonRpcError(-32602, 'Invalid params'))).toBe(
      '{"code":-32602,"message":"Invalid params"}',
    );
    const limited = new JsonRpcError(-32005, 'Limit exceeded', { retry_after_ms: 5 }, 429);
    expect(limited.toJSON()).toEqual({
      code: -32005,
      message: 'Limit exceeded',
      data: { retry_after_ms: 5 },
    });
    expect(limited.httpStatus).toBe(429);
  });
});

describe('withoutStack', () => {
  it('empties the stack a snap would serialize, keeping the error and its message', () => {
    const error = new JsonRpcError(-32603, 'boom');
    expect(error.stack).toContain('jsonrpc.test');
    expect(withoutStack(error)).toBe(error);
    expect(error.stack).toBe('');
    expect(JSON.stringify({ ...error, stack: error.stack })).not.toContain('jsonrpc.test');
    expect(error.message).toBe('boom');
  });
});
