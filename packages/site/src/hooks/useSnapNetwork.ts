import { useCallback, useEffect, useState } from 'react';
import { TESTNET_CHAIN_ID, type Network } from '@l2wallet/client';
import { errorOutcome, type Outcome } from '../utils/outcome';
import type { Wallet } from './useWallet';

export interface SnapNetwork {
  /** The snap's current network as last read (a new object on every read), or null. */
  current: Network | null;
  /** Its chain id; Testnet until one is read. */
  chainId: string;
  /** The last read's failure, for the network panel to show. */
  readError: Outcome | null;
  /** Reads the current network again (after a change made anywhere: a card, the wallet object). */
  reload(): Promise<Network | null>;
  /** Asks the snap to switch (it asks the user), then reads the network; false: not switched. */
  switchTo(chainId: string): Promise<boolean>;
}

/** The snap's current network: read when the snap is (re)installed and after every change. */
export function useSnapNetwork({ client, snap }: Pick<Wallet, 'client' | 'snap'>): SnapNetwork {
  const [current, setCurrent] = useState<Network | null>(null);
  const [readError, setReadError] = useState<Outcome | null>(null);

  const read = useCallback(async () => {
    if (!client) throw new Error('Connect first');
    const network = await client.getCurrentNetwork();
    setCurrent(network);
    return network;
  }, [client]);

  const reload = useCallback(async () => {
    if (!client) return null;
    try {
      return await read();
    } catch (error) {
      setReadError(errorOutcome(error));
      return null;
    }
  }, [client, read]);

  useEffect(() => {
    if (client && snap) void reload();
  }, [client, snap, reload]);

  const switchTo = useCallback(
    async (chainId: string) => {
      if (!client) throw new Error('Connect first');
      const switched = await client.switchNetwork({ chainId });
      await read();
      return switched;
    },
    [client, read],
  );

  return { current, chainId: current?.chainId ?? TESTNET_CHAIN_ID, readError, reload, switchTo };
}
