import React from 'react';
import { usePanel, usePlayground } from '../../hooks';
import { short } from '../../utils/outcome';
import { ActionButton } from '../ActionButton';
import { CopyButton, ResultView } from '../ResultView';
import { DeployButton, FundButton, PayFeeInEth } from './accountActions';

/** The current network's accounts: create, recover, pick the one the cards use, and act on each. */
export function AccountsPanel() {
  const { wallet, accounts } = usePlayground();
  const panel = usePanel();
  const connected = wallet.client !== null;
  return (
    <section className="card panel" data-testid="accounts-panel">
      <header className="card-head">
        <h2>Accounts</h2>
        <div className="row">
          <ActionButton
            panel={panel}
            action="create"
            run={() => accounts.create({ deploy: false })}
            busyLabel="Waiting…"
            disabled={!connected}
            className="btn btn-primary"
          >
            Create account
          </ActionButton>
          <ActionButton panel={panel} action="recover" run={accounts.recover} disabled={!connected}>
            Recover accounts
          </ActionButton>
        </div>
      </header>
      {accounts.list.length === 0 ? (
        <p className="muted">{connected ? 'No accounts yet: create one.' : 'Connect first.'}</p>
      ) : (
        <ul className="accounts">
          {accounts.list.map((account) => (
            <li
              key={account.address}
              className={account.address === accounts.selected ? 'account selected' : 'account'}
              data-testid="account-row"
            >
              <label className="account-pick">
                <input
                  type="radio"
                  name="account"
                  checked={account.address === accounts.selected}
                  onChange={() => accounts.select(account.address)}
                />
                <span className="muted">#{account.addressIndex}</span>
                <span className="mono" title={account.address}>
                  {short(account.address, 8)}
                </span>
              </label>
              <CopyButton text={account.address} label="Copy address" />
              <FundButton account={account} panel={panel} />
              <DeployButton account={account} panel={panel} />
              <PayFeeInEth account={account} panel={panel} />
            </li>
          ))}
        </ul>
      )}
      <ResultView outcome={panel.outcome} testId="account-result" />
    </section>
  );
}
