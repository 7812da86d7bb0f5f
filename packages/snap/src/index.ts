import {
  UserInputEventType,
  type OnHomePageHandler,
  type OnRpcRequestHandler,
  type OnUserInputHandler,
} from '@metamask/snaps-sdk';

import { revokeSite } from './flows/grants';
import { readHomeOverview } from './flows/home';
import { METHODS } from './methods';
import { createDispatcher } from './rpc/dispatcher';
import { HomeScreen, REVOKE_PREFIX } from './ui';

const dispatcher = createDispatcher(METHODS);

export const onRpcRequest: OnRpcRequestHandler = async ({ origin, request }) =>
  dispatcher.handle({ method: request.method, params: request.params }, { origin });

/** The snap's page in MetaMask (endowment:page-home): accounts, balances, last transactions. */
export const onHomePage: OnHomePageHandler = async () => ({
  content: HomeScreen({ overview: await readHomeOverview() }),
});

/** The home page's Revoke buttons: the site's grant is removed, and the page shown again. */
export const onUserInput: OnUserInputHandler = async ({ id, event }) => {
  if (
    event.type !== UserInputEventType.ButtonClickEvent ||
    !event.name?.startsWith(REVOKE_PREFIX)
  ) {
    return;
  }
  const origin = event.name.slice(REVOKE_PREFIX.length);
  await revokeSite(origin);
  await snap.request({
    method: 'snap_updateInterface',
    params: { id, ui: HomeScreen({ overview: await readHomeOverview() }) },
  });
};
