import { createContext, useContext } from 'react';
import type { SiteConfig } from '../utils/config';
import type { Accounts } from './useAccounts';
import type { Devnet } from './useDevnet';
import type { SnapNetwork } from './useSnapNetwork';
import type { TrackedTransactions } from './useTrackedTransactions';
import type { Wallet } from './useWallet';

/** What the playground page's hooks hold, shared by its panels (App.tsx provides it). */
export interface Playground {
  config: SiteConfig | null;
  wallet: Wallet;
  network: SnapNetwork;
  devnet: Devnet;
  accounts: Accounts;
  transactions: TrackedTransactions;
}

export const PlaygroundContext = createContext<Playground | null>(null);

/** The playground's shared state, for a panel inside App. */
export function usePlayground(): Playground {
  const playground = useContext(PlaygroundContext);
  if (!playground) throw new Error('usePlayground() is for components inside <App>');
  return playground;
}
