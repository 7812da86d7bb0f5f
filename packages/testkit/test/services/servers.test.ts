/** The testkit's own servers and JSON-RPC client, against each other on 127.0.0.1. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  JsonRpcError,
  postJson,
  rpc,
  rpcResponse,
  serveDirectory,
  serveHttp,
  serveSilent,
  startCountingProxy,
} from '@l2wallet/testkit';

describe('serveHttp and the JSON-RPC client', () => {
  it('rpc returns results, throws JSON-RPC errors with code and data; postJson sends any Host', async () => {
    const stub = await serveHttp((request, response, body) => {
      const call = JSON.parse(body) as { id: number; method: string; params: unknown };
      response.writeHead(200, {
        'content-type': 'application/json',
        'x-host': request.headers.host,
      });
      response.end(
        JSON.stringify(
          call.method === 'fail'
            ? { jsonrpc: '2.0', id: call.id, error: { code: -32602, message: 'bad', data: [1] } }
            : { jsonrpc: '2.0', id: call.id, result: { echoed: call.params } },
        ),
      );
    });
    try {
      await expect(rpc(stub.url, 'echo', [1, 2])).resolves.toEqual({ echoed: [1, 2] });
      const failure = await rpc(stub.url, 'fail').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(JsonRpcError);
      expect(failure).toMatchObject({ code: -32602, data: [1], message: 'fail: bad' });
      expect(await rpcResponse(stub.url, 'fail')).toMatchObject({ error: { code: -32602 } });
      const raw = await postJson(stub.url, '{"id":7,"method":"m"}', { host: 'other.test' });
      expect(raw).toMatchObject({ status: 200, json: { id: 7, result: {} } });
      expect(raw.headers['x-host']).toBe('other.test');
      expect(stub.received()).toBe(4);
    } finally {
      await stub.close();
    }
  });

  it('the counting proxy forwards and counts one entry per HTTP request (a batch as one)', async () => {
    const stub = await serveHttp((request, response, body) => {
      expect(request.url).toBe('/rpc');
      const calls = JSON.parse(body) as { id: number }[] | { id: number };
      const reply = (call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, result: 'ok' });
      response.end(JSON.stringify(Array.isArray(calls) ? calls.map(reply) : reply(calls)));
    });
    const proxy = await startCountingProxy(`${stub.url}/rpc`);
    try {
      expect(await rpc(proxy.url, 'a')).toBe('ok');
      await postJson(proxy.url, [
        { jsonrpc: '2.0', id: 1, method: 'b' },
        { jsonrpc: '2.0', id: 2, method: 'c' },
      ]);
      expect(proxy.requests()).toEqual([['a'], ['b', 'c']]);
      const other = await serveHttp(
        (request, response) => void response.end(`other ${request.url}`),
      );
      try {
        proxy.retarget(`${other.url}/base`);
        expect(await (await fetch(`${proxy.url}/api/txns?page=2`)).text()).toBe(
          'other /base/api/txns?page=2',
        );
        expect(proxy.log().at(-1)).toEqual({ method: 'GET', path: '/api/txns?page=2', calls: [] });
        expect(proxy.requests()).toHaveLength(2);
      } finally {
        await other.close();
      }
    } finally {
      await proxy.stop();
      await stub.close();
    }
  });
});

describe('startCountingProxy and idle connections', () => {
  it("announces its own keep-alive, not its target's: a client never outwaits the proxy", async () => {
    const target = await serveHttp((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'keep-alive': 'timeout=60' });
      response.end('ok');
    });
    const proxy = await startCountingProxy(target.url);
    try {
      const answer = await fetch(proxy.url);
      expect(await answer.text()).toBe('ok');
      const announced = /timeout=(\d+)/.exec(answer.headers.get('keep-alive') ?? '');
      // Node's server says how long it keeps an idle connection; the client closes it sooner.
      expect(announced?.[1]).toBe('5');
    } finally {
      await proxy.stop();
      await target.close();
    }
  });
});

describe('serveSilent', () => {
  it('accepts a connection and never answers', async () => {
    const silent = await serveSilent();
    try {
      const socket = net.connect(silent.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n');
      const answered = await Promise.race([
        new Promise((resolve) => socket.once('data', () => resolve(true))),
        new Promise((resolve) => setTimeout(() => resolve(false), 300)),
      ]);
      expect(answered).toBe(false);
      expect(silent.received()).toBe(1);
      socket.destroy();
    } finally {
      await silent.close();
    }
  });
});

describe('serveDirectory', () => {
  it('serves files of its folder and nothing outside it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'testkit-static-'));
    mkdirSync(path.join(dir, 'site'));
    writeFileSync(path.join(dir, 'site', 'index.html'), '<p>hi</p>');
    writeFileSync(path.join(dir, 'secret.txt'), 'outside');
    const server = await serveDirectory(path.join(dir, 'site'));
    try {
      const page = await fetch(`${server.url}/`);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toBe('<p>hi</p>');
      expect((await fetch(`${server.url}/../secret.txt`)).status).toBe(404);
      expect((await fetch(`${server.url}/%2e%2e/secret.txt`)).status).toBe(404);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
