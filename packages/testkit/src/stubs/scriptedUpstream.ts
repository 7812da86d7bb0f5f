/**
 * An upstream node that misbehaves when told to: a JSON-RPC pass-through to a real node (anvil,
 * the devnet) that counts every call it receives and, while a behaviour is set, answers with an
 * HTTP status of its own (a provider's 429, 401, 403, a 5xx), a JSON-RPC error (a provider's
 * -32005 limit), a body of its own, late, or never. On 127.0.0.1, on a free port unless told.
 */
import { postJson } from '../jsonRpc';
import { serveHttp } from './stubServers';

export interface UpstreamBehaviour {
  /** The HTTP status to answer with (default 200). */
  status?: number;
  /** A JSON-RPC error to answer each call with (one per call of a batch). */
  error?: { code: number; message: string; data?: unknown };
  /** A raw body to answer with (instead of `error`, or of the node's answer). */
  body?: string;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Hold each answer back this long. */
  delayMs?: number;
  /** Never answer (the connection stays open until stop()). */
  hang?: boolean;
  /** Misbehave only for calls of these methods (a batch: if any of its calls is one). */
  methods?: string[];
}

export interface ReceivedCall {
  method: string;
  params: unknown;
  /** Whether it came inside a batch (the gateway's own head polls and health checks do). */
  batch: boolean;
}

export interface ScriptedUpstream {
  url: string;
  port: number;
  /** Misbehaves from now on as `behaviour` says (replacing what was set before). */
  set(behaviour: UpstreamBehaviour): void;
  /** Back to a plain pass-through. */
  reset(): void;
  /** Every call received so far, in order. */
  calls(): ReceivedCall[];
  /** Calls of `method` received alone (not in a batch): what a gateway forwarded for clients. */
  count(method: string): number;
  /** Forwards from now on to another node. */
  retarget(url: string): void;
  stop(): Promise<void>;
}

interface RpcCall {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export async function startScriptedUpstream(
  target: string,
  options: { port?: number } = {},
): Promise<ScriptedUpstream> {
  const received: ReceivedCall[] = [];
  let behaviour: UpstreamBehaviour = {};
  let node = target;
  const server = await serveHttp(
    async (_request, response, text) => {
      let parsed: RpcCall | RpcCall[] | undefined;
      try {
        parsed = JSON.parse(text) as RpcCall | RpcCall[];
      } catch {
        parsed = undefined;
      }
      const batch = Array.isArray(parsed);
      const calls = parsed === undefined ? [] : Array.isArray(parsed) ? parsed : [parsed];
      for (const call of calls) {
        received.push({ method: String(call?.method), params: call?.params, batch });
      }
      const current = behaviour;
      const applies =
        !current.methods || calls.some((call) => current.methods!.includes(String(call?.method)));
      if (!applies) {
        const answer = await postJson(node, text);
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        return void response.end(answer.text);
      }
      if (current.hang) return; // never answered; stop() ends the connection
      if (current.delayMs) await new Promise((resolve) => setTimeout(resolve, current.delayMs));
      let body: string;
      if (current.body !== undefined) body = current.body;
      else if (current.error) {
        const answers = calls.map((call) => ({
          jsonrpc: '2.0',
          id: call?.id ?? null,
          error: current.error,
        }));
        body = JSON.stringify(batch ? answers : answers[0]);
      } else body = (await postJson(node, text)).text;
      response.writeHead(current.status ?? 200, {
        'content-type': 'application/json',
        ...current.headers,
      });
      response.end(body);
    },
    { port: options.port },
  );
  return {
    url: server.url,
    port: server.port,
    set: (next) => {
      behaviour = { ...next };
    },
    reset: () => {
      behaviour = {};
    },
    calls: () => received.map((call) => ({ ...call })),
    count: (method) => received.filter((call) => !call.batch && call.method === method).length,
    retarget: (url) => {
      node = url;
    },
    stop: server.close,
  };
}
