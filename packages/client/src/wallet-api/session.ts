/**
 * The dapp's connection as the wallet object keeps it: whether the dapp connected (its
 * permissions), the account index the requests act for, and the accounts and network last read,
 * from which the listeners learn what changed.
 */
import type { StarknetSnapClient } from '../client';
import type { ChainId } from '../types';
import type { WalletEvents } from './events';
import { checkIndex } from './payloads';

export interface WalletSession {
  readonly client: StarknetSnapClient;
  readonly accountIndex: number;
  readonly connected: boolean;
  /** The network as last read, if it was. */
  readonly lastChainId: ChainId | undefined;
  permissions(): ['accounts'] | [];
  /**
   * Connects (installing the snap first when this site has not got it yet); in silent mode
   * nothing is asked and [] comes back unless the dapp is connected.
   */
  requestAccounts(silent: boolean): Promise<string[]>;
  disconnect(): void;
  /** Acts for the account at `addressIndex` from now on; accountsChanged tells when it moved. */
  selectAccount(addressIndex: number): Promise<string[]>;
  currentChainId(): Promise<ChainId>;
  /**
   * The selected account (index 0 unless selectAccount chose another) and the network it was
   * read on, from one read of each: what a request that acts for the account sends to the snap.
   * createAccount without deploy is idempotent and offline: it derives the account (storing it
   * when new) and sends nothing to the chain.
   */
  currentAccount(): Promise<{ address: string; chainId: ChainId }>;
  /** The selected account on the current network, as wallet_requestAccounts answers it. */
  currentAccounts(): Promise<string[]>;
  /**
   * Re-reads the network; emits networkChanged (and accountsChanged) when it moved from `before`.
   */
  refresh(before?: ChainId): Promise<void>;
}

function sameList(a: string[] | undefined, b: string[] | undefined): boolean {
  return !!a && !!b && a.length === b.length && a.every((value, i) => value === b[i]);
}

export function createWalletSession(
  client: StarknetSnapClient,
  accountIndex: number,
  events: WalletEvents,
): WalletSession {
  let index = checkIndex(accountIndex);
  let connected = false;
  let accounts: string[] | undefined;
  let chainId: ChainId | undefined;

  const currentChainId = async (): Promise<ChainId> => {
    const network = await client.getCurrentNetwork();
    chainId = network.chainId;
    return network.chainId;
  };

  const currentAccount = async (): Promise<{ address: string; chainId: ChainId }> => {
    const onChain = await currentChainId();
    const created = await client.createAccount({
      addressIndex: index,
      deploy: false,
      chainId: onChain,
    });
    const current = [created.address];
    const changed = accounts !== undefined && !sameList(accounts, current);
    accounts = current;
    if (changed) events.accountsChanged(current);
    return { address: created.address, chainId: onChain };
  };
  const currentAccounts = async (): Promise<string[]> => [(await currentAccount()).address];

  return {
    client,
    get accountIndex() {
      return index;
    },
    get connected() {
      return connected;
    },
    get lastChainId() {
      return chainId;
    },
    permissions: () => (connected ? ['accounts'] : []),
    async requestAccounts(silent) {
      if (silent && !connected) return [];
      if (!silent && !(await client.getInstalledSnap())) await client.connect();
      const current = await currentAccounts();
      connected = true;
      return current;
    },
    disconnect() {
      connected = false;
      accounts = undefined;
    },
    async selectAccount(addressIndex) {
      index = checkIndex(addressIndex);
      return currentAccounts();
    },
    currentChainId,
    currentAccount,
    currentAccounts,
    async refresh(before = chainId) {
      const now = await currentChainId();
      if (before !== undefined && before !== now) {
        let changed: string[] | undefined;
        if (accounts !== undefined) {
          try {
            changed = await currentAccounts();
          } catch {
            changed = undefined;
          }
        }
        events.networkChanged(now, changed);
      }
    },
  };
}
