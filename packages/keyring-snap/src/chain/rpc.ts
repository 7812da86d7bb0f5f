/**
 * A small JSON-RPC client over fetch (endowment:network-access). `rpcBatch` sends several calls
 * in one HTTP request, so a user operation's chain reads cost one round trip.
 */
import { upstreamError } from '../errors';

export type RpcCall = { method: string; params: unknown[] };

const TIMEOUT_MS = 20_000;

type RpcAnswer = { id?: number; result?: unknown; error?: { code?: number; message?: string } };

async function post(url: string, body: unknown, service: string): Promise<unknown> {
  if (!url) {
    throw upstreamError(service, 'no URL is configured for this chain (keyring_setChainConfig)');
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
  } catch {
    throw upstreamError(service, `${url} did not answer`);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    throw upstreamError(service, `${url} answered HTTP ${response.status}`);
  }
  try {
    return await response.json();
  } catch {
    throw upstreamError(service, `${url} did not answer JSON`);
  }
}

function unwrap(answer: RpcAnswer | undefined, method: string, service: string): unknown {
  if (!answer || typeof answer !== 'object') {
    throw upstreamError(service, `no answer to ${method}`);
  }
  if (answer.error) {
    const message = String(answer.error.message ?? 'error').slice(0, 300);
    throw upstreamError(service, `${method} failed: ${message}`);
  }
  return answer.result;
}

export async function rpcCall(
  url: string,
  method: string,
  params: unknown[],
  service: string,
): Promise<unknown> {
  const answer = (await post(url, { jsonrpc: '2.0', id: 1, method, params }, service)) as RpcAnswer;
  return unwrap(answer, method, service);
}

/** One HTTP request; answers are matched by id (a batch may answer in any order). */
export async function rpcBatch(url: string, calls: RpcCall[], service: string): Promise<unknown[]> {
  const body = calls.map((call, id) => ({ jsonrpc: '2.0', id, ...call }));
  const answers = await post(url, body, service);
  if (!Array.isArray(answers)) {
    // A node that refuses batches answers one error object: ask once per call instead.
    return Promise.all(calls.map((call) => rpcCall(url, call.method, call.params, service)));
  }
  const byId = new Map<number, RpcAnswer>();
  for (const answer of answers as RpcAnswer[]) {
    if (answer && typeof answer.id === 'number') {
      byId.set(answer.id, answer);
    }
  }
  return calls.map((call, id) => unwrap(byId.get(id), call.method, service));
}
