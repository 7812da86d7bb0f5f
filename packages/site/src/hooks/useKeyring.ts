import { useCallback, useEffect, useState } from 'react';
import {
  discoverProvider,
  KeyringClient,
  type KeyringAccount,
  type KeyringChainConfig,
} from '@l2wallet/client';
import { useSiteConfig } from './useSiteConfig';

export interface Keyring {
  /** The keyring snap's client once a wallet is found, else null. */
  client: KeyringClient | null;
  /** Which wallet was found, or why none. */
  status: string;
  connected: boolean;
  accounts: KeyringAccount[];
  /** The snap's first chain, once connected. */
  chain: KeyringChainConfig | null;
  /** The selected account, or null. */
  account: KeyringAccount | null;
  select(id: string): void;
  /** Connects the snap and loads its accounts. */
  connect(): Promise<string>;
  /** Creates an account, reloads the list and selects the new one. */
  createAccount(type: KeyringAccount['type']): Promise<KeyringAccount>;
}

/**
 * The keyring snap (packages/keyring-snap, config.keyringSnapId, `?keyringSnapId=`) as the EVM
 * page sees it: the wallet found, its accounts and chain, and the selected account.
 */
export function useKeyring(): Keyring {
  const config = useSiteConfig();
  const [client, setClient] = useState<KeyringClient | null>(null);
  const [status, setStatus] = useState('Looking for a wallet…');
  const [connected, setConnected] = useState(false);
  const [accounts, setAccounts] = useState<KeyringAccount[]>([]);
  const [chain, setChain] = useState<KeyringChainConfig | null>(null);
  const [selected, setSelected] = useState<string>('');

  useEffect(() => {
    if (!config) return;
    let cancelled = false;
    (async () => {
      const found = await discoverProvider({ timeoutMs: 800 });
      if (cancelled) return;
      if (!found) {
        setStatus('No wallet found: install MetaMask Flask.');
        return;
      }
      setClient(new KeyringClient(found.provider, config.keyringSnapId));
      setStatus(`Wallet: ${found.info?.name ?? found.source}`);
    })();
    return () => {
      cancelled = true;
    };
  }, [config]);

  const refresh = useCallback(async (keyring: KeyringClient) => {
    const [list, chains] = await Promise.all([keyring.listAccounts(), keyring.getChainConfigs()]);
    setAccounts(list);
    setChain(chains[0] ?? null);
    setSelected((current) =>
      list.some((entry) => entry.id === current) ? current : (list[0]?.id ?? ''),
    );
  }, []);

  const connect = async () => {
    if (!client) throw new Error('No wallet');
    await client.connect();
    setConnected(true);
    await refresh(client);
    return 'Connected to the keyring snap';
  };

  const createAccount = async (type: KeyringAccount['type']) => {
    if (!client) throw new Error('No wallet');
    const created = await client.createAccount({ type });
    await refresh(client);
    setSelected(created.id);
    return created;
  };

  const account = accounts.find((entry) => entry.id === selected) ?? null;
  return {
    client,
    status,
    connected,
    accounts,
    chain,
    account,
    select: setSelected,
    connect,
    createAccount,
  };
}
