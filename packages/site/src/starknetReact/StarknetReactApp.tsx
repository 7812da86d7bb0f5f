/**
 * A dapp built on @starknet-react/core, as a Starknet developer would write it: the wallet is
 * found through the Wallet Standard (setupStarknetSnap registers the snap there), then one panel
 * per thing a dapp does: connect (address, network, STRK balance), a STRK transfer, a transaction
 * whose fee the dapp sponsors through a SNIP-29 paymaster, typed data signing, and every wallet
 * API request.
 */
import React, { useEffect, useMemo, useState } from 'react';
import { mainnet, sepolia, type Chain } from '@starknet-react/chains';
import {
  StarknetConfig,
  jsonRpcProvider,
  paymasterRpcProvider,
  useAccount,
} from '@starknet-react/core';
import { setupStarknetSnap } from '@l2wallet/client';
import { useDevnet, useSiteConfig } from '../hooks';
import { paymasterRpcFor } from './sponsored';
import { useWalletStandardConnectors } from './walletStandardConnector';
import { ConnectPanel } from './ConnectPanel';
import { SignPanel } from './SignPanel';
import { SponsoredPanel } from './SponsoredPanel';
import { TransferPanel } from './TransferPanel';
import { WalletApiPanel } from './WalletApiPanel';

const CHAINS: Chain[] = [sepolia, mainnet];

/** The panels, inside StarknetConfig (they use its hooks). */
function Dapp({ devnetRpcUrl, paymasterUrl }: { devnetRpcUrl: string; paymasterUrl: string }) {
  const devnet = useDevnet(devnetRpcUrl);
  const { connector } = useAccount();
  return (
    <>
      <ConnectPanel devnet={devnet} />
      <TransferPanel />
      <SponsoredPanel paymasterUrl={paymasterUrl} />
      <SignPanel />
      <WalletApiPanel connector={connector} />
    </>
  );
}

export function StarknetReactApp() {
  const config = useSiteConfig();
  const [setupError, setSetupError] = useState<string | null>(null);
  const connectors = useWalletStandardConnectors();

  useEffect(() => {
    if (!config) return;
    let unregister: (() => void) | undefined;
    let cancelled = false;
    setupStarknetSnap({
      snapId: config.snapId,
      version: config.snapVersion,
      injectWindowObject: false,
    })
      .then((setup) => {
        if (cancelled) setup.unregister();
        else unregister = setup.unregister;
      })
      .catch((error: unknown) =>
        setSetupError(error instanceof Error ? error.message : String(error)),
      );
    return () => {
      cancelled = true;
      unregister?.();
    };
  }, [config]);

  // Sepolia's node is the page's devnet; Mainnet uses the chain's public node.
  const provider = useMemo(
    () =>
      jsonRpcProvider({
        rpc: (chain) => ({
          nodeUrl:
            chain.id === sepolia.id && config ? config.devnetRpcUrl : chain.rpcUrls.public.http[0],
        }),
      }),
    [config],
  );
  // Sepolia's paymaster is the page's (with its sponsor key); Mainnet's is AVNU's public one.
  const paymasterProvider = useMemo(
    () =>
      paymasterRpcProvider({
        rpc: (chain) =>
          paymasterRpcFor(chain, {
            url: config?.paymasterUrl ?? '',
            apiKey: config?.paymasterKey ?? '',
          }),
      }),
    [config],
  );

  if (!config) return null;
  return (
    <StarknetConfig
      chains={CHAINS}
      provider={provider}
      paymasterProvider={paymasterProvider}
      connectors={connectors}
      defaultChainId={sepolia.id}
    >
      {setupError && (
        <p className="error" data-testid="sr-setup-error">
          {setupError}
        </p>
      )}
      <Dapp devnetRpcUrl={config.devnetRpcUrl} paymasterUrl={config.paymasterUrl} />
    </StarknetConfig>
  );
}
