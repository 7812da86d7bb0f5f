import type { OnRpcRequestHandler } from '@metamask/snaps-sdk';

import { METHODS } from './methods';
import { createDispatcher } from './rpc/dispatcher';

const dispatcher = createDispatcher(METHODS);

export const onRpcRequest: OnRpcRequestHandler = async ({ origin, request }) =>
  dispatcher.handle({ method: request.method, params: request.params }, { origin });
