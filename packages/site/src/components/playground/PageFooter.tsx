import React from 'react';
import { usePlayground } from '../../hooks';
import { CopyButton } from '../ResultView';

/** How the calls travel, and the devnet the page funds from. */
export function PageFooter() {
  const { config, devnet } = usePlayground();
  return (
    <footer className="footer muted small">
      Calls go through <span className="mono">@l2wallet/client</span> →{' '}
      <span className="mono">wallet_invokeSnap</span>.{' '}
      {config && (
        <>
          Devnet: <span className="mono">{config.devnetRpcUrl}</span>{' '}
          {devnet.chainId ? `(chain ${devnet.chainId})` : '(not reachable)'}
          <CopyButton text={config.devnetRpcUrl} />
        </>
      )}
    </footer>
  );
}
