/**
 * The snap as a Wallet Standard wallet, the way get-starknet v5 and starknet.js'
 * `WalletAccountV5` find Starknet wallets: the features of
 * `@starknet-io/get-starknet-wallet-standard` (`standard:connect`, `standard:disconnect`,
 * `standard:events`, `starknet:walletApi`) on top of the wallet-API object of wallet-api/.
 */
import type { StarknetInjectedWallet } from '@starknet-io/get-starknet-wallet-standard';
import type {
  IdentifierString,
  Wallet,
  WalletAccount,
  WalletEventsWindow,
  WalletIcon,
  WalletWithFeatures,
  WindowAppReadyEvent,
  WindowRegisterWalletEvent,
  WindowRegisterWalletEventCallback,
} from '@wallet-standard/base';
import type {
  StandardConnectMethod,
  StandardEventsChangeProperties,
  StandardEventsListeners,
  StandardEventsNames,
} from '@wallet-standard/features';
import { ReadonlyWalletAccount } from '@wallet-standard/wallet';

import { DEFAULT_WALLET_ICON, LISTED_CHAINS } from './wallet-api/constants';
import type { SnapStarknetWindowObject } from './wallet-api/wallet';
import type { ChainId } from './types';

/**
 * get-starknet v5's feature set, from its own wallet class (the package's root entry, the one
 * TypeScript's classic resolution reaches, exports the class but not the features type).
 */
export type StarknetFeatures = StarknetInjectedWallet['features'];
export type WalletWithStarknetFeatures = WalletWithFeatures<StarknetFeatures>;

/** Wallet Standard chain ids of the networks the snap lists. */
export const STARKNET_MAINNET_CHAIN = 'starknet:SN_MAIN';
export const STARKNET_SEPOLIA_CHAIN = 'starknet:SN_SEPOLIA';
export type StarknetStandardChain = typeof STARKNET_MAINNET_CHAIN | typeof STARKNET_SEPOLIA_CHAIN;

/** `starknet:SN_MAIN` / `starknet:SN_SEPOLIA` for a listed hex chain id. */
export function standardChainOf(chainId: ChainId): StarknetStandardChain {
  const name = Object.keys(LISTED_CHAINS).find((short) => LISTED_CHAINS[short] === chainId);
  if (!name) throw new Error(`The chain ${chainId} is not one the snap lists`);
  return `starknet:${name}` as StarknetStandardChain;
}

export interface StarknetStandardWalletOptions {
  /** Shown by dapps' wallet pickers; defaults to the wallet object's name. */
  name?: string;
  /** A `data:image/svg+xml;base64,...` (or png/webp/gif) URL; defaults to the wallet object's. */
  icon?: string;
}

function toWalletIcon(icon: unknown): WalletIcon {
  if (typeof icon === 'string' && /^data:image\/(svg\+xml|webp|png|gif);base64,/.test(icon))
    return icon as WalletIcon;
  return DEFAULT_WALLET_ICON as WalletIcon;
}

/**
 * A Wallet Standard wallet around a wallet-API object. Its one account (the wallet object's
 * selected account) carries the current network as its chain; a network or account change
 * emits `change`, and `disconnect` empties the accounts.
 */
export class StarknetSnapStandardWallet implements WalletWithStarknetFeatures {
  private readonly wallet: SnapStarknetWindowObject;
  private readonly walletName: string;
  private readonly walletIcon: WalletIcon;
  private readonly listeners: { [E in StandardEventsNames]?: StandardEventsListeners[E][] } = {};
  private current: ReadonlyWalletAccount | null = null;

  constructor(wallet: SnapStarknetWindowObject, options: StarknetStandardWalletOptions = {}) {
    this.wallet = wallet;
    this.walletName = options.name ?? wallet.name;
    this.walletIcon = toWalletIcon(options.icon ?? wallet.icon);
    wallet.on('accountsChanged', (accounts) => this.onAccountsChanged(accounts));
    wallet.on('networkChanged', (chainId, accounts) => this.onNetworkChanged(chainId, accounts));
  }

  get version() {
    return '1.0.0' as const;
  }

  get name(): string {
    return this.walletName;
  }

  get icon(): WalletIcon {
    return this.walletIcon;
  }

  get chains(): IdentifierString[] {
    return [STARKNET_MAINNET_CHAIN, STARKNET_SEPOLIA_CHAIN];
  }

