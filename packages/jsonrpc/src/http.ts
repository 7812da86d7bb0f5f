/**
 * One POST of JSON to a JSON-RPC service, over fetch (Node, a browser or a snap's
 * endowment:network-access), with one deadline over the whole exchange, body included: a
 * service that sends its headers and then stalls cannot hang the caller. What failed is named
 * by kind, for each caller to report in its own errors.
 */

/**
 * - `timeout`, `connection`: no answer (the deadline passed, or the connection failed);
 * - `body-timeout`, `body-closed`: headers came, the body did not (deadline, or broken off);
 * - `not-json`: the body is not JSON.
 */
export type ExchangeFailureKind =
  'timeout' | 'connection' | 'body-timeout' | 'body-closed' | 'not-json';

export class ExchangeFailure extends Error {
  constructor(
    readonly kind: ExchangeFailureKind,
    /** The HTTP status, once the headers came. */
    readonly status?: number,
  ) {
    super(status === undefined ? kind : `${kind} (HTTP ${status})`);
  }
}

/** A parsed answer: a JSON-RPC error answer and an HTTP error status included. */
export type JsonAnswer = { status: number; ok: boolean; body: unknown };

export type PostJsonOptions = {
  timeoutMs: number;
  fetchFn?: typeof fetch;
};

/** POSTs `payload` as JSON and parses the answer; throws ExchangeFailure when none can be read. */
export async function postJson(
  url: string,
  payload: unknown,
  { timeoutMs, fetchFn = (input, init) => fetch(input, init) }: PostJsonOptions,
): Promise<JsonAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
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
      throw new ExchangeFailure(controller.signal.aborted ? 'timeout' : 'connection');
    }
    try {
      text = await readBody(response, controller.signal);
    } catch {
      const kind = controller.signal.aborted ? 'body-timeout' : 'body-closed';
      throw new ExchangeFailure(kind, response.status);
    }
  } finally {
    clearTimeout(timer);
  }
  try {
    return { status: response.status, ok: response.ok, body: JSON.parse(text) as unknown };
  } catch {
    throw new ExchangeFailure('not-json', response.status);
  }
}

/**
 * The response body, rejected as soon as `signal` aborts: a fetch implementation that does not
 * tie the body stream to the request's signal still cannot stall past the deadline.
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
