import React from 'react';
import type { HeadFC } from 'gatsby';
import { App } from '../components/App';

export default function IndexPage() {
  return <App />;
}

export const Head: HeadFC = () => (
  <>
    <title>Starknet Snap playground</title>
    <meta name="description" content="Try every method of the Starknet MetaMask snap" />
  </>
);
