import React from 'react';
import { CopyButton } from './ResultView';

export interface TrackedTx {
  hash: string;
  label: string;
  /** The chain it was sent on: polled there whatever network the page shows now. */
  chainId: string;
  status: string;
  failureReason?: string | null;
  updatedAt: number;
  pollError?: string;
}

export const PENDING_STATUSES = new Set(['RECEIVED', 'PENDING', 'SUBMITTED', 'NOT_RECEIVED']);

export function isPending(tx: TrackedTx): boolean {
  return PENDING_STATUSES.has(tx.status);
}

function badgeClass(status: string): string {
  if (status === 'ACCEPTED_ON_L2' || status === 'ACCEPTED_ON_L1') return 'badge badge-ok';
  if (status === 'REJECTED' || status === 'REVERTED') return 'badge badge-bad';
  return 'badge badge-wait';
}

export function short(value: string, keep = 6): string {
  return value.length > 2 * keep + 3 ? `${value.slice(0, keep + 2)}…${value.slice(-keep)}` : value;
}

interface Props {
  txs: TrackedTx[];
  polling: boolean;
  onRefresh(): void;
  canRefresh: boolean;
}

export function Transactions({ txs, polling, onRefresh, canRefresh }: Props) {
  return (
    <section className="card panel" data-testid="transactions">
      <header className="card-head">
        <h2>Transactions</h2>
        <div className="row">
          {polling && <span className="live">refreshing while pending…</span>}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={onRefresh}
            disabled={!canRefresh}
          >
            Load from snap
          </button>
        </div>
      </header>
      {txs.length === 0 ? (
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
            {txs.map((tx) => (
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