  get accounts(): WalletAccount[] {
    return this.current ? [this.current] : [];
  }

  get features(): StarknetFeatures {
    return {
      'standard:connect': { version: '1.0.0', connect: this.connectFeature },
      'standard:disconnect': { version: '1.0.0', disconnect: this.disconnectFeature },
      'standard:events': { version: '1.0.0', on: this.onFeature },
      'starknet:walletApi': {
        version: '1.0.0',
        request: this.wallet.request,
        walletVersion: this.wallet.version,
        id: this.wallet.id,
      },
    };
  }

  private connectFeature: StandardConnectMethod = async ({ silent } = {}) => {
    const accounts = await this.wallet.request({
      type: 'wallet_requestAccounts',
      params: { silent_mode: silent ?? false },
    });
    if (accounts.length === 0) return { accounts: [] };
    const chainId = await this.wallet.request({ type: 'wallet_requestChainId' });
    this.setAccount(accounts[0], chainId);
    return { accounts: this.accounts };
  };

  private disconnectFeature = async (): Promise<void> => {
    this.wallet.disconnect();
    if (!this.current) return;
    this.current = null;
    this.emit('change', { accounts: this.accounts });
  };

  private onFeature = <E extends StandardEventsNames>(
    event: E,
    listener: StandardEventsListeners[E],
  ) => {
    const listeners = (this.listeners[event] ??= []) as StandardEventsListeners[E][];
    listeners.push(listener);
    return () => {
      this.listeners[event] = this.listeners[event]?.filter((other) => other !== listener);
    };
  };

  private emit(event: 'change', properties: StandardEventsChangeProperties) {
    for (const listener of this.listeners[event] ?? []) {
      try {
        listener(properties);
      } catch (error) {
        // One dapp listener's failure must not keep the others from hearing the change.
        console.error(error);
      }
    }
  }

  private setAccount(address: string, chainId: ChainId) {
    const chain = standardChainOf(chainId);
    const current = this.current;
    if (current && current.address === address && current.chains[0] === chain) return;
    this.current = new ReadonlyWalletAccount({
      address,
      publicKey: new Uint8Array(),
      chains: [chain],
      features: [],
    });
    this.emit('change', { accounts: this.accounts });
  }

  private onAccountsChanged(accounts: string[] | undefined) {
    if (!this.current) return;
    const [address] = accounts ?? [];
    if (!address) {
      this.current = null;
      this.emit('change', { accounts: [] });
      return;
    }
    this.setAccount(address, LISTED_CHAINS[this.current.chains[0].slice('starknet:'.length)]);
  }

  private onNetworkChanged(chainId: string | undefined, accounts: string[] | undefined) {
    if (!this.current || !chainId) return;
    this.setAccount(accounts?.[0] ?? this.current.address, chainId);
  }
}

/**
 * Registers the wallet-API object as a Wallet Standard wallet on `window` (get-starknet v5,
 * `@wallet-standard/app` and `WalletAccountV5` find it there). The returned function
 * unregisters it from every app that registered it.
 */
export function registerStarknetWallet(
  wallet: SnapStarknetWindowObject,
  options: StarknetStandardWalletOptions = {},
): () => void {
  return registerStandardWallet(new StarknetSnapStandardWallet(wallet, options));
}

/**
 * The Wallet Standard handshake of `@wallet-standard/wallet`'s `registerWallet` (a
 * register-wallet event for apps already listening, an app-ready listener for apps that load
 * later), which keeps no unregister function; this one keeps the apps' and returns them as one.
 */
export function registerStandardWallet(wallet: Wallet): () => void {
  const target = window as unknown as WalletEventsWindow;
  const unregisters: Array<() => void> = [];
  let registered = true;
  const callback: WindowRegisterWalletEventCallback = ({ register }) => {
    if (registered) unregisters.push(register(wallet));
  };
  const onAppReady = (event: WindowAppReadyEvent) => callback(event.detail);
  target.dispatchEvent(
    new CustomEvent('wallet-standard:register-wallet', {
      detail: callback,
    }) as unknown as WindowRegisterWalletEvent,
  );
  target.addEventListener('wallet-standard:app-ready', onAppReady);
  return () => {
    if (!registered) return;
    registered = false;
    window.removeEventListener('wallet-standard:app-ready', onAppReady as never);
    for (const unregister of unregisters.splice(0)) unregister();
  };
}
