/**
 * A thin Starknet JSON-RPC client: every request the snap sends to a node goes through it.
 *
 * The snap talks to the node through this client rather than through starknet.js's RpcProvider:
 * it sends exactly the requests a method needs (so the round-trip budget of l2_executeTxn and
 * l2_recoverAccounts holds), it speaks JSON-RPC batches, and it turns a dead or slow node into one
 * clear, retryable error. starknet.js still does the hashing and calldata encoding
 * (starknet/transaction.ts).
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import { describeEndpoint, postJson, STARKNET_NODE, unavailable } from './http';
import { specSupport, unsupportedSpecVersion, type SpecSupport } from './specVersion';

export { describeEndpoint };

/** The node could not be reached or did not answer in time: -32002, `retryable: true`. */
export function nodeUnavailable(url: string, reason: string, timedOut = false): Error {
  return unavailable(STARKNET_NODE, url, reason, timedOut);
}

/**
 * How long one HTTP round trip to the node may take before the call fails as retryable: the
 * build-time SNAP_RPC_TIMEOUT_MS (snap.config.ts), 20 s by default.
 */
export const DEFAULT_RPC_TIMEOUT_MS = parseTimeout(process.env.SNAP_RPC_TIMEOUT_MS);

function parseTimeout(value: string | undefined): number {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 20_000;
}

export type RpcCall = { method: string; params?: unknown };

const SPEC_VERSION_CALL: RpcCall = { method: 'starknet_specVersion' };

/** Calls that change the chain: never sent before the node's version is known to be supported. */
const isSubmission = (call: RpcCall): boolean => call.method.startsWith('starknet_add');

/** A JSON-RPC error answered by the node (a protocol error such as 52 invalid nonce). */
export class StarknetRpcError extends Error {
  readonly code: number;

  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'StarknetRpcError';
    this.code = code;
    this.data = data;
  }
}

export type BatchResult<T = unknown> =
  { ok: true; result: T } | { ok: false; error: StarknetRpcError };

type JsonRpcResponse = {
  id?: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

/** Whether an error is the node-unavailable error, and whether the request timed out. */
export function unavailability(error: unknown): {
  unavailable: boolean;
  timedOut: boolean;
  retryable: boolean;
} {
  if (!(error instanceof ResourceUnavailableError)) {
    return { unavailable: false, timedOut: false, retryable: false };
  }
  const data = (error as unknown as { data?: { timedOut?: boolean; retryable?: boolean } }).data;
  return {
    unavailable: true,
    timedOut: data?.timedOut === true,
    retryable: data?.retryable !== false,
  };
}

export type RpcClientOptions = {
  timeoutMs?: number;
  fetchFn?: typeof fetch;
};

export class RpcClient {
  readonly url: string;

  readonly #timeoutMs: number;

  readonly #fetch: typeof fetch;

  #nextId = 1;

  constructor(url: string, options: RpcClientOptions = {}) {
    this.url = url;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    this.#fetch = options.fetchFn ?? ((input, init) => fetch(input, init));
  }

  #spec: SpecSupport | undefined;

  #specRefusal: Error | undefined;

  /**
   * The node's JSON-RPC version, checked once for this client (one per network per snap
   * execution): a separate round trip only when nothing else is going out.
   */
  async specSupport(): Promise<SpecSupport> {
    if (!this.#spec && !this.#specRefusal) {
      const [answer] = await this.#sendBatch([SPEC_VERSION_CALL]);
      this.#noteSpecVersion(answer);
    }
    return this.#checkedSpec();
  }

  #checkedSpec(): SpecSupport {
    if (this.#specRefusal) {
      throw this.#specRefusal;
    }
    return this.#spec as SpecSupport;
  }

  #noteSpecVersion(answer: BatchResult): void {
    const support = answer.ok ? specSupport(answer.result) : undefined;
    if (support) {
      this.#spec = support;
    } else {
      this.#specRefusal = unsupportedSpecVersion(
        describeEndpoint(this.url),
        answer.ok ? answer.result : undefined,
      );
    }
  }

  /** One call, one round trip. A node error is thrown as StarknetRpcError. */
  async request<T>(method: string, params?: unknown): Promise<T> {
    if (!this.#spec) {
      // The version check rides along in a batch (or goes first, for a submission).
      const [answer] = await this.batch<T>([{ method, params }]);
      if (!answer.ok) {
        throw answer.error;
      }
      return answer.result;
    }
    const id = this.#nextId++;
    const body = await this.#post({ jsonrpc: '2.0', id, method, params: params ?? [] });
    const response = body as JsonRpcResponse;
    if (Array.isArray(body) || typeof body !== 'object' || body === null) {
      throw nodeUnavailable(this.url, 'it answered with a malformed JSON-RPC response');
    }
    if (response.error) {
      throw new StarknetRpcError(response.error.code, response.error.message, response.error.data);
    }
    return response.result as T;
  }

  /**
   * Many calls in one JSON-RPC batch: one round trip. Results come back in call order; each is
   * either a result or that call's node error. Before the node's version is known, the check
   * is the batch's first call (reads only: a submission waits for a separate check).
   */
  async batch<T = unknown>(calls: readonly RpcCall[]): Promise<BatchResult<T>[]> {
    if (calls.length === 0) {
      return [];
    }
    if (this.#spec) {
      return this.#sendBatch<T>(calls);
    }
    if (this.#specRefusal || calls.some(isSubmission)) {
      await this.specSupport();
      return this.#sendBatch<T>(calls);
    }
    const [spec, ...answers] = await this.#sendBatch<T>([SPEC_VERSION_CALL, ...calls]);
    this.#noteSpecVersion(spec as BatchResult);
    this.#checkedSpec();
    return answers;
  }

  async #sendBatch<T = unknown>(calls: readonly RpcCall[]): Promise<BatchResult<T>[]> {
    const firstId = this.#nextId;
    this.#nextId += calls.length;
    const payload = calls.map((call, index) => ({
      jsonrpc: '2.0',
      id: firstId + index,
      method: call.method,
      params: call.params ?? [],
    }));
    const body = await this.#post(payload);
    if (!Array.isArray(body)) {
      const single = body as JsonRpcResponse;
      if (single?.error) {
        throw new StarknetRpcError(single.error.code, single.error.message, single.error.data);
      }
      throw nodeUnavailable(this.url, 'it answered a batch with a malformed response');
    }
    const byId = new Map<number, JsonRpcResponse>();
    for (const item of body as JsonRpcResponse[]) {
      if (typeof item?.id === 'number') {
        byId.set(item.id, item);
      }
    }
    return calls.map((call, index) => {
      const item = byId.get(firstId + index);
      if (!item) {
        return {
          ok: false,
          error: new StarknetRpcError(-32603, `No answer for ${call.method} in the batch`),
        };
      }
      if (item.error) {
        return {
          ok: false,
          error: new StarknetRpcError(item.error.code, item.error.message, item.error.data),
        };
      }
      return { ok: true, result: item.result as T };
    });
  }

  async #post(payload: unknown): Promise<unknown> {
    return postJson(STARKNET_NODE, this.url, payload, {
      timeoutMs: this.#timeoutMs,
      fetchFn: this.#fetch,
    });
  }
}
