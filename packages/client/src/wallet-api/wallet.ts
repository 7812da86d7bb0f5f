/**
 * The Starknet wallet API object (`request({type, params})`, the get-starknet v4
 * `StarknetWindowObject`, typed by `@starknet-io/types-js`) on top of the snap client: its
 * identity, plus the session (session.ts), the events (events.ts) and the request router
 * (router.ts). Every failure is a WalletApiError with the wallet API's code (errors.ts).
 */
import type { StarknetWindowObject, WalletEventHandlers } from '@starknet-io/types-js';

import type { StarknetSnapClient } from '../client';
import {
  DEFAULT_WALLET_ICON,
  type WalletRequest,
  type WalletRequestType,
  type WalletResult,
} from './constants';
import { toWalletApiError } from './errors';
import { createWalletEvents, type WalletEvents } from './events';
import { routeRequest } from './router';
import { createWalletSession, type WalletSession } from './session';

/** The wallet object of this package: a StarknetWindowObject whose account can be chosen. */
export interface SnapStarknetWindowObject extends StarknetWindowObject {
  /** Derivation index of the account the wallet requests act for (default 0). */
  readonly accountIndex: number;
  /** Whether the dapp connected (wallet_requestAccounts) and has not disconnected since. */
  readonly connected: boolean;
  /**
   * Acts for the account at `addressIndex` from now on (derived, not deployed, when new);
   * emits accountsChanged when the account changes. Returns the new account list.
   */
  selectAccount(addressIndex: number): Promise<string[]>;
  /**
   * Forgets the connection: permissions are [] and silent requests get no account until the next
   * connect.
   */
  disconnect(): void;
}

export interface StarknetWindowOptions {
  /** Derivation index of the account to act for at first (default 0); see selectAccount. */
  accountIndex?: number;
  id?: string;
  name?: string;
  version?: string;
  /** A `data:image/...` URL (the Wallet Standard requires one). */
  icon?: string;
  /**
   * The snap sends no events, so changes made elsewhere (e.g. in another tab) are found by
   * polling l2_getCurrentNetwork at this interval while a listener is registered. 0 disables.
   */
  pollIntervalMs?: number;
}

class SnapWalletObject implements SnapStarknetWindowObject {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly icon: string;
  private readonly events: WalletEvents;
  private readonly session: WalletSession;

  constructor(client: StarknetSnapClient, options: StarknetWindowOptions) {
    this.id = options.id ?? 'metamask-starknet-snap';
    this.name = options.name ?? 'MetaMask Starknet Snap';
    this.version = options.version ?? '1.0.0';
    this.icon = options.icon ?? DEFAULT_WALLET_ICON;
    this.events = createWalletEvents(options.pollIntervalMs ?? 0, () => this.session.refresh());
    this.session = createWalletSession(client, options.accountIndex ?? 0, this.events);
    // Bound: dapps pass these around detached (e.g. get-starknet's `request` feature).
    this.request = this.request.bind(this) as typeof this.request;
    this.on = this.on.bind(this) as typeof this.on;
    this.off = this.off.bind(this) as typeof this.off;
  }

  get accountIndex(): number {
    return this.session.accountIndex;
  }

  get connected(): boolean {
    return this.session.connected;
  }

  async selectAccount(addressIndex: number): Promise<string[]> {
    try {
      return await this.session.selectAccount(addressIndex);
    } catch (error) {
      throw toWalletApiError(error);
    }
  }

  disconnect(): void {
    this.session.disconnect();
  }

  async request<T extends WalletRequestType>(call: WalletRequest<T>): Promise<WalletResult<T>> {
    try {
      return (await routeRequest(this.session, call)) as WalletResult<T>;
    } catch (error) {
      throw toWalletApiError(error);
    }
  }

  on<E extends keyof WalletEventHandlers>(event: E, handler: WalletEventHandlers[E]): void {
    this.events.add(event, handler);
    // The network as of now, so that a later change is noticed.
    if (this.session.lastChainId === undefined)
      this.session.currentChainId().catch(() => undefined);
  }

  off<E extends keyof WalletEventHandlers>(event: E, handler: WalletEventHandlers[E]): void {
    this.events.remove(event, handler);
  }
}

/**
 * Builds the wallet-API object (get-starknet v4 `StarknetWindowObject`) on top of a snap client.
 */
export function createStarknetWindowObject(
  client: StarknetSnapClient,
  options: StarknetWindowOptions = {},
): SnapStarknetWindowObject {
  return new SnapWalletObject(client, options);
}
