import React from 'react';
import type { HeadFC } from 'gatsby';
import { GatewayPanel } from '../components/GatewayPanel';

export default function GatewayPage() {
  return (
    <div className="page">
      <header className="hero">
        <div className="hero-inner">
          <div>
            <h1>Node gateway</h1>
            <p>
              Credits of an API key of the metered JSON-RPC gateway on both its chains (EVM and
              Starknet), and the six node methods to try.{' '}
              <a href="/">Back to the snap playground</a>
            </p>
          </div>
        </div>
      </header>
      <GatewayPanel />
    </div>
  );
}

export const Head: HeadFC = () => (
  <>
    <title>Node gateway · Starknet Snap playground</title>
    <meta name="description" content="Credits and methods of the metered JSON-RPC gateway" />
  </>
);
