import React from 'react';
import { usePanel, usePlayground } from '../../hooks';
import { short } from '../../utils/outcome';
import { ActionButton } from '../ActionButton';
import { CopyButton, ResultView } from '../ResultView';

function badgeClass(status: string): string {
  if (status === 'ACCEPTED_ON_L2' || status === 'ACCEPTED_ON_L1') return 'badge badge-ok';
  if (status === 'REJECTED' || status === 'REVERTED') return 'badge badge-bad';
  return 'badge badge-wait';
}

/**
 * Every transaction the page sent, with its status badge; "Load from snap" adds the snap's records.
 */
export function TransactionsPanel() {
  const { wallet, network, accounts, transactions } = usePlayground();
  const panel = usePanel();
  const { list } = transactions;
  const load = () => transactions.loadFromSnap(accounts.selected, network.chainId);
  return (
    <section className="card panel" data-testid="transactions">
      <header className="card-head">
        <h2>Transactions</h2>
        <div className="row">
          {transactions.polling && <span className="live">refreshing while pending…</span>}
          <ActionButton
            panel={panel}
            action="load"
            run={load}
            disabled={!wallet.client || !accounts.selected}
            className="btn btn-ghost btn-small"
          >
            Load from snap
          </ActionButton>
        </div>
      </header>
      <ResultView outcome={panel.outcome} testId="transactions-result" />
      {list.length === 0 ? (
        <p className="muted">No transactions yet. Deploy an account or send a transfer.</p>
      ) : (
        <table className="tx-table">
          <thead>
            <tr>
              <th>Status</th>
              <th>What</th>
              <th>Hash</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.map((tx) => (
              <tr key={tx.hash} data-testid="tx-row">
                <td>
                  <span className={badgeClass(tx.status)}>{tx.status}</span>
                </td>
                <td>
                  {tx.label}
                  {tx.failureReason && <div className="error-text">{tx.failureReason}</div>}
                  {tx.pollError && (
                    <div className="muted small">status check failed: {tx.pollError}</div>
                  )}
                </td>
                <td className="mono">
                  <span title={tx.hash}>{short(tx.hash)}</span> <CopyButton text={tx.hash} />
                </td>
                <td className="muted small">{new Date(tx.updatedAt).toLocaleTimeString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
