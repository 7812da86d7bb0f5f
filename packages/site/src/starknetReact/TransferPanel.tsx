import React, { useMemo, useState } from 'react';
import { useAccount, useSendTransaction } from '@starknet-react/core';
import { parseStrk, strkTransferCall } from './transfer';
import { SentTransaction } from './SentTransaction';

/** A STRK transfer with useSendTransaction, and its receipt. */
export function TransferPanel() {
  const { address } = useAccount();
  const [recipient, setRecipient] = useState('0x' + '7'.repeat(63));
  const [amount, setAmount] = useState('1');
  const calls = useMemo(
    () => [strkTransferCall(recipient, parseStrk(amount))],
    [recipient, amount],
  );
  const transfer = useSendTransaction({ calls });
  return (
    <section className="card panel" data-testid="sr-transfer-panel">
      <header className="card-head">
        <h2>Send STRK</h2>
        <span className="mono small muted">useSendTransaction</span>
      </header>
      <label>
        Recipient
        <input
          className="mono"
          data-testid="sr-recipient"
          value={recipient}
          onChange={(e) => setRecipient(e.target.value)}
        />
      </label>
      <label>
        Amount (STRK)
        <input data-testid="sr-amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <button
        type="button"
        className="btn"
        disabled={!address || transfer.isPending}
        onClick={() => transfer.send()}
      >
        Send
      </button>
      <SentTransaction
        testId="sr-transfer-result"
        hash={transfer.data?.transaction_hash}
        error={transfer.error}
      />
    </section>
  );
}
