/** Typed errors for calls that go through the wallet provider. */

export interface RpcErrorLike {
  code?: unknown;
  message?: unknown;
  data?: unknown;
}

/** Base class: any error the snap or the wallet returned. */
export class SnapError extends Error {
  readonly code: number | undefined;
  readonly data: unknown;

  constructor(message: string, code?: number, data?: unknown) {
    super(message);
    this.name = 'SnapError';
    this.code = code;
    this.data = data;
  }
}

/** The user declined a prompt (EIP-1193 code 4001). */
export class UserRejectedError extends SnapError {
  constructor(message = 'The request was rejected by the user.', data?: unknown) {
    super(message, 4001, data);
    this.name = 'UserRejectedError';
  }
}

/** The snap refused the params (JSON-RPC -32602). The message names the field. */
export class InvalidParamsError extends SnapError {
  constructor(message = 'Invalid params.', data?: unknown) {
    super(message, -32602, data);
    this.name = 'InvalidParamsError';
  }
}

/** No wallet provider was found in the page. */
export class WalletNotFoundError extends Error {
  constructor(
    message = 'No wallet found. Install MetaMask Flask (or MetaMask with Snaps support) and reload the page.',
  ) {
    super(message);
    this.name = 'WalletNotFoundError';
  }
}

/** The wallet exists but cannot run snaps. */
export class SnapsNotSupportedError extends Error {
  constructor(
    message = 'This wallet cannot run snaps. Use MetaMask Flask or a MetaMask version with Snaps support.',
  ) {
    super(message);
    this.name = 'SnapsNotSupportedError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * MetaMask sometimes wraps a snap's error (code -32603 with the snap's own error in
 * `data.originalError` or `data.cause`); unwrap to the innermost error that has a code.
 */
function innermost(error: RpcErrorLike): RpcErrorLike {
  let current: RpcErrorLike = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const data = current.data;
    if (!isRecord(data)) break;
    const inner = data.originalError ?? data.cause;
    if (!isRecord(inner) || typeof inner.code !== 'number') break;
    current = inner;
  }
  return current;
}

/** Turns whatever the provider threw into one of the typed errors. */
export function toSnapError(error: unknown): SnapError {
  if (error instanceof SnapError) return error;
  if (!isRecord(error)) return new SnapError(String(error));
  const inner = innermost(error);
  const code = typeof inner.code === 'number' ? inner.code : undefined;
  const message =
    typeof inner.message === 'string' && inner.message.length > 0
      ? inner.message
      : typeof error.message === 'string'
        ? error.message
        : 'Unknown error';
  if (code === 4001) return new UserRejectedError(message, inner.data);
  if (code === -32602) return new InvalidParamsError(message, inner.data);
  return new SnapError(message, code, inner.data);
}
