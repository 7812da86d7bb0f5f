import React from 'react';
import { usePlayground } from '../../hooks';

/** The title, the links to the other pages, and which wallet the page found. */
export function PageHeader() {
  const { status } = usePlayground().wallet;
  return (
    <header className="hero">
      <div className="hero-inner">
        <div>
          <h1>Starknet Snap playground</h1>
          <p>
            Create Starknet accounts in MetaMask, sign, send and declare — every snap method, one
            page. <a href="/gateway/">Node gateway credits →</a> <a href="/evm/">EVM accounts →</a>{' '}
            <a href="/starknet-react/">starknet-react dapp →</a>
          </p>
        </div>
        <div className="wallet-box" data-testid="wallet-status">
          {status.phase === 'detecting' && <span>Looking for a wallet…</span>}
          {status.phase === 'no-wallet' && (
            <span className="error-text">
              No wallet found. Install <a href="https://metamask.io/flask/">MetaMask Flask</a> and
              reload.
            </span>
          )}
          {status.phase === 'no-snaps' && <span className="error-text">{status.message}</span>}
          {status.phase === 'ready' && (
            <>
              <span className="dot dot-ok" /> {status.name}{' '}
              <span className="muted small">({status.source})</span>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
