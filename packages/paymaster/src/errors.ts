/**
 * Every error the paymaster answers with, in one place. SNIP-29's errors keep the spec's code and
 * exact message (clients match on them) and say why in `data`; JSON-RPC's own errors (-326xx) say
 * why in the message. No message or data ever holds the relayer key, an API key or the node URL:
 * callers pass in only addresses, amounts, field names and the node's own revert reasons.
 */
import { JsonRpcError } from '@l2wallet/jsonrpc';

export class PaymasterError extends JsonRpcError {
  /** A short name of why, for the refusals metric (never the client's own text). */
  reason?: string;

  /** Names why, for /metrics' refusals by reason. */
  because(reason: string): this {
    this.reason = reason;
    return this;
  }
}

/** SNIP-29 (assets/snip-29/paymaster_api.json) and JSON-RPC 2.0 codes. */
export const CODES = {
  invalidAddress: 150,
  tokenNotSupported: 151,
  invalidSignature: 153,
  maxAmountTooLow: 154,
  classHashNotSupported: 155,
  transactionExecutionError: 156,
  invalidTimeBounds: 157,
  invalidDeploymentData: 158,
  invalidClassHash: 159,
  invalidId: 160,
  unknownError: 163,
  limitExceeded: -32005,
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** A client's own text (a method or member name) as it may be quoted back or logged: cut short. */
export const quoted = (text: string, max = 64): string =>
  text.length > max ? `${text.slice(0, max)}…` : text;

const snip29 = (code: number, name: string, why: string) =>
  new PaymasterError(code, `An error occurred (${name})`, why);

export const errors = {
  invalidAddress: (why: string) => snip29(CODES.invalidAddress, 'INVALID_ADDRESS', why),
  tokenNotSupported: (why: string) => snip29(CODES.tokenNotSupported, 'TOKEN_NOT_SUPPORTED', why),
  invalidSignature: (why: string) => snip29(CODES.invalidSignature, 'INVALID_SIGNATURE', why),
  maxAmountTooLow: (why: string) => snip29(CODES.maxAmountTooLow, 'MAX_AMOUNT_TOO_LOW', why),
  classHashNotSupported: (why: string) =>
    snip29(CODES.classHashNotSupported, 'CLASS_HASH_NOT_SUPPORTED', why),
  /** The spec's data for 156 is `{ execution_error }`: a revert reason or why it would fail. */
  executionError: (why: string) =>
    new PaymasterError(
      CODES.transactionExecutionError,
      'An error occurred (TRANSACTION_EXECUTION_ERROR)',
      { execution_error: why },
    ),
  invalidTimeBounds: (why: string) => snip29(CODES.invalidTimeBounds, 'INVALID_TIME_BOUNDS', why),
  invalidDeploymentData: (why: string) =>
    snip29(CODES.invalidDeploymentData, 'INVALID_DEPLOYMENT_DATA', why),
  invalidClassHash: (why: string) => snip29(CODES.invalidClassHash, 'INVALID_CLASS_HASH', why),
  invalidId: (why: string) => snip29(CODES.invalidId, 'INVALID_ID', why),
  /** The spec's data for 163 is a string. */
  unknown: (why: string) => snip29(CODES.unknownError, 'UNKNOWN_ERROR', why),

  parse: () =>
    new PaymasterError(CODES.parseError, 'Parse error: the body is not valid JSON', undefined, 400),
  invalidRequest: (why: string) =>
    new PaymasterError(CODES.invalidRequest, `Invalid request: ${why}`, undefined, 400),
  methodNotFound: (method: string) =>
    new PaymasterError(CODES.methodNotFound, `Method not found: ${quoted(method)}`),
  /** A malformed param, named by its path (`transaction.invoke.calls[0].to`). */
  invalidParams: (field: string, why: string) =>
    new PaymasterError(CODES.invalidParams, `Invalid params: ${field}: ${why}`, { field }),
  internal: () => new PaymasterError(CODES.internal, 'Internal error', undefined, 500),
  /**
   * A rate limit or a cap on held work: -32005 "Limit exceeded", the code EIP-1474 gives it and
   * Ethereum and Starknet gateways answer (SNIP-29 has none), HTTP 429 for a single request.
   */
  limitExceeded: (why: string, retryAfterMs?: number) =>
    new PaymasterError(
      CODES.limitExceeded,
      `Limit exceeded: ${why}`,
      retryAfterMs === undefined ? undefined : { retry_after_ms: retryAfterMs },
      429,
    ).because('limit'),
};
