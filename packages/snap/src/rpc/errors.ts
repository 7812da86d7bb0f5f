/**
 * What the dispatcher makes of errors: a superstruct failure as -32602 naming the field, the
 * snaps-sdk errors a handler throws on purpose as they are, anything else as a generic -32603.
 */
import { withoutStack } from '@l2wallet/jsonrpc';
import { InternalError, SnapError } from '@metamask/snaps-sdk';
import type { StructError } from 'superstruct';

import { invalidParams } from '../errors';

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
