import React, { useEffect } from 'react';
import { useTransactionReceipt } from '@starknet-react/core';

interface Props {
  testId: string;
  /** The sent transaction's hash, once there is one. */
  hash: string | undefined;
  error: Error | null;
  /** Called once the receipt is there (the account may have changed: deployed, paid). */
  onReceipt?: () => void;
}

/** A sent transaction as a panel shows it: its hash and its receipt's outcome, or the error. */
export function SentTransaction({ testId, hash, error, onReceipt }: Props) {
  const receipt = useTransactionReceipt({
    hash,
    refetchInterval: (query) => (query.state.data ? false : 1000),
  });
  useEffect(() => {
    if (receipt.data) onReceipt?.();
  }, [receipt.data, onReceipt]);
  return (
    <div data-testid={testId}>
      {error && <p className="error">{error.message}</p>}
      {hash && (
        <p className="mono small">
          {hash}:{' '}
          {receipt.data
            ? receipt.data.isSuccess()
              ? 'SUCCEEDED'
              : 'REVERTED'
            : 'waiting for the receipt'}
        </p>
      )}
    </div>
  );
}
