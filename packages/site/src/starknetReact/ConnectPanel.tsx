import React from 'react';
import { sepolia } from '@starknet-react/chains';
import {
  useAccount,
  useBalance,
  useConnect,
  useDisconnect,
  useNetwork,
} from '@starknet-react/core';
import { STRK_ADDRESS } from '../utils/config';
import { FUND_STRK, usePanel, type Devnet } from '../hooks';
import { ActionButton } from '../components/ActionButton';
import { ResultView } from '../components/ResultView';

/** The Wallet Standard wallets as connectors, and the connected account: address, network, STRK. */
export function ConnectPanel({ devnet }: { devnet: Devnet }) {
  const { connect, connectors, error: connectError } = useConnect();
  const { disconnect } = useDisconnect();
  const { address, status, chainId } = useAccount();
  const { chain } = useNetwork();
  const balance = useBalance({ address, token: STRK_ADDRESS, refetchInterval: 1500 });
  const panel = usePanel();

  const fund = async () => {
    if (!address) return undefined;
    await devnet.fund(address);
    await balance.refetch();
    return `Minted ${FUND_STRK} STRK on the local devnet`;
  };

  return (
    <section className="card panel" data-testid="sr-connect-panel">
      <header className="card-head">
        <h2>Wallets (Wallet Standard)</h2>
        <span className="mono small muted">useConnect</span>
      </header>
      {connectors.length === 0 && <p data-testid="sr-no-wallet">No Starknet wallet found yet.</p>}
      <div className="row">
        {connectors.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            className="btn"
            data-testid={`sr-connect-${candidate.id}`}
            disabled={status === 'connected'}
            onClick={() => connect({ connector: candidate })}
          >
            {typeof candidate.icon === 'object' && candidate.icon.light && (
              <img src={candidate.icon.light} alt="" width={16} height={16} />
            )}{' '}
            Connect {candidate.name}
          </button>
        ))}
        {status === 'connected' && (
          <button type="button" className="btn btn-small" onClick={() => disconnect()}>
            Disconnect
          </button>
        )}
      </div>
      {connectError && <p className="error">{connectError.message}</p>}
      <dl className="facts" data-testid="sr-account">
        <dt>Status</dt>
        <dd>{status}</dd>
        <dt>Address</dt>
        <dd className="mono">{address ?? '-'}</dd>
        <dt>Network</dt>
        <dd className="mono">
          {chain.name} ({chainId === undefined ? '-' : `0x${chainId.toString(16)}`})
        </dd>
        <dt>Balance</dt>
        <dd className="mono" data-testid="sr-balance">
          {balance.data ? `${balance.data.formatted} ${balance.data.symbol}` : '-'}
        </dd>
      </dl>
      {address && chainId === sepolia.id && (
        <div className="row">
          <ActionButton panel={panel} action="fund" run={fund} className="btn btn-small">
            Fund with {String(FUND_STRK)} STRK (local devnet)
          </ActionButton>
          <ResultView outcome={panel.outcome} testId="sr-fund-result" />
        </div>
      )}
    </section>
  );
}
