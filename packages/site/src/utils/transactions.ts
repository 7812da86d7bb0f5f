/** The transactions the page tracks: what it sent, and what the snap's own records say. */
import type { TransactionRecord } from '@l2wallet/client';

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

/** The transaction hash in a snap answer (`{transaction_hash}`), if it holds one. */
export function transactionHashOf(result: unknown): string | null {
  if (typeof result === 'object' && result !== null) {
    const hash = (result as { transaction_hash?: unknown }).transaction_hash;
    if (typeof hash === 'string' && hash.length > 0) return hash;
  }
  return null;
}

/** A just-sent transaction first in the list (once: a hash already tracked is left as it is). */
export function addSent(txs: TrackedTx[], hash: string, label: string, chainId: string) {
  if (txs.some((tx) => tx.hash === hash)) return txs;
  return [{ hash, label, chainId, status: 'RECEIVED', updatedAt: Date.now() }, ...txs];
}

/** The snap's records merged in: its status wins, the page's label stays. */
export function mergeRecords(txs: TrackedTx[], records: TransactionRecord[], chainId: string) {
  const byHash = new Map(txs.map((tx) => [tx.hash, tx]));
  for (const record of records) {
    byHash.set(record.txnHash, {
      hash: record.txnHash,
      label: byHash.get(record.txnHash)?.label ?? (record.contractFuncName || record.txnType),
      chainId: record.chainId || chainId,
      status: record.status,
      failureReason: record.failureReason,
      updatedAt: Date.now(),
    });
  }
  return [...byHash.values()];
}
