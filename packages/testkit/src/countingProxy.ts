import { serveHttp } from './stubServers';

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
  const server = await serveHttp(async (_request, response, text) => {
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
      response.writeHead(upstream.status, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      response.end(await upstream.text());
    } catch {
      response.writeHead(502);
      response.end();
    }
  });
  return {
    port: server.port,
    url: server.url,
    requests: () => log.map((methods) => [...methods]),
    reset: () => void log.splice(0, log.length),
    stop: server.close,
  };
}
