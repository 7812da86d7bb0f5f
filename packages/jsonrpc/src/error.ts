/**
 * A JSON-RPC 2.0 error as a service answers it: code, message and optional data, with the HTTP
 * status of a single request (a batch answers 200). `toJSON` is the response's `error` member.
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** HTTP status for a single request (a batch answers 200). */
    readonly httpStatus: number = 200,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * The error with its stack emptied, for the snaps: their execution environment serializes `stack`
 * into the response, and a caller never gets one.
 */
export function withoutStack<ErrorType extends Error>(error: ErrorType): ErrorType {
  Object.defineProperty(error, 'stack', { value: '', configurable: true, writable: true });
  return error;
}
