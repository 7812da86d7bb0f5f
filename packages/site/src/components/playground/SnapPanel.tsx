import React from 'react';
import { usePanel, usePlayground } from '../../hooks';
import { ActionButton } from '../ActionButton';
import { ResultView } from '../ResultView';

/** The configured snap: installed or not, and Connect (install or update). */
export function SnapPanel() {
  const { config, wallet } = usePlayground();
  const panel = usePanel();
  const connected = wallet.client !== null;
  const connect = async () => {
    const installed = await wallet.connect();
    return `Installed ${installed.id} version ${installed.version}`;
  };
  return (
    <section className="card panel" data-testid="connect-panel">
      <header className="card-head">
        <h2>Snap</h2>
        {connected ? (
          <span className="badge badge-ok">Connected</span>
        ) : (
          <span className="badge">Not connected</span>
        )}
      </header>
      <p className="mono small">
        {config?.snapId ?? '…'} <span className="muted">version {config?.snapVersion ?? '*'}</span>
      </p>
      {wallet.snap && (
        <p>
          Installed version <strong>{wallet.snap.version}</strong>
        </p>
      )}
      <ActionButton
        panel={panel}
        action="connect"
        run={connect}
        busyLabel="Waiting for the wallet…"
        disabled={wallet.status.phase !== 'ready'}
        className="btn btn-primary"
      >
        {connected ? 'Reinstall / update snap' : 'Connect'}
      </ActionButton>
      <ResultView outcome={panel.outcome} testId="connect-result" />
    </section>
  );
}
