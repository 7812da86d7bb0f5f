/**
 * The playground page: the hooks hold the wallet, the snap's network, the accounts, the devnet
 * and the tracked transactions; the panels (components/playground/) read them through
 * usePlayground() and each runs its own actions.
 */
import React from 'react';
import {
  PlaygroundContext,
  useAccounts,
  useDevnet,
  useSiteConfig,
  useSnapNetwork,
  useTrackedTransactions,
  useWallet,
} from '../hooks';
import { AccountsPanel } from './playground/AccountsPanel';
import { GetStarknetPanel } from './playground/GetStarknetPanel';
import { MethodCards } from './playground/MethodCards';
import { NetworkPanel } from './playground/NetworkPanel';
import { PageFooter } from './playground/PageFooter';
import { PageHeader } from './playground/PageHeader';
import { SnapPanel } from './playground/SnapPanel';
import { TransactionsPanel } from './playground/TransactionsPanel';

export function App() {
  const config = useSiteConfig();
  const wallet = useWallet(config);
  const network = useSnapNetwork(wallet);
  const devnet = useDevnet(config?.devnetRpcUrl);
  const accounts = useAccounts(wallet.client, network.current);
  const transactions = useTrackedTransactions(wallet.client);

  return (
    <PlaygroundContext.Provider value={{ config, wallet, network, devnet, accounts, transactions }}>
      <div className="page">
        <PageHeader />
        <main className="content">
          <div className="top-grid">
            <SnapPanel />
            <NetworkPanel />
          </div>
          <AccountsPanel />
          <TransactionsPanel />
          <GetStarknetPanel />
          <MethodCards />
        </main>
        <PageFooter />
      </div>
    </PlaygroundContext.Provider>
  );
}
