/**
 * JSON over HTTP POST to the services the snap calls, a Starknet node or a SNIP-29 paymaster, with
 * one timeout over the whole round trip (body included) and one way of reporting a service that is
 * down, slow, refusing or answering something that is not JSON-RPC: -32002 naming its host only
 * (the URL may carry an API key in its path or query).
 */
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

export type PostOptions = {
  timeoutMs: number;
  fetchFn?: typeof fetch;
};

/** POSTs `payload` as JSON and returns the parsed answer (a JSON-RPC error answer included). */
export async function postJson(
  service: Service,
  url: string,
  payload: unknown,
  { timeoutMs, fetchFn = (input, init) => fetch(input, init) }: PostOptions,
): Promise<unknown> {
  const controller = new AbortController();
  // The timeout covers the whole round trip, body included: a node that sends its headers
  // and then stalls must not hang the caller (which may hold an account's nonce lock).
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const timeoutReason = `no answer within ${timeoutMs / 1000} s`;
  let response: Response;
  let text: string;
  try {
    try {
      response = await fetchFn(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
        signal: controller.signal,
      });
    } catch {
      const reason = controller.signal.aborted ? timeoutReason : 'the connection failed';
      throw unavailable(service, url, reason, controller.signal.aborted);
    }
    try {
      text = await readBody(response, controller.signal);
    } catch {
      if (controller.signal.aborted) {
        throw unavailable(service, url, timeoutReason, true);
      }
      throw unavailable(service, url, 'the connection was closed before the answer arrived');
    }
  } finally {
    clearTimeout(timer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    if (!response.ok) {
      throw httpRefused(service, url, response.status);
    }
    throw unavailable(service, url, `HTTP ${response.status} with a non-JSON answer`);
  }
  if (!response.ok && !isJsonRpcAnswer(parsed)) {
    // E.g. a gateway's 401 or 429 page: no JSON-RPC error to report, only the HTTP status.
    throw httpRefused(service, url, response.status);
  }
  return parsed;
}

/**
 * The response body, rejected as soon as `signal` aborts: a fetch implementation that does not
 * tie the body stream to the request's signal still cannot stall past the timeout.
 */
async function readBody(response: Response, signal: AbortSignal): Promise<string> {
  if (signal.aborted) {
    throw new Error('aborted');
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([response.text(), aborted]);
  } finally {
    if (onAbort) {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
