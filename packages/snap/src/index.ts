import type { OnHomePageHandler, OnRpcRequestHandler } from '@metamask/snaps-sdk';

import { HomeScreen, readHomeOverview } from './home';

import { METHODS } from './methods';
import { createDispatcher } from './rpc/dispatcher';

const dispatcher = createDispatcher(METHODS);

export const onRpcRequest: OnRpcRequestHandler = async ({ origin, request }) =>
  dispatcher.handle({ method: request.method, params: request.params }, { origin });

/** The snap's page in MetaMask (endowment:page-home): accounts, balances, last transactions. */
export const onHomePage: OnHomePageHandler = async () => ({
  content: HomeScreen({ overview: await readHomeOverview() }),
});
