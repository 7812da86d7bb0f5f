import React, { useState } from 'react';
import { useAccount, useSignTypedData } from '@starknet-react/core';
import { typedDataFor } from './typedData';

/** SNIP-12 typed data bound to the current network, signed with useSignTypedData. */
export function SignPanel() {
  const { address, chainId } = useAccount();
  const [contents, setContents] = useState('Hello from starknet-react');
  const sign = useSignTypedData({ params: typedDataFor(chainId, contents) as never });
  return (
    <section className="card panel" data-testid="sr-sign-panel">
      <header className="card-head">
        <h2>Sign typed data</h2>
        <span className="mono small muted">useSignTypedData</span>
      </header>
      <label>
        Message
        <input
          data-testid="sr-sign-contents"
          value={contents}
          onChange={(e) => setContents(e.target.value)}
        />
      </label>
      <button
        type="button"
        className="btn"
        disabled={!address || sign.isPending}
        onClick={() => sign.signTypedData()}
      >
        Sign
      </button>
      <div data-testid="sr-sign-result">
        {sign.error && <p className="error">{sign.error.message}</p>}
        {sign.data && <p className="mono small">{JSON.stringify(sign.data)}</p>}
      </div>
    </section>
  );
}
