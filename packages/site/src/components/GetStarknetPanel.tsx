import React, { useEffect, useMemo, useState } from 'react';
import {
  MAINNET_CHAIN_ID,
  TESTNET_CHAIN_ID,
  createStarknetWindowObject,
  type StarknetSnapClient,
  type StarknetWindowObject,
  type WalletRequest,
} from '@l2wallet/client';
import { exampleTypedData } from '../methods';
import { ResultView, errorOutcome, okOutcome, type Outcome } from './ResultView';

declare global {
  interface Window {
    starknet_metamask?: StarknetWindowObject;
  }
}

interface Props {
  client: StarknetSnapClient | null;
  /** Called after the wallet object switched the network, so the page can re-read it. */
  onNetworkChanged(): void;
}

/**
 * The get-starknet style wallet object from @l2wallet/client, as an existing Starknet dapp would
 * use it. It is also exposed as `window.starknet_metamask`.
 */
export function GetStarknetPanel({ client, onNetworkChanged }: Props) {
  const wallet = useMemo(() => (client ? createStarknetWindowObject(client) : null), [client]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [events, setEvents] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!wallet) return;
    window.starknet_metamask = wallet;
    const onAccounts = (accounts?: string[]) =>
      setEvents((old) => [...old, `accountsChanged ${JSON.stringify(accounts ?? [])}`]);
    const onNetwork = (chainId?: string) => {
      setEvents((old) => [...old, `networkChanged ${chainId ?? ''}`]);
      onNetworkChanged();
    };
    wallet.on('accountsChanged', onAccounts);
    wallet.on('networkChanged', onNetwork);
    return () => {
      wallet.off('accountsChanged', onAccounts);
      wallet.off('networkChanged', onNetwork);
    };
  }, [wallet, onNetworkChanged]);

  const send = async (request: WalletRequest) => {
    if (!wallet) return;
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(okOutcome(await wallet.request(request)));
    } catch (error) {
      setOutcome(errorOutcome(error));
    } finally {
      setBusy(false);
    }
  };

  /** The wallet's current chain id (Testnet when it cannot be read). */
  const currentChainId = async (): Promise<string> =>
    wallet
      ? wallet.request({ type: 'wallet_requestChainId' }).catch(() => TESTNET_CHAIN_ID)
      : TESTNET_CHAIN_ID;

  // Typed data for the wallet's current network: the snap refuses a domain naming another chain.
  const signTypedData = async () => {
    if (!wallet) return;
    await send({ type: 'wallet_signTypedData', params: exampleTypedData(await currentChainId()) });
  };

  const switchTo = async () => {
    if (!wallet) return;
    const current = await currentChainId();
    await send({
      type: 'wallet_switchStarknetChain',
      params: { chainId: current === MAINNET_CHAIN_ID ? TESTNET_CHAIN_ID : MAINNET_CHAIN_ID },
    });
  };

  const disabled = !wallet || busy;
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
        <button
          type="button"
          className="btn btn-small"
          disabled={disabled}
          onClick={() => send({ type: 'wallet_requestAccounts' })}
        >
          wallet_requestAccounts
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={disabled}
          onClick={() => send({ type: 'wallet_requestChainId' })}
        >
          wallet_requestChainId
        </button>
        <button type="button" className="btn btn-small" disabled={disabled} onClick={signTypedData}>
          wallet_signTypedData
        </button>
        <button type="button" className="btn btn-small" disabled={disabled} onClick={switchTo}>
          wallet_switchStarknetChain
        </button>
      </div>
      <ResultView outcome={outcome} testId="get-starknet-result" />
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
