/**
 * The errors a request gets on purpose at any layer: -32602 naming the field that is wrong, and
 * 4001 when the user declines. They are snaps-sdk errors, so the dispatcher (rpc/errors.ts)
 * passes them through as they are; node errors are node/errors.ts.
 */
import { InvalidParamsError, UserRejectedRequestError } from '@metamask/snaps-sdk';

/** Invalid params: the message must name the field and what was expected. */
export function invalidParams(field: string, expected: string): Error {
  return new InvalidParamsError(`Invalid params: "${field}" ${expected}`);
}

export function userRejected(): Error {
  return new UserRejectedRequestError('User rejected the request.');
}
