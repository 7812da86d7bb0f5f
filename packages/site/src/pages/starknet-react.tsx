import React from 'react';
import type { HeadFC } from 'gatsby';
import { StarknetReactApp } from '../starknetReact/StarknetReactApp';

export default function StarknetReactPage() {
  return (
    <div className="page">
      <header className="hero">
        <div className="hero-inner">
          <div>
            <h1>starknet-react dapp</h1>
            <p>
              A dapp on @starknet-react/core that finds the snap through the Wallet Standard.{' '}
              <a href="/">Back to the snap playground</a>
            </p>
          </div>
        </div>
      </header>
      <StarknetReactApp />
    </div>
  );
}

export const Head: HeadFC = () => (
  <>
    <title>starknet-react · Starknet Snap playground</title>
    <meta
      name="description"
      content="A starknet-react dapp using the snap via the Wallet Standard"
    />
  </>
);
