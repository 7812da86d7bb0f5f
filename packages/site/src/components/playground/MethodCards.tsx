import React, { useCallback, useMemo, useState } from 'react';
import { accountFromResult } from '../../utils/accounts';
import { usePlayground } from '../../hooks';
import { type DefaultsContext, type MethodSpec } from '../../utils/methodForm';
import { METHODS } from '../../utils/methods';
import { MethodCard } from './MethodCard';

const GROUPS: MethodSpec['group'][] = ['Accounts', 'Network', 'Signing', 'Transactions', 'Tokens'];

/**
 * A card per snap method, by group, with forms pre-filled from the page (the selected account,
 * the network, the last signature and transaction); what a card's call changes, the page follows.
 */
export function MethodCards() {
  const { wallet, network, accounts, transactions } = usePlayground();
  const [lastSignature, setLastSignature] = useState('');
  const { add: addAccount } = accounts;
  const { reload: reloadNetwork, chainId: currentChainId } = network;
  const { trackResult } = transactions;

  const onResult = useCallback(
    (method: string, params: Record<string, unknown> | undefined, result: unknown) => {
      // Sent on the chain the params name, else on the network current at the call.
      const chainId =
        typeof params?.chainId === 'string' && params.chainId ? params.chainId : currentChainId;
      if (method === 'l2_signMessage')
        setLastSignature(Array.isArray(result) ? result.join(',') : String(result));
      if (method === 'l2_createAccount') {
        const account = accountFromResult(params, result);
        if (account) addAccount(account, chainId);
      }
      if (method === 'l2_switchNetwork') void reloadNetwork();
      trackResult(result, method.replace(/^l2_/, ''), chainId);
    },
    [currentChainId, addAccount, reloadNetwork, trackResult],
  );

  // Depend only on what the defaults use: the transaction list is a new array after every status
  // poll, and a new defaults object would refill every card's form.
  const { selected, nextIndex } = accounts;
  const lastTxHash = transactions.lastHash;
  const defaults: DefaultsContext = useMemo(
    () => ({ address: selected, nextIndex, chainId: currentChainId, lastSignature, lastTxHash }),
    [selected, nextIndex, currentChainId, lastSignature, lastTxHash],
  );

  return (
    <>
      {GROUPS.map((group) => (
        <section key={group} className="group">
          <h2 className="group-title">{group}</h2>
          <div className="cards">
            {METHODS.filter((m) => m.group === group).map((spec) => (
              <MethodCard
                key={spec.method}
                spec={spec}
                client={wallet.client}
                defaults={defaults}
                onResult={onResult}
              />
            ))}
          </div>
        </section>
      ))}
    </>
  );
}
