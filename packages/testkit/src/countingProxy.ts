import http from 'node:http';

import { serveHttp } from './stubServers';

export interface ProxiedRequest {
  /** HTTP method and path (with query) of the request. */
  method: string;
  path: string;
  /** The JSON-RPC methods a POST carried (a batch: several; unparsable: ['(unparsable)']). */
  calls: string[];
}

export interface CountingProxy {
  port: number;
  url: string;
  /** One entry per JSON-RPC POST forwarded: the methods it carried (a batch: several). */
  requests(): string[][];
  /** Every request forwarded, in order (GETs too, such as an explorer's). */
  log(): ProxiedRequest[];
  reset(): void;
  /** Forwards from now on to another server (the same path and query). */
  retarget(targetUrl: string): void;
  stop(): Promise<void>;
}

function methodsOf(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    return Array.isArray(parsed) ? parsed.map((call) => call.method) : [parsed.method];
  } catch {
    return ['(unparsable)'];
  }
}

/**
 * An HTTP pass-through to `targetUrl` on 127.0.0.1 (a free port unless `port`) that records
 * every request it forwards, to count a client's round trips: JSON-RPC POSTs with the methods
 * they carried (a batch as one request), and any other request by method and path.
 */
export async function startCountingProxy(
  targetUrl: string,
  options: { port?: number } = {},
): Promise<CountingProxy> {
  const entries: ProxiedRequest[] = [];
  let target = new URL(targetUrl);
  const server = await serveHttp(
    (request, response, body) =>
      new Promise<void>((done) => {
        const method = request.method ?? 'GET';
        const path = request.url ?? '/';
        entries.push({ method, path, calls: method === 'POST' ? methodsOf(body) : [] });
        // The proxy's root stands for the target URL itself (a bundler's /rpc, say).
        const forwardPath =
          path === '/'
            ? `${target.pathname}${target.search}`
            : `${target.pathname.replace(/\/$/, '')}${path}`;
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port,
            path: forwardPath,
            method,
            headers: { ...request.headers, host: target.host },
          },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, {
              ...answer.headers,
              'access-control-allow-origin': '*',
            });
            answer.pipe(response);
            answer.on('end', done);
          },
        );
        upstream.on('error', () => {
          if (!response.headersSent) response.writeHead(502);
          response.end();
          done();
        });
        upstream.end(body);
      }),
    { port: options.port },
  );
  return {
    port: server.port,
    url: server.url,
    requests: () =>
      entries.filter((entry) => entry.method === 'POST').map((entry) => [...entry.calls]),
    log: () => entries.map((entry) => ({ ...entry, calls: [...entry.calls] })),
    reset: () => void entries.splice(0, entries.length),
    retarget: (url) => {
      target = new URL(url);
    },
    stop: server.close,
  };
}
