import {
  InternalError,
  InvalidParamsError,
  SnapError,
  UserRejectedRequestError,
} from '@metamask/snaps-sdk';
import type { StructError } from 'superstruct';

/** Invalid params: the message must name the field and what was expected. */
export function invalidParams(field: string, expected: string): Error {
  return new InvalidParamsError(`Invalid params: "${field}" ${expected}`);
}

export function userRejected(): Error {
  return new UserRejectedRequestError('User rejected the request.');
}

const MAX_SHOWN = 80;

function showValue(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'bigint'
        ? `"${value.toString()}"`
        : (JSON.stringify(value) ?? String(value));
  } catch {
    text = typeof value;
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

/** Turns the first superstruct failure into a -32602 error naming the field. */
export function fromStructError(error: StructError): Error {
  const [failure] = error.failures();
  const field = failure.path.length > 0 ? failure.path.join('.') : 'params';
  if (failure.value === undefined && failure.path.length > 0) {
    const expected = failure.message.replace(/, but received: undefined$/u, '');
    return invalidParams(field, `is required: ${lowerFirst(expected)}`);
  }
  const expected = failure.message.replace(/, but received: .*$/su, '');
  return invalidParams(
    field,
    `is invalid: ${lowerFirst(expected)}, got ${showValue(failure.value)}`,
  );
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Errors a handler throws on purpose are snaps-sdk errors and pass through. Anything else is
 * unexpected: the dapp gets a generic message, never a stack or an internal detail.
 */
export function toRpcError(error: unknown): Error {
  if (error instanceof SnapError) {
    return withoutStack(error);
  }
  return withoutStack(new InternalError('An unexpected error occurred in the Starknet snap.'));
}

/** The execution environment serializes `stack` into the response: a dapp never gets one. */
export function withoutStack<ErrorType extends Error>(error: ErrorType): ErrorType {
  Object.defineProperty(error, 'stack', { value: '', configurable: true, writable: true });
  return error;
}
