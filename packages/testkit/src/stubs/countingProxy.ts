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
  /**
   * From now on, rewrites the JSON answer of every POST (a lying upstream): `rewrite` gets the
   * parsed answer and request and returns what the client receives; undefined stops rewriting.
   */
  rewriteAnswers(rewrite: AnswerRewrite | undefined): void;
  stop(): Promise<void>;
}

/** Turns an upstream's parsed JSON answer into the one the client gets. */
export type AnswerRewrite = (answer: unknown, request: unknown) => unknown;

/**
 * Hop-by-hop headers describe one connection, not the message: a proxy does not pass
 * them on. Passed on, the target's `keep-alive: timeout=60` told clients this proxy keeps an idle
 * connection 60 s while it closes one after 5 s (Node's default), so a client that waited about
 * 5 s between requests could send its next one on a connection being closed.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
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
 * they carried (a batch as one request), and any other request by method and path. It can also
 * rewrite the answers it passes on (rewriteAnswers), to test a client against an upstream that
 * lies.
 */
export async function startCountingProxy(
  targetUrl: string,
  options: { port?: number } = {},
): Promise<CountingProxy> {
  const entries: ProxiedRequest[] = [];
  let target = new URL(targetUrl);
  let rewrite: AnswerRewrite | undefined;
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
            headers: { ...endToEnd(request.headers), host: target.host },
          },
          (answer) => {
            const lie = method === 'POST' ? rewrite : undefined;
            if (!lie) {
              response.writeHead(answer.statusCode ?? 502, {
                ...endToEnd(answer.headers),
                'access-control-allow-origin': '*',
              });
              answer.pipe(response);
              answer.on('end', done);
              return;
            }
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => {
              let text = Buffer.concat(chunks).toString('utf8');
              try {
                text = JSON.stringify(lie(JSON.parse(text), JSON.parse(body)));
              } catch {
                // Not JSON either way: passed on as it came.
              }
              const { 'content-length': _length, ...headers } = endToEnd(answer.headers);
              response.writeHead(answer.statusCode ?? 502, {
                ...headers,
                'access-control-allow-origin': '*',
              });
              response.end(text);
              done();
            });
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
    rewriteAnswers: (next) => {
      rewrite = next;
    },
    stop: server.close,
  };
}
