import { handleKeyringRequest } from '@metamask/keyring-snap-sdk';
import {
  MethodNotFoundError,
  type Json,
  type OnKeyringRequestHandler,
  type OnRpcRequestHandler,
} from '@metamask/snaps-sdk';

import { getChainConfigs, setChainConfig } from './flows/chainConfigs';
import { withoutStack } from '@l2wallet/jsonrpc';
import { forbiddenOrigin, invalidParams, toRpcError } from './errors';
import { AccountKeyring } from './keyring';
import { isSiteOrigin, mayCallKeyring } from './rpc/origins';

/**
 * handleKeyringRequest rethrows every error as a plain Error with the same message, which would
 * lose the JSON-RPC code: the keyring's own errors are kept here and restored.
 */
function trackingErrors(keyring: AccountKeyring): { keyring: AccountKeyring; last: () => unknown } {
  let last: unknown;
  const proxy = new Proxy(keyring, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') {
        return value;
      }
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } catch (error) {
          last = error;
          throw error;
        }
      };
    },
  });
  return { keyring: proxy, last: () => last };
}

export const onKeyringRequest: OnKeyringRequestHandler = async ({ origin, request }) => {
  if (!mayCallKeyring(origin, request.method)) {
    throw forbiddenOrigin(origin, request.method);
  }
  const { keyring, last } = trackingErrors(new AccountKeyring(origin));
  try {
    return (await handleKeyringRequest(keyring, request)) ?? null;
  } catch (error) {
    const own = last();
    if (own !== undefined) {
      throw toRpcError(own);
    }
    // The SDK's own request checks (superstruct): "At path: params.x -- Expected ...".
    const message = error instanceof Error ? error.message : 'invalid request';
    throw invalidParams('params', message.slice(0, 300));
  }
};

/** Chain config management, for the companion site only (endowment:rpc). */
export const onRpcRequest: OnRpcRequestHandler = async ({ origin, request }) => {
  if (!isSiteOrigin(origin)) {
    throw forbiddenOrigin(origin, request.method);
  }
  try {
    switch (request.method) {
      case 'keyring_getChainConfigs':
        return (await getChainConfigs()) as unknown as Json;
      case 'keyring_setChainConfig':
        return (await setChainConfig(request.params, origin)) as unknown as Json;
      default:
        throw withoutStack(new MethodNotFoundError(`Method not found: ${request.method}`));
    }
  } catch (error) {
    throw toRpcError(error);
  }
};
