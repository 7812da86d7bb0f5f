/**
 * The wallet object's `accountsChanged` / `networkChanged` listeners. The snap sends no events,
 * so while a listener is registered (and `pollIntervalMs > 0`) `poll`, a re-read of the network,
 * runs every interval to notice changes made elsewhere (e.g. in another tab).
 */
import type { WalletEventHandlers } from '@starknet-io/types-js';

import type { ChainId } from '../types';
import { invalidPayload } from './errors';

type AccountsHandler = WalletEventHandlers['accountsChanged'];
type NetworkHandler = WalletEventHandlers['networkChanged'];
type EventName = keyof WalletEventHandlers;

export interface WalletEvents {
  add<E extends EventName>(event: E, handler: WalletEventHandlers[E]): void;
  remove<E extends EventName>(event: E, handler: WalletEventHandlers[E]): void;
  accountsChanged(accounts: string[]): void;
  networkChanged(chainId: ChainId, accounts: string[] | undefined): void;
}

export function createWalletEvents(
  pollIntervalMs: number,
  poll: () => Promise<void>,
): WalletEvents {
  const accountsHandlers = new Set<AccountsHandler>();
  const networkHandlers = new Set<NetworkHandler>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pollGeneration = 0;

  /** One poll at a time: the next is scheduled only once the previous one has settled. */
  const updatePolling = () => {
    const listening = accountsHandlers.size + networkHandlers.size > 0;
    if (listening && pollIntervalMs > 0 && timer === undefined) {
      const generation = ++pollGeneration;
      const tick = () => {
        poll()
          .catch(() => undefined)
          .finally(() => {
            if (generation !== pollGeneration || timer === undefined) return; // stopped
            timer = setTimeout(tick, pollIntervalMs);
          });
      };
      timer = setTimeout(tick, pollIntervalMs);
    } else if (!listening && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  };

  return {
    add(event, handler) {
      if (event === 'accountsChanged') accountsHandlers.add(handler as AccountsHandler);
      else if (event === 'networkChanged') networkHandlers.add(handler as NetworkHandler);
      else throw invalidPayload('event', `must be accountsChanged or networkChanged`);
      updatePolling();
    },
    remove(event, handler) {
      if (event === 'accountsChanged') accountsHandlers.delete(handler as AccountsHandler);
      else if (event === 'networkChanged') networkHandlers.delete(handler as NetworkHandler);
      updatePolling();
    },
    accountsChanged(accounts) {
      for (const handler of accountsHandlers) handler(accounts);
    },
    networkChanged(chainId, accounts) {
      for (const handler of networkHandlers) handler(chainId, accounts);
    },
  };
}
