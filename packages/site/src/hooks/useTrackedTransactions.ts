import { useCallback, useEffect, useRef, useState } from 'react';
import type { StarknetSnapClient } from '@l2wallet/client';
import { startPolling } from '../utils/polling';
import {
  addSent,
  isPending,
  mergeRecords,
  transactionHashOf,
  type TrackedTx,
} from '../utils/transactions';

const POLL_MS = 1500;

export interface TrackedTransactions {
  /** Newest first. */
  list: TrackedTx[];
  /** Whether any is still pending (and its status is being polled). */
  polling: boolean;
  /** The hash of the newest ('' when none). */
  lastHash: string;
  /** Tracks the transaction a snap answer holds (`{transaction_hash}`), sent on `chainId`. */
  trackResult(result: unknown, label: string, chainId: string): void;
  /** Merges the snap's records of `senderAddress`'s transactions on `chainId`. */
  loadFromSnap(senderAddress: string, chainId: string): Promise<void>;
}

/**
 * Every transaction the page sent, with its status: polled while any is pending, each on its
 * own chain (a network switch does not move it), one status request at a time.
 */
export function useTrackedTransactions(client: StarknetSnapClient | null): TrackedTransactions {
  const [list, setList] = useState<TrackedTx[]>([]);
  const listRef = useRef(list);
  listRef.current = list;

  const pending = list.some(isPending);
  useEffect(() => {
    if (!client || !pending) return;
    return startPolling({
      client,
      intervalMs: POLL_MS,
      pending: () => listRef.current.filter(isPending),
      onStatus: (hash, status) =>
        setList((old) =>
          old.map((tx) =>
            tx.hash === hash ? { ...tx, status, updatedAt: Date.now(), pollError: undefined } : tx,
          ),
        ),
      onError: (hash, error) =>
        setList((old) =>
          old.map((tx) => (tx.hash === hash ? { ...tx, pollError: (error as Error).message } : tx)),
        ),
    });
  }, [client, pending]);

  const trackResult = useCallback((result: unknown, label: string, chainId: string) => {
    const hash = transactionHashOf(result);
    if (hash) setList((old) => addSent(old, hash, label, chainId));
  }, []);

  const loadFromSnap = useCallback(
    async (senderAddress: string, chainId: string) => {
      if (!client) throw new Error('Connect first');
      const records = await client.getTransactions({ senderAddress, withDeployTxn: true, chainId });
      setList((old) => mergeRecords(old, records, chainId));
    },
    [client],
  );

  return {
    list,
    polling: pending && client !== null,
    lastHash: list[0]?.hash ?? '',
    trackResult,
    loadFromSnap,
  };
}
