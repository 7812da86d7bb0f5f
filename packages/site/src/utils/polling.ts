/** Status polling of the tracked transactions: each on its own chain, one request at a time. */
import type { StarknetSnapClient } from '@l2wallet/client';

export interface PolledTx {
  hash: string;
  /** The chain the transaction was sent on (not necessarily the current network). */
  chainId: string;
}

export interface PollOptions {
  client: Pick<StarknetSnapClient, 'getTransactionStatus'>;
  /** The transactions still pending, read afresh before every round. */
  pending(): PolledTx[];
  onStatus(hash: string, status: string): void;
  onError(hash: string, error: unknown): void;
  intervalMs: number;
}

/**
 * Every intervalMs after the previous round has finished, reads the status of each pending
 * transaction in turn on the chain it was sent on. Returns a function that stops the polling.
 */
export function startPolling({ client, pending, onStatus, onError, intervalMs }: PollOptions) {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const round = async () => {
    for (const tx of pending()) {
      if (stopped) return;
      try {
        const status = await client.getTransactionStatus({
          transactionHash: tx.hash,
          chainId: tx.chainId,
        });
        if (!stopped) onStatus(tx.hash, String(status));
      } catch (error) {
        if (!stopped) onError(tx.hash, error);
      }
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      void round().finally(() => {
        if (!stopped) schedule();
      });
    }, intervalMs);
  };
  schedule();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
