/**
 * Every error the gateway answers with, in one place: JSON-RPC code, message and HTTP status.
 * Messages never contain an API key or a secret (callers pass only method names, numbers and
 * param names in).
 */
import { JsonRpcError } from '@l2wallet/jsonrpc';

/** @l2wallet/jsonrpc's error, built status first. */
export class RpcError extends JsonRpcError {
  constructor(
    code: number,
    message: string,
    /** HTTP status for a single request; a batch answers 200 unless the whole batch is refused. */
    httpStatus: number = 200,
    data?: unknown,
  ) {
    super(code, message, data, httpStatus);
  }
}

export const CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  unauthorized: -32001,
  rejectedBySettings: -32002,
  unknownChain: -32004,
  upstreamUnavailable: -32010,
  upstreamTimeout: -32011,
  limitExceeded: -32005,
  dailyLimit: -33000,
  rateLimit: -33200,
  executionReverted: 3,
} as const;

export const BATCH_LIMIT = 100;
export const BODY_LIMIT = 1024 * 1024;
/** Default bound of one HTTP response or one WebSocket message (config `responseLimitBytes`). */
export const RESPONSE_LIMIT = 32 * 1024 * 1024;

export const errors = {
  parse: () => new RpcError(CODES.parseError, 'parse error: the body is not valid JSON', 400),
  invalidRequest: (why: string) =>
    new RpcError(CODES.invalidRequest, `invalid request: ${why}`, 400),
  batchTooLarge: (size: number) =>
    new RpcError(
      CODES.invalidRequest,
      `invalid request: a batch holds at most ${BATCH_LIMIT} calls (got ${size})`,
      400,
    ),
  bodyTooLarge: () =>
    new RpcError(CODES.invalidRequest, `request body larger than ${BODY_LIMIT} bytes`, 413),
  methodNotFound: (method: string) =>
    new RpcError(CODES.methodNotFound, `the method ${method} does not exist/is not available`),
  wsOnly: (method: string) =>
    new RpcError(CODES.methodNotFound, `the method ${method} is only available over WebSocket`),
  invalidParams: (why: string) => new RpcError(CODES.invalidParams, `invalid params: ${why}`),
  safeUnsupported: () =>
    new RpcError(
      CODES.invalidParams,
      'invalid params: block: the tag "safe" is not supported by this method, use "finalized"',
    ),
  keyMissing: () => new RpcError(CODES.unauthorized, 'project id required in the url', 401),
  keyInvalid: () => new RpcError(CODES.unauthorized, 'invalid project id', 401),
  secretInvalid: () =>
    new RpcError(CODES.unauthorized, 'invalid project id or project secret', 401),
  /** Refused by a key's settings; `allowlist` names the list (data.allowlist). */
  rejected: (message = 'rejected due to project ID settings', allowlist?: string) =>
    new RpcError(CODES.rejectedBySettings, message, 403, allowlist ? { allowlist } : undefined),
  /** A missing or wrong secret or JWT. */
  unauthorizedBy: (message: string) => new RpcError(CODES.unauthorized, message, 401),
  unknownChain: (host: string) =>
    new RpcError(CODES.unknownChain, `no chain is served at host ${host}`, 404),
  unknownChainName: (name: string) =>
    new RpcError(CODES.unknownChain, `no chain named ${name} is served here`, 404),
  notFound: () => new RpcError(CODES.invalidRequest, 'not found', 404),
  dailyLimit: (limit: number) =>
    new RpcError(
      CODES.dailyLimit,
      `daily credit limit of ${limit} exceeded; the balance resets at 00:00 UTC`,
      402,
    ),
  rateLimit: (perSecond: number) =>
    new RpcError(CODES.rateLimit, `credits per second limit of ${perSecond} exceeded`, 429, {
      backoff_seconds: 1,
    }),
  // Retryable: the call was not served and not charged (merged callers all get the same one).
  upstreamUnavailable: () =>
    new RpcError(CODES.upstreamUnavailable, 'upstream unavailable; not charged', 503, {
      retryable: true,
    }),
  upstreamTimeout: () =>
    new RpcError(CODES.upstreamTimeout, 'upstream timeout; not charged', 504, { retryable: true }),
  internal: () => new RpcError(CODES.internal, 'internal error', 500),
  /**
   * The ledger did not answer (or its answer was lost): the call is not served, and not charged.
   */
  ledgerUnavailable: () =>
    new RpcError(CODES.internal, 'ledger unavailable; not charged, retry later', 503, {
      retryable: true,
    }),
  /** The ledger cannot be trusted any more (its file was deleted or replaced): paid calls stop. */
  ledgerLost: (why: string) =>
    new RpcError(CODES.internal, `ledger lost: ${why}; paid calls are stopped`, 503, {
      retryable: false,
    }),
  tooDeep: () => new RpcError(CODES.invalidParams, 'invalid params: nested too deeply'),
  responseTooLarge: (limit: number) =>
    new RpcError(
      CODES.limitExceeded,
      `response larger than the ${limit} byte limit; not charged`,
      200,
      { limit },
    ),
  clientNotReading: () =>
    new RpcError(CODES.limitExceeded, 'the client is not reading its notifications', 200),
  notificationsDropped: (count: number, why: RpcError) =>
    new RpcError(why.code, `${count} notification(s) dropped: ${why.message}`, why.httpStatus, {
      ...(why.data as object | undefined),
      dropped: count,
    }),
  balanceExhausted: (limit: number) =>
    new RpcError(
      CODES.dailyLimit,
      `daily credit limit of ${limit} exceeded; subscriptions stopped`,
      402,
    ),
};

export type JsonRpcId = string | number | null;

/** The response text for one call. */
export function errorResponse(id: JsonRpcId, error: RpcError): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify(error)}}`;
}
