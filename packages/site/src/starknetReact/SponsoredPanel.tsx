import React, { useCallback, useEffect, useMemo, useState } from 'react';
import { sepolia } from '@starknet-react/chains';
import { useAccount, usePaymasterSendTransaction, useProvider } from '@starknet-react/core';
import {
  SPONSORED_FEE_MODE,
  sponsoredDeployment,
  strkApproveCall,
  type SponsoredDeployment,
} from './sponsored';
import { parseStrk } from './transfer';
import { SentTransaction } from './SentTransaction';

type Deployment =
  | { state: 'unknown' }
  | { state: 'deployed' }
  | { state: 'counterfactual'; data: SponsoredDeployment }
  | { state: 'error'; message: string };

/**
 * Whether the connected account is deployed and, while it is not, the wallet's deployment data
 * (wallet_deploymentData), which the paymaster needs to deploy it in the same transaction.
 */
function useDeployment(): [Deployment, () => Promise<void>] {
  const { address, chainId, connector } = useAccount();
  const { provider } = useProvider();
  const [deployment, setDeployment] = useState<Deployment>({ state: 'unknown' });
  const refresh = useCallback(async () => {
    if (!address || !connector || chainId !== sepolia.id) {
      setDeployment({ state: 'unknown' });
      return;
    }
    try {
      const deployed = await provider.getClassHashAt(address).then(
        () => true,
        () => false,
      );
      if (deployed) {
        setDeployment({ state: 'deployed' });
        return;
      }
      const data = await connector.request({ type: 'wallet_deploymentData' });
      setDeployment({ state: 'counterfactual', data: sponsoredDeployment(data) });
    } catch (error) {
      setDeployment({
        state: 'error',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }, [address, chainId, connector, provider]);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return [deployment, refresh];
}

const DEPLOYMENT_TEXT: Record<Deployment['state'], string> = {
  unknown: '-',
  deployed: 'deployed',
  counterfactual: 'not deployed yet: the paymaster deploys it in the same transaction',
  error: 'unknown',
};

/**
 * A transaction whose fee the dapp pays (SNIP-29 `sponsored` mode) through the page's paymaster
 * with its sponsor key: usePaymasterSendTransaction, i.e. starknet.js' executePaymasterTransaction
 * with the wallet's deployment data while the account is not deployed. The wallet signs the
 * outside execution (SNIP-9) that lets the paymaster's relayer run the calls; the account needs
 * no STRK at all.
 */
export function SponsoredPanel({ paymasterUrl }: { paymasterUrl: string }) {
  const { address, chainId } = useAccount();
  const [deployment, refreshDeployment] = useDeployment();
  const [spender, setSpender] = useState('0x' + '5'.repeat(63));
  const [amount, setAmount] = useState('1');
  const calls = useMemo(() => [strkApproveCall(spender, parseStrk(amount))], [spender, amount]);
  const sponsored = usePaymasterSendTransaction({
    calls,
    options: {
      feeMode: SPONSORED_FEE_MODE,
      ...(deployment.state === 'counterfactual' ? { deploymentData: deployment.data } : {}),
    },
  });

  const onSepolia = chainId === sepolia.id;
  return (
    <section className="card panel" data-testid="sr-sponsored-panel">
      <header className="card-head">
        <h2>Sponsored transaction</h2>
        <span className="mono small muted">usePaymasterSendTransaction</span>
      </header>
      <p className="summary">
        The dapp pays the fee through a SNIP-29 paymaster (
        <span className="mono">{paymasterUrl}</span>, sponsored mode): an account with no STRK at
        all is deployed and runs the call. The wallet shows the calls it allows the paymaster&apos;s
        relayer to run.
      </p>
      <dl className="facts">
        <dt>Account</dt>
        <dd data-testid="sr-sponsored-deployment">
          {deployment.state === 'error' ? deployment.message : DEPLOYMENT_TEXT[deployment.state]}
        </dd>
      </dl>
      <label>
        Spender
        <input
          className="mono"
          data-testid="sr-sponsored-spender"
          value={spender}
          onChange={(e) => setSpender(e.target.value)}
        />
      </label>
      <label>
        Allowance (STRK)
        <input
          data-testid="sr-sponsored-amount"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      <button
        type="button"
        className="btn"
        disabled={
          !address ||
          !onSepolia ||
          sponsored.isPending ||
          deployment.state === 'unknown' ||
          deployment.state === 'error'
        }
        onClick={() => sponsored.send()}
      >
        Approve, fee sponsored by the dapp
      </button>
      {!onSepolia && address && (
        <p className="muted small">Sponsored transactions run on the local network (Sepolia).</p>
      )}
      <SentTransaction
        testId="sr-sponsored-result"
        hash={sponsored.data?.transaction_hash}
        error={sponsored.error}
        onReceipt={refreshDeployment}
      />
    </section>
  );
}
