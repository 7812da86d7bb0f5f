/**
 * A starknet-react connector for any Starknet wallet found through the Wallet Standard (the
 * get-starknet v5 way: `standard:connect`, `standard:events`, `starknet:walletApi`), and a hook
 * that lists those wallets with @wallet-standard/app as they register. starknet-react 5 itself
 * only finds `window.starknet_*` objects.
 */
import { Connector, UserRejectedRequestError, type ConnectArgs } from '@starknet-react/core';
import { getWallets } from '@wallet-standard/app';
import type { Wallet } from '@wallet-standard/base';
import { useEffect, useState } from 'react';
import {
  WalletAccountV5,
  type AccountInterface,
  type PaymasterInterface,
  type ProviderInterface,
} from 'starknet';
import {
  LISTED_CHAINS,
  type StarknetFeatures,
  type WalletWithStarknetFeatures,
} from '@l2wallet/client';

const REQUIRED_FEATURES = [
  'standard:connect',
  'standard:disconnect',
  'standard:events',
  'starknet:walletApi',
];

export function isStarknetStandardWallet(wallet: Wallet): wallet is WalletWithStarknetFeatures {
  return REQUIRED_FEATURES.every((feature) => feature in wallet.features);
}

/** `starknet:SN_SEPOLIA` (or `starknet:0x...`) -> the chain id as starknet-react keeps it. */
function chainIdOf(chain: string | undefined): bigint | undefined {
  const id = chain?.slice('starknet:'.length);
  if (!id) return undefined;
  return BigInt(LISTED_CHAINS[id] ?? id);
}

// Kept outside the instances: the class's own constructor (so its field initialisers) never runs.
const walletOf = new WeakMap<object, WalletWithStarknetFeatures>();
const unsubscribeOf = new WeakMap<object, () => void>();

/**
 * Made by walletStandardConnector(), never with `new`: Gatsby's Babel always compiles classes to
 * functions (plugin-transform-classes), and such a function cannot run the constructor of
 * starknet-react's native Connector class. Reflect.construct runs that constructor natively and
 * gives the instance this class's prototype (its methods).
 */
export class WalletStandardConnector extends Connector {
  get wallet(): WalletWithStarknetFeatures {
    return walletOf.get(this) as WalletWithStarknetFeatures;
  }

  private get features(): StarknetFeatures {
    return this.wallet.features as StarknetFeatures;
  }

  get id(): string {
    return this.features['starknet:walletApi'].id;
  }

  get name(): string {
    return this.wallet.name;
  }

  get icon() {
    return { dark: this.wallet.icon, light: this.wallet.icon };
  }

  available(): boolean {
    return true;
  }

  async ready(): Promise<boolean> {
    const permissions = await this.features['starknet:walletApi'].request({
      type: 'wallet_getPermissions',
    });
    return (permissions as string[]).includes('accounts');
  }

  async connect(args: ConnectArgs = {}) {
    const { accounts } = await this.features['standard:connect'].connect();
    const [first] = accounts;
    if (!first) throw new UserRejectedRequestError();
    unsubscribeOf.get(this)?.();
    const unsubscribe = this.features['standard:events'].on('change', ({ accounts: changed }) => {
      const [account] = changed ?? [];
      if (!account) this.emit('disconnect');
      else this.emit('change', { account: account.address, chainId: chainIdOf(account.chains[0]) });
    });
    unsubscribeOf.set(this, unsubscribe);
    if (args.chainIdHint !== undefined && chainIdOf(first.chains[0]) !== args.chainIdHint)
      await this.features['starknet:walletApi'].request({
        type: 'wallet_switchStarknetChain',
        params: { chainId: `0x${args.chainIdHint.toString(16)}` },
      });
    const account = this.wallet.accounts[0] ?? first;
    const data = { account: account.address, chainId: chainIdOf(account.chains[0]) };
    this.emit('connect', data);
    return data;
  }

  async disconnect(): Promise<void> {
    unsubscribeOf.get(this)?.();
    unsubscribeOf.delete(this);
    await this.features['standard:disconnect'].disconnect();
    this.emit('disconnect');
  }

  async account(
    provider: ProviderInterface,
    paymasterProvider?: PaymasterInterface,
  ): Promise<AccountInterface> {
    return WalletAccountV5.connect(
      provider,
      this.wallet as never,
      undefined,
      paymasterProvider,
      true,
    );
  }

  async chainId(): Promise<bigint> {
    return BigInt(
      await this.features['starknet:walletApi'].request({ type: 'wallet_requestChainId' }),
    );
  }

  // starknet-react types requests with an older @starknet-io/types-js; the wire format is the same.
  request<T extends Parameters<Connector['request']>[0]['type']>(
    call: Parameters<Connector['request']>[0] & { type: T },
  ) {
    return this.features['starknet:walletApi'].request(call as never) as never;
  }
}

export function walletStandardConnector(
  wallet: WalletWithStarknetFeatures,
): WalletStandardConnector {
  const connector = Reflect.construct(
    Connector,
    [],
    WalletStandardConnector,
  ) as WalletStandardConnector;
  walletOf.set(connector, wallet);
  return connector;
}

/** One connector per Starknet wallet registered with the Wallet Standard, kept up to date. */
export function useWalletStandardConnectors(): WalletStandardConnector[] {
  const [connectors, setConnectors] = useState<WalletStandardConnector[]>([]);
  useEffect(() => {
    const wallets = getWallets();
    const byWallet = new Map<Wallet, WalletStandardConnector>();
    const update = () => {
      const next = wallets
        .get()
        .filter(isStarknetStandardWallet)
        .map((wallet) => byWallet.get(wallet) ?? walletStandardConnector(wallet));
      for (const connector of next) byWallet.set(connector.wallet, connector);
      setConnectors(next);
    };
    update();
    const offRegister = wallets.on('register', update);
    const offUnregister = wallets.on('unregister', update);
    return () => {
      offRegister();
      offUnregister();
    };
  }, []);
  return connectors;
}
