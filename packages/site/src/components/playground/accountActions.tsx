/**
 * What each account row offers, one small component per action. Each runs in the accounts
 * panel (its busy state, its result view); a new action is one more component here and one
 * line in AccountsPanel's row.
 */
import React from 'react';
import type { FeeMode } from '@l2wallet/client';
import { ETH_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';
import type { Account } from '../../utils/accounts';
import { FUND_ETH, FUND_STRK, usePlayground, type Panel } from '../../hooks';
import { ActionButton } from '../ActionButton';

export interface AccountActionProps {
  account: Account;
  panel: Panel;
}

/**
 * Mints 100 STRK to the account from the local devnet (shown when the devnet serves the network).
 */
export function FundButton({ account, panel }: AccountActionProps) {
  const { devnet, network } = usePlayground();
  if (!devnet.serves(network.current?.chainId)) return null;
  const fund = async () => ({
    funded: account.address,
    amount: `${FUND_STRK} STRK`,
    ...(await devnet.fund(account.address)),
  });
  return (
    <ActionButton
      panel={panel}
      action={`fund-${account.address}`}
      run={fund}
      busyLabel="Funding…"
      className="btn btn-small"
    >
      Fund from devnet
    </ActionButton>
  );
}

/** Sends the account's deploy transaction and tracks it. */
export function DeployButton({ account, panel }: AccountActionProps) {
  const { accounts, network, transactions } = usePlayground();
  const { addressIndex } = account;
  const deploy = async () => {
    const chainId = network.chainId;
    const result = await accounts.create({ deploy: true, addressIndex });
    transactions.trackResult(result, `Deploy account #${addressIndex}`, chainId);
    return result;
  };
  return (
    <ActionButton
      panel={panel}
      action={`deploy-${addressIndex}`}
      run={deploy}
      busyLabel="Deploying…"
      className="btn btn-small"
    >
      Deploy
    </ActionButton>
  );
}

/** The fee paid in ETH through the network's paymaster (the snap's `details.feeMode`). */
const FEE_IN_ETH: FeeMode = { mode: 'default', gasToken: ETH_TOKEN_ADDRESS };

/**
 * "No STRK? Pay the fee in ETH" (shown when the devnet serves the network), one click for the
 * whole path: funds the account with ETH only (1 ETH, no STRK), then deploys it and sends from it
 * with the fee in ETH. The paymaster's relayer submits both and pays their STRK; each is a dialog
 * of the snap, and both are tracked in the transactions panel.
 */
export function PayFeeInEth({ account, panel }: AccountActionProps) {
  const { wallet, devnet, network, accounts, transactions } = usePlayground();
  if (!devnet.serves(network.current?.chainId)) return null;
  const { address, addressIndex } = account;
  const run = async () => {
    if (!wallet.client) throw new Error('Connect first');
    const chainId = network.chainId;
    const funded = await devnet.fundEth(address);
    const deployed = await accounts.create({ deploy: true, addressIndex, feeMode: FEE_IN_ETH });
    transactions.trackResult(deployed, `Deploy account #${addressIndex}, fee in ETH`, chainId);
    const sent = await wallet.client.executeTxn({
      address,
      calls: [
        {
          contractAddress: ETH_TOKEN_ADDRESS,
          entrypoint: 'transfer',
          calldata: [address, '1', '0'],
        },
      ],
      details: { feeMode: FEE_IN_ETH },
      chainId,
    });
    transactions.trackResult(sent, 'Send 1 wei ETH to itself, fee in ETH', chainId);
    return { funded: { amount: `${FUND_ETH} ETH`, ...funded }, deployed, sent };
  };
  return (
    <ActionButton
      panel={panel}
      action={`pay-in-eth-${address}`}
      run={run}
      busyLabel="Paying in ETH…"
      className="btn btn-small"
    >
      No STRK? Pay the fee in ETH
    </ActionButton>
  );
}
