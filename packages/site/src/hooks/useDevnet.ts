import { useCallback, useEffect, useState } from 'react';
import { devnetChainId, mintStrk, type MintResult } from '../devnet';

/** What "Fund" mints: 100 STRK (in FRI). */
export const FUND_STRK = 100n;
const FUND_AMOUNT_FRI = FUND_STRK * 10n ** 18n;

export interface Devnet {
  rpcUrl: string | null;
  /** The devnet's chain id, or null while unknown or when nothing answers at rpcUrl. */
  chainId: string | null;
  /** Whether the devnet answers for the network `chainId` (then the page can fund accounts). */
  serves(chainId: string | undefined): boolean;
  /** Mints FUND_STRK to `address` on the devnet. */
  fund(address: string): Promise<MintResult>;
}

/** The local devnet configured for the page (config.devnetRpcUrl). */
export function useDevnet(rpcUrl: string | null | undefined): Devnet {
  const [chainId, setChainId] = useState<string | null>(null);

  useEffect(() => {
    if (!rpcUrl) return;
    let cancelled = false;
    void devnetChainId(rpcUrl).then((id) => !cancelled && setChainId(id));
    return () => {
      cancelled = true;
    };
  }, [rpcUrl]);

  const fund = useCallback(
    async (address: string) => {
      if (!rpcUrl) throw new Error('No devnet configured');
      return mintStrk(rpcUrl, address, FUND_AMOUNT_FRI);
    },
    [rpcUrl],
  );

  return {
    rpcUrl: rpcUrl ?? null,
    chainId,
    serves: (networkChainId) => chainId !== null && chainId === networkChainId,
    fund,
  };
}
