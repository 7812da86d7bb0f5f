import { useCallback, useEffect, useState } from 'react';
import {
  SnapsNotSupportedError,
  StarknetSnapClient,
  discoverProvider,
  type InstalledSnap,
} from '@l2wallet/client';
import type { SiteConfig } from '../utils/config';

export type WalletStatus =
  | { phase: 'detecting' }
  | { phase: 'no-wallet' }
  | { phase: 'no-snaps'; message: string }
  | { phase: 'ready'; source: string; name: string };

export interface Wallet {
  status: WalletStatus;
  /** The snap client once the snap is installed for this site, else null. */
  client: StarknetSnapClient | null;
  snap: InstalledSnap | null;
  /** Installs or updates the snap (`wallet_requestSnaps`); throws what the wallet answered. */
  connect(): Promise<InstalledSnap>;
}

function walletLabel(source: string): string {
  if (source === 'io.metamask.flask') return 'MetaMask Flask';
  if (source === 'io.metamask') return 'MetaMask';
  return 'Injected wallet (window.ethereum)';
}

/**
 * The wallet (EIP-6963: MetaMask Flask first, then MetaMask, then window.ethereum), whether it
 * runs snaps, and the configured snap if this site has it installed.
 */
export function useWallet(config: SiteConfig | null): Wallet {
  const [status, setStatus] = useState<WalletStatus>({ phase: 'detecting' });
  const [discovered, setDiscovered] = useState<StarknetSnapClient | null>(null);
  const [snap, setSnap] = useState<InstalledSnap | null>(null);

  useEffect(() => {
    if (!config) return;
    let cancelled = false;
    void (async () => {
      const found = await discoverProvider({ timeoutMs: 800 });
      if (cancelled) return;
      if (!found) {
        setStatus({ phase: 'no-wallet' });
        return;
      }
      const client = new StarknetSnapClient({
        provider: found.provider,
        snapId: config.snapId,
        version: config.snapVersion,
      });
      try {
        const installed = await client.getInstalledSnap();
        if (cancelled) return;
        setStatus({
          phase: 'ready',
          source: found.source,
          name: found.info?.name ?? walletLabel(found.source),
        });
        setDiscovered(client);
        if (installed) setSnap(installed);
      } catch (error) {
        if (error instanceof SnapsNotSupportedError)
          setStatus({ phase: 'no-snaps', message: error.message });
        else setStatus({ phase: 'no-snaps', message: String(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [config]);

  const connect = useCallback(async () => {
    if (!discovered) throw new Error('No wallet found');
    const installed = await discovered.connect();
    setSnap(installed);
    return installed;
  }, [discovered]);

  return { status, client: snap ? discovered : null, snap, connect };
}
