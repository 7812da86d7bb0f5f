import React, { useEffect, useMemo, useState } from 'react';
import {
  MAINNET_CHAIN_ID,
  TESTNET_CHAIN_ID,
  createStarknetWindowObject,
  type StarknetWindowObject,
  type WalletRequest,
} from '@l2wallet/client';
import { usePanel, usePlayground } from '../../hooks';
import { exampleTypedData } from '../../utils/examples';
import { ActionButton } from '../ActionButton';
import { ResultView } from '../ResultView';

declare global {
  interface Window {
    starknet_metamask?: StarknetWindowObject;
  }
}

/** The requests the panel sends, each built when sent (for the wallet's current network). */
const REQUESTS: {
  type: string;
  build(currentChainId: () => Promise<string>): Promise<WalletRequest>;
}[] = [
  { type: 'wallet_requestAccounts', build: async () => ({ type: 'wallet_requestAccounts' }) },
  { type: 'wallet_requestChainId', build: async () => ({ type: 'wallet_requestChainId' }) },
  {
    // Typed data for the wallet's current network: the snap refuses a domain naming another chain.
    type: 'wallet_signTypedData',
    build: async (currentChainId) => ({
      type: 'wallet_signTypedData',
      params: exampleTypedData(await currentChainId()),
    }),
  },
  {
    type: 'wallet_switchStarknetChain',
    build: async (currentChainId) => ({
      type: 'wallet_switchStarknetChain',
      params: {
        chainId:
          (await currentChainId()) === MAINNET_CHAIN_ID ? TESTNET_CHAIN_ID : MAINNET_CHAIN_ID,
      },
    }),
  },
];

/**
 * The get-starknet style wallet object from @l2wallet/client, as an existing Starknet dapp would
 * use it. It is also exposed as `window.starknet_metamask`. A network switch made through it is
 * read back by the page's other panels.
 */
export function GetStarknetPanel() {
  const { wallet: snapWallet, network } = usePlayground();
  const client = snapWallet.client;
  const wallet = useMemo(() => (client ? createStarknetWindowObject(client) : null), [client]);
  const panel = usePanel();
  const [events, setEvents] = useState<string[]>([]);
  const { reload } = network;

  useEffect(() => {
    if (!wallet) return;
    window.starknet_metamask = wallet;
    const onAccounts = (accounts?: string[]) =>
      setEvents((old) => [...old, `accountsChanged ${JSON.stringify(accounts ?? [])}`]);
    const onNetwork = (chainId?: string) => {
      setEvents((old) => [...old, `networkChanged ${chainId ?? ''}`]);
      void reload();
    };
    wallet.on('accountsChanged', onAccounts);
    wallet.on('networkChanged', onNetwork);
    return () => {
      wallet.off('accountsChanged', onAccounts);
      wallet.off('networkChanged', onNetwork);
    };
  }, [wallet, reload]);

  /** The wallet's current chain id (Testnet when it cannot be read). */
  const currentChainId = async (): Promise<string> =>
    wallet
      ? wallet.request({ type: 'wallet_requestChainId' }).catch(() => TESTNET_CHAIN_ID)
      : TESTNET_CHAIN_ID;

  return (
    <section className="card panel" data-testid="get-starknet-panel">
      <header className="card-head">
        <h2>get-starknet wallet object</h2>
        <span className="mono small muted">window.starknet_metamask</span>
      </header>
      <p className="summary">
        What an existing Starknet dapp sees:{' '}
        <span className="mono">
          request({'{'} type, params {'}'})
        </span>{' '}
        mapped onto the snap, with <span className="mono">accountsChanged</span> /{' '}
        <span className="mono">networkChanged</span> events.
      </p>
      <div className="row">
        {REQUESTS.map(({ type, build }) => (
          <ActionButton
            key={type}
            panel={panel}
            action={type}
            run={async () => wallet?.request(await build(currentChainId))}
            disabled={!wallet}
            className="btn btn-small"
          >
            {type}
          </ActionButton>
        ))}
      </div>
      <ResultView outcome={panel.outcome} testId="get-starknet-result" />
      {events.length > 0 && (
        <ul className="events" data-testid="get-starknet-events">
          {events.map((event, i) => (
            <li key={i} className="mono small">
              {event}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
