/**
 * The HTTP transport: SNIP-29 JSON-RPC on `POST /`, `GET /health`, `GET /metrics`, CORS for browser
 * dapps (the x-paymaster-api-key header included). Bodies over 1 MB are refused before they are
 * read whole.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { readRequestBody } from '@l2wallet/jsonrpc';

import { errors } from '../errors';
import { errorMessage } from '../protocol/envelope';
import type { Paymaster } from '../paymaster';

export const BODY_LIMIT = 1024 * 1024;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, x-paymaster-api-key',
  'access-control-max-age': '600',
};

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function send(response: http.ServerResponse, status: number, body?: string): void {
  response.writeHead(status, {
    ...CORS,
    ...(body !== undefined && { 'content-type': 'application/json' }),
  });
  response.end(body);
}

export function serve(paymaster: Paymaster, host: string, port: number): Promise<RunningServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'OPTIONS') return send(response, 204);
    if (request.method === 'GET' && path === '/health') {
      void paymaster
        .health()
        .then((health) =>
          send(response, health.status === 'ok' ? 200 : 503, JSON.stringify(health)),
        );
      return;
    }
    if (request.method === 'GET' && path === '/metrics') {
      void paymaster.metricsText().then((text) => {
        response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        response.end(text);
      });
      return;
    }
    if (request.method !== 'POST' || path !== '/') {
      const error = errors.invalidRequest(
        `${request.method} ${path}: JSON-RPC is POST /, health GET /health`,
      );
      return send(response, 404, JSON.stringify(errorMessage(null, error)));
    }
    if (Number(request.headers['content-length'] ?? 0) > BODY_LIMIT) {
      const error = errors.invalidRequest(`the body is larger than ${BODY_LIMIT} bytes`);
      send(response, 413, JSON.stringify(errorMessage(null, error)));
      request.destroy();
      return;
    }
    const key = request.headers['x-paymaster-api-key'];
    readRequestBody(request, BODY_LIMIT)
      .then(async (text) => {
        if (text === undefined) {
          const error = errors.invalidRequest(`the body is larger than ${BODY_LIMIT} bytes`);
          return send(response, 413, JSON.stringify(errorMessage(null, error)));
        }
        const answer = await paymaster.handle(
          text,
          Array.isArray(key) ? key[0] : key,
          request.socket.remoteAddress,
        );
        send(response, answer.status, answer.body);
      })
      .catch(() => {
        if (!response.headersSent)
          send(response, 500, JSON.stringify(errorMessage(null, errors.internal())));
        else response.destroy();
      });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${bound}`,
        port: bound,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
