/**
 * Servers a test writes the answers of: an HTTP stub (a node that answers oddly, a failing
 * explorer, a paymaster) and a TCP listener that accepts and never answers (a hung upstream).
 * Both on 127.0.0.1, on a free port unless told, closed with every connection they hold.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';

import { LOOPBACK } from '../constants';

export interface StubServer {
  url: string;
  port: number;
  /** The number of requests (HTTP) or connections (TCP) received so far. */
  received(): number;
  close(): Promise<void>;
}

/**
 * An HTTP server whose `handler` gets each request with its whole body read (as text). A handler
 * that never writes leaves the request hanging, as a stuck server would.
 */
export function serveHttp(
  handler: (
    request: IncomingMessage,
    response: ServerResponse,
    body: string,
  ) => void | Promise<void>,
  options: { port?: number } = {},
): Promise<StubServer> {
  let count = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      count += 1;
      Promise.resolve(handler(request, response, Buffer.concat(chunks).toString('utf8'))).catch(
        (error: unknown) => {
          if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
    });
  });
  return listen(
    server,
    options.port,
    'http',
    () => count,
    () => server.closeAllConnections(),
  );
}

/** A TCP listener that accepts connections and never answers (nor closes them). */
export function serveSilent(options: { port?: number } = {}): Promise<StubServer> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  return listen(
    server,
    options.port,
    'http',
    () => count,
    () => {
      for (const socket of sockets) socket.destroy();
    },
  );
}

function listen(
  server: net.Server,
  port: number | undefined,
  scheme: string,
  received: () => number,
  dropConnections: () => void,
): Promise<StubServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, LOOPBACK, () => {
      const bound = (server.address() as net.AddressInfo).port;
      resolve({
        url: `${scheme}://${LOOPBACK}:${bound}`,
        port: bound,
        received,
        close: () =>
          new Promise<void>((done) => {
            dropConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
