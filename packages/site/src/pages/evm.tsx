import React from 'react';
import type { HeadFC } from 'gatsby';
import { EvmAccountsPanel } from '../components/EvmAccountsPanel';

export default function EvmAccountsPage() {
  return (
    <div className="page">
      <header className="hero">
        <div className="hero-inner">
          <div>
            <h1>EVM accounts</h1>
            <p>
              EOA and ERC-4337 accounts of the keyring snap: create them, sign a message, typed data
              and a transaction, and send a user operation through the bundler: with the chain's
              paymaster, a new account's first operation deploys it with no ETH at all.{' '}
              <a href="/">Back to the snap playground</a>
            </p>
          </div>
        </div>
      </header>
      <EvmAccountsPanel />
    </div>
  );
}

export const Head: HeadFC = () => (
  <>
    <title>EVM accounts · Starknet Snap playground</title>
    <meta name="description" content="EOA and ERC-4337 accounts of the keyring snap" />
  </>
);
