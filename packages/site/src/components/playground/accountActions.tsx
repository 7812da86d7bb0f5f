/**
 * What each account row offers, one small component per action. Each runs in the accounts
 * panel (its busy state, its result view); a new action is one more component here and one
 * line in AccountsPanel's row.
 */
import React from 'react';
import type { Account } from '../../accounts';
import { FUND_STRK, usePlayground, type Panel } from '../../hooks';
import { ActionButton } from '../ActionButton';

export interface AccountActionProps {
  account: Account;
  panel: Panel;
}

/** Mints 100 STRK to the account from the local devnet (shown when the devnet serves the network). */
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
