import React, { useEffect, useState } from 'react';
import { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID } from '@l2wallet/client';
import { usePanel, usePlayground } from '../../hooks';
import { CHAINS } from '../../utils/methods';
import { newest } from '../../utils/outcome';
import { ActionButton } from '../ActionButton';
import { ResultView } from '../ResultView';

/**
 * The snap's current network, a switch to the other one, and whether the local devnet serves it.
 */
export function NetworkPanel() {
  const { wallet, network, devnet } = usePlayground();
  const panel = usePanel();
  const [target, setTarget] = useState(MAINNET_CHAIN_ID);
  const connected = wallet.client !== null;
  const { current } = network;

  // After every read, offer the other network.
  useEffect(() => {
    if (current)
      setTarget(current.chainId === MAINNET_CHAIN_ID ? TESTNET_CHAIN_ID : MAINNET_CHAIN_ID);
  }, [current]);

  const switchNetwork = async () =>
    (await network.switchTo(target)) ? 'Switched.' : 'The snap did not switch (returned false).';

  return (
    <section className="card panel" data-testid="network-panel">
      <header className="card-head">
        <h2>Network</h2>
        {devnet.serves(current?.chainId) && <span className="badge badge-local">Local devnet</span>}
      </header>
      {current ? (
        <p data-testid="current-network">
          <strong>{current.name}</strong>{' '}
          <span className="mono small muted">{current.chainId}</span>
        </p>
      ) : (
        <p className="muted">{connected ? 'Reading…' : 'Connect to see the network.'}</p>
      )}
      <div className="row">
        <select
          aria-label="Network to switch to"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          disabled={!connected}
        >
          {CHAINS.map((c) => (
            <option key={c.chainId} value={c.chainId}>
              {c.name}
            </option>
          ))}
        </select>
        <ActionButton
          panel={panel}
          action="switch"
          run={switchNetwork}
          busyLabel="Waiting…"
          disabled={!connected || target === current?.chainId}
        >
          Switch network
        </ActionButton>
      </div>
      <ResultView outcome={newest(panel.outcome, network.readError)} testId="network-result" />
    </section>
  );
}
