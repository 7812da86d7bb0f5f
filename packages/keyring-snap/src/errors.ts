import {
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  MethodNotSupportedError,
  ResourceNotFoundError,
  SnapError,
  UnauthorizedError,
  UserRejectedRequestError,
} from '@metamask/snaps-sdk';
import { withoutStack } from '@l2wallet/jsonrpc';

/**
 * -32602 naming the field (a JSON path such as `request.params[0].chainId`) and what it must be.
 */
export function invalidParams(field: string, expected: string): Error {
  return withoutStack(new InvalidParamsError(`Invalid params: "${field}" ${expected}`));
}

export function unknownAccount(id: string): Error {
  return withoutStack(new ResourceNotFoundError(`Account "${id}" not found`));
}

export function unsupportedMethod(method: string, accountType?: string): Error {
  return withoutStack(
    accountType
      ? new MethodNotSupportedError(
          `Method "${method}" is not supported by ${accountType} accounts`,
        )
      : new MethodNotFoundError(`Method "${method}" is not supported`),
  );
}

export function forbiddenOrigin(origin: string, method: string): Error {
  return withoutStack(new UnauthorizedError(`Origin "${origin}" may not call ${method}`));
}

export function userRejected(): Error {
  return withoutStack(new UserRejectedRequestError('User rejected the request.'));
}

export function invalidRequest(message: string): Error {
  return withoutStack(new InvalidRequestError(message));
}

/** A chain service (node, bundler, paymaster) failed: the message says which and why. */
export function upstreamError(service: string, detail: string): Error {
  return withoutStack(new InternalError(`${service}: ${detail}`));
}

/** Keeps errors a handler throws on purpose; anything else becomes a generic message. */
export function toRpcError(error: unknown): Error {
  if (error instanceof SnapError) {
    return withoutStack(error);
  }
  return withoutStack(new InternalError('An unexpected error occurred in the keyring snap.'));
}
