/**
 * JSON over HTTP POST to the services the snap calls, a Starknet node or a SNIP-29 paymaster, with
 * one timeout over the whole round trip (body included) and one way of reporting a service that is
 * down, slow, refusing or answering something that is not JSON-RPC: -32002 naming its host only
 * (the URL may carry an API key in its path or query).
 */
import {
  ExchangeFailure,
  type JsonAnswer,
  postJson as post,
  type PostJsonOptions,
} from '@l2wallet/jsonrpc';
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

/** A service as errors name it. */
export type Service = { name: string; noun: string };

export const STARKNET_NODE: Service = { name: 'The Starknet node', noun: 'node' };
export const PAYMASTER: Service = { name: 'The paymaster', noun: 'paymaster' };

/** Only the host is named in errors: the URL may carry an API key in its path or query. */
export function describeEndpoint(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured node';
  }
}

/**
 * The service could not be reached or did not answer in time. It is a ResourceUnavailableError
 * (-32002) whose data says `retryable: true`; a caller can send the same request again.
 */
export function unavailable(
  service: Service,
  url: string,
  reason: string,
  timedOut = false,
): Error {
  return new ResourceUnavailableError(
    `${service.name} (${describeEndpoint(url)}) is unavailable: ${reason}. Nothing was changed in the snap; try again when the ${service.noun} is reachable.`,
    { retryable: true, reason, timedOut },
  );
}

type JsonRpcError = { error?: { code?: unknown } };

/** A JSON-RPC error object with a numeric code, or a batch answer. */
function isJsonRpcAnswer(body: unknown): boolean {
  if (Array.isArray(body)) {
    return body.length > 0;
  }
  const error = (body as JsonRpcError | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'number';
}

/**
 * An HTTP error status without a JSON-RPC error: -32002 naming the status. Retryable for 429
 * (rate limited) and 5xx; a 4xx (e.g. 401, 403, 404) will not go away by itself.
 */
export function httpRefused(service: Service, url: string, status: number): Error {
  const retryable = status === 429 || status >= 500;
  const reason = `HTTP ${status}`;
  if (retryable) {
    return unavailable(service, url, reason);
  }
  return new ResourceUnavailableError(
    `${service.name} (${describeEndpoint(url)}) refused the request: ${reason}. Nothing was changed in the snap; check the ${service.noun}'s configuration (URL, API key) before trying again.`,
    { retryable: false, reason, timedOut: false },
  );
}

const CONNECTION_FAILURES = {
  connection: 'the connection failed',
  'body-closed': 'the connection was closed before the answer arrived',
};

/**
 * POSTs `payload` as JSON (@l2wallet/jsonrpc's postJson: one timeout over the whole round trip,
 * body included) and returns the parsed answer (a JSON-RPC error answer included).
 */
export async function postJson(
  service: Service,
  url: string,
  payload: unknown,
  options: PostJsonOptions,
): Promise<unknown> {
  let answer: JsonAnswer;
  try {
    answer = await post(url, payload, options);
  } catch (error) {
    if (!(error instanceof ExchangeFailure)) {
      throw error;
    }
    const { kind, status } = error;
    if (kind === 'timeout' || kind === 'body-timeout') {
      throw unavailable(service, url, `no answer within ${options.timeoutMs / 1000} s`, true);
    }
    if (kind !== 'not-json') {
      throw unavailable(service, url, CONNECTION_FAILURES[kind]);
    }
    if (status !== undefined && (status < 200 || status > 299)) {
      throw httpRefused(service, url, status);
    }
    throw unavailable(service, url, `HTTP ${status} with a non-JSON answer`);
  }
  if (!answer.ok && !isJsonRpcAnswer(answer.body)) {
    // E.g. a gateway's 401 or 429 page: no JSON-RPC error to report, only the HTTP status.
    throw httpRefused(service, url, answer.status);
  }
  return answer.body;
}
