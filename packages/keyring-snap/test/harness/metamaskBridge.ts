/**
 * MetaMask's own keyring bridge in front of the installed snap: @metamask/eth-snap-keyring's
 * SnapKeyring (18.0.2, the newest that runs on Node 20), with a messenger whose
 * `SnapController:handleRequest` calls the snap in snaps-simulation, and whose keyring events
 * (snap_manageAccounts) reach the bridge's handleKeyringSnapMessage through the simulation's
 * getSnapKeyring hook (patches/, test/harness/environment.cjs). Every request then has the shape
 * the bridge itself builds.
 */
import { SnapKeyring, type SnapKeyringMessenger } from '@metamask/eth-snap-keyring';
import { Messenger, MOCK_ANY_NAMESPACE } from '@metamask/messenger';
import type { Snap } from '@metamask/snaps-jest';

import { SITE } from './snap';

/** An account the bridge reported to MetaMask's `addAccount` callback. */
export type Added = { address: string; snapId: string; name?: string; options?: unknown };
/** A call the bridge made to the snap, with the snap's error if it failed. */
export type Handled = {
  method: string;
  params: unknown;
  error?: { code: number; message: string };
};

export type ConnectedBridge = {
  bridge: SnapKeyring;
  snapId: string;
  added: Added[];
  handled: Handled[];
};

/** The id snaps-jest installed the snap under. */
export function installedSnapId(): string {
  return (globalThis as unknown as { snapsEnvironment: { snapId: string } }).snapsEnvironment
    .snapId;
}

/** MetaMask's side: the messenger the bridge calls and the callbacks it reports to. */
function makeBridge(snap: Snap, snapId: string, added: Added[], handled: Handled[]): SnapKeyring {
  const messenger = new Messenger<string, never, never>({ namespace: MOCK_ANY_NAMESPACE });
  const register = messenger.registerActionHandler.bind(messenger) as (
    type: string,
    handler: (...args: never[]) => unknown,
  ) => void;
  register(
    'SnapController:handleRequest',
    async (request: {
      snapId: string;
      origin: string;
      handler: string;
      request: { method: string; params?: unknown };
    }) => {
      expect(request).toMatchObject({ snapId, origin: 'metamask', handler: 'onKeyringRequest' });
      const { method, params } = request.request;
      const { response } = (await snap.onKeyringRequest({
        origin: request.origin,
        method,
        ...(params === undefined ? {} : { params: params as never }),
      })) as unknown as {
        response: { result?: unknown; error?: { code: number; message: string } };
      };
      handled.push({ method, params, ...(response.error ? { error: response.error } : {}) });
      if (response.error) {
        throw Object.assign(new Error(response.error.message), { code: response.error.code });
      }
      return response.result;
    },
  );
  // The snap's manifest says platformVersion 11.1.1: keyring requests v2 (with `origin`).
  register('SnapController:isMinimumPlatformVersion', (_id: string, version: string) => {
    return Number(version.split('.')[0]) <= 11;
  });
  register('SnapController:get', (id: string) => ({
    id,
    enabled: true,
    manifest: {
      proposedName: 'EVM Accounts',
      initialPermissions: { 'endowment:keyring': { allowedOrigins: [SITE] } },
    },
  }));
  const known = new Set<string>();
  return new SnapKeyring({
    messenger: messenger as unknown as SnapKeyringMessenger,
    callbacks: {
      saveState: async () => undefined,
      addressExists: async (address) => known.has(address.toLowerCase()),
      addAccount: async (address, id, handleUserInput, onceSaved, name, options) => {
        added.push({ address, snapId: id, name, options });
        known.add(address.toLowerCase());
        await handleUserInput(true);
        await onceSaved;
      },
      removeAccount: async (address, _id, handleUserInput) => {
        known.delete(address.toLowerCase());
        await handleUserInput(true);
      },
      redirectUser: async () => undefined,
    },
  });
}

/**
 * A bridge for the installed snap, put in the simulation's holder so the snap's keyring events
 * reach it; `added` and `handled` record what it reported and sent.
 */
export function connectBridge(snap: Snap): ConnectedBridge {
  const snapId = installedSnapId();
  const added: Added[] = [];
  const handled: Handled[] = [];
  const bridge = makeBridge(snap, snapId, added, handled);
  (globalThis as unknown as Record<symbol, { keyring: unknown }>)[
    Symbol.for('snaps-simulation.snapKeyringBridge')
  ].keyring = bridge;
  return { bridge, snapId, added, handled };
}
