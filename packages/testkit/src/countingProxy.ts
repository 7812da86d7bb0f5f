import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { LOOPBACK } from './constants';

export interface CountingProxy {
  port: number;
  url: string;
  /** One entry per HTTP request forwarded: the JSON-RPC methods it carried (a batch: several). */
  requests(): string[][];
  reset(): void;
  stop(): Promise<void>;
}

/**
 * An HTTP JSON-RPC pass-through to `targetUrl` on 127.0.0.1 that records each HTTP request it
 * forwards (the methods in it, a batch as one request), to count a client's round trips.
 */
export async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const log: string[][] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      try {
        const body = JSON.parse(text) as { method: string } | { method: string }[];
        log.push(Array.isArray(body) ? body.map((call) => call.method) : [body.method]);
      } catch {
        log.push(['(unparsable)']);
      }
      try {
        const upstream = await fetch(targetUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        res.writeHead(upstream.status, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
        });
        res.end(await upstream.text());
      } catch {
        res.writeHead(502);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://${LOOPBACK}:${port}`,
    requests: () => log.map((methods) => [...methods]),
    reset: () => void log.splice(0, log.length),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
