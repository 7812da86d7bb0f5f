/**
 * A small JSON-RPC client over fetch (endowment:network-access). `rpcBatch` sends several calls
 * in one HTTP request, so a user operation's chain reads cost one round trip.
 */
import {
  ExchangeFailure,
  type ExchangeFailureKind,
  type JsonAnswer,
  postJson,
} from '@l2wallet/jsonrpc';

import { upstreamError } from '../errors';

export type RpcCall = { method: string; params: unknown[] };

/**
 * How long one exchange with a node, bundler or paymaster may take, body included (build
 * variable KEYRING_RPC_TIMEOUT_MS), so a hung service fails clearly instead of holding MetaMask.
 */
const TIMEOUT_MS = Number(process.env.KEYRING_RPC_TIMEOUT_MS ?? '20000') || 20_000;

const FAILURES: Record<ExchangeFailureKind, string> = {
  timeout: `did not answer within ${TIMEOUT_MS} ms`,
  connection: 'did not answer',
  'body-timeout': `did not finish its answer within ${TIMEOUT_MS} ms`,
  'body-closed': 'broke off its answer',
  'not-json': 'did not answer JSON',
};

type RpcAnswer = { id?: number; result?: unknown; error?: { code?: number; message?: string } };

/**
 * How errors name a service: its kind and host only. The URL's path or query may carry an API
 * key (`https://node.example/v3/<key>`), so it never appears in an error or a log.
 */
export function serviceName(url: string, service: string): string {
  try {
    return `${service} ${new URL(url).host}`;
  } catch {
    return service;
  }
}

/**
 * An upstream's own error text, with the URL cut out should it echo it: the whole URL, its path
 * and query, and each path segment or query value long enough to be a key ("invalid key <key>").
 */
function scrub(text: string, url: string): string {
  let clean = text;
  try {
    const { origin, pathname, search, searchParams } = new URL(url);
    const secrets = [url, `${origin}${pathname}`, search, pathname]
      .concat(pathname.split('/'), [...searchParams.values()])
      .filter((secret) => secret.length >= 6)
      .sort((a, b) => b.length - a.length);
    for (const secret of secrets) {
      clean = clean.split(secret).join('…');
    }
  } catch {
    // Not a URL: nothing of it to cut.
  }
  return clean.slice(0, 300);
}

/** One POST with @l2wallet/jsonrpc's postJson: the timeout covers the whole exchange, body too. */
async function post(url: string, body: unknown, service: string): Promise<unknown> {
  if (!url) {
    throw upstreamError(service, 'no URL is configured for this chain (keyring_setChainConfig)');
  }
  const name = serviceName(url, service);
  let answer: JsonAnswer;
  try {
    answer = await postJson(url, body, { timeoutMs: TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof ExchangeFailure)) {
      throw error;
    }
    const { kind, status } = error;
    if (status !== undefined && (status < 200 || status > 299)) {
      throw upstreamError(name, `answered HTTP ${status}`);
    }
    throw upstreamError(name, FAILURES[kind]);
  }
  if (!answer.ok) {
    throw upstreamError(name, `answered HTTP ${answer.status}`);
  }
  return answer.body;
}

function unwrap(
  answer: RpcAnswer | undefined,
  method: string,
  service: string,
  url: string,
): unknown {
  const name = serviceName(url, service);
  if (!answer || typeof answer !== 'object') {
    throw upstreamError(name, `no answer to ${method}`);
  }
  if (answer.error) {
    throw upstreamError(
      name,
      `${method} failed: ${scrub(String(answer.error.message ?? 'error'), url)}`,
    );
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
  return unwrap(answer, method, service, url);
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
  return calls.map((call, id) => unwrap(byId.get(id), call.method, service, url));
}
