import { useCallback, useEffect, useState } from 'react';
import { devnetChainId, mintEth, mintStrk, type MintResult } from '../utils/devnet';

/** What "Fund" mints: 100 STRK (in FRI). */
export const FUND_STRK = 100n;
const FUND_AMOUNT_FRI = FUND_STRK * 10n ** 18n;
/** What "Fund with ETH" mints: 1 ETH (in wei), and no STRK. */
export const FUND_ETH = 1n;
const FUND_AMOUNT_WEI = FUND_ETH * 10n ** 18n;

export interface Devnet {
  rpcUrl: string | null;
  /** The devnet's chain id, or null while unknown or when nothing answers at rpcUrl. */
  chainId: string | null;
  /** Whether the devnet answers for the network `chainId` (then the page can fund accounts). */
  serves(chainId: string | undefined): boolean;
  /** Mints FUND_STRK to `address` on the devnet. */
  fund(address: string): Promise<MintResult>;
  /** Mints FUND_ETH (and nothing else) to `address` on the devnet. */
  fundEth(address: string): Promise<MintResult>;
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

  const fundEth = useCallback(
    async (address: string) => {
      if (!rpcUrl) throw new Error('No devnet configured');
      return mintEth(rpcUrl, address, FUND_AMOUNT_WEI);
    },
    [rpcUrl],
  );

  return {
    rpcUrl: rpcUrl ?? null,
    chainId,
    serves: (networkChainId) => chainId !== null && chainId === networkChainId,
    fund,
    fundEth,
  };
}
