import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccountRecord, FeeMode, Network, StarknetSnapClient } from '@l2wallet/client';
import {
  createAccount,
  mergeAccounts,
  nextAccountIndex,
  pickSelected,
  recoverAccounts,
  type Account,
} from '../utils/accounts';

export interface Accounts {
  /** The current network's accounts, in index order. */
  list: Account[];
  /** The address the cards use ('' when none). */
  selected: string;
  nextIndex: number;
  select(address: string): void;
  /**
   * Derives the account at `addressIndex` (default: the next index) and selects it; with
   * `deploy`, deploys it too (its fee paid in a gas token with `feeMode`).
   */
  create(options: { deploy: boolean; addressIndex?: number; feeMode?: FeeMode }): Promise<unknown>;
  /** Runs the recovery scan on the current network; the snap's records. */
  recover(): Promise<AccountRecord[]>;
  /**
   * Lists an account created elsewhere (a method card) on `chainId` (default: the current network).
   */
  add(account: Account, chainId?: string): void;
}

/**
 * The accounts of the snap's current network, read through accounts.ts. Accounts are per
 * network: the ones this page created or found are remembered per chain, with the one selected
 * there, so that switching away and back lists them again (the scan stops at the first index
 * never used). They are scanned again after every read of the network.
 */
export function useAccounts(client: StarknetSnapClient | null, network: Network | null): Accounts {
  const chainId = network?.chainId ?? null;
  const [list, setList] = useState<Account[]>([]);
  const [selected, setSelected] = useState('');
  // Per chain: the accounts listed there so far, and the one selected there last.
  const known = useRef<Record<string, Account[]>>({});
  const selectedOn = useRef<Record<string, string>>({});
  // The chain whose accounts `list` holds: a scan that ends after a switch is not shown.
  const shownChain = useRef<string | null>(null);

  useEffect(() => {
    if (shownChain.current && selected) selectedOn.current[shownChain.current] = selected;
  }, [selected]);

  /** Adds `accounts` to what `chain` lists; shows them when `chain` is the network shown. */
  const show = useCallback((chain: string, accounts: Account[]) => {
    const all = mergeAccounts(known.current[chain] ?? [], accounts);
    known.current[chain] = all;
    if (chain !== shownChain.current) return;
    setList(all);
    setSelected((current) => pickSelected(all, current, selectedOn.current[chain]));
  }, []);

  useEffect(() => {
    if (!client || !chainId) return;
    if (chainId !== shownChain.current) {
      shownChain.current = chainId;
      setSelected('');
      show(chainId, []);
    }
    let cancelled = false;
    recoverAccounts(client, chainId).then(
      ({ accounts }) => !cancelled && show(chainId, accounts),
      () => undefined, // a background scan: the Recover button shows its errors
    );
    return () => {
      cancelled = true;
    };
    // `network` is a new object after every read of the network: scan again after each.
  }, [client, network, chainId, show]);

  const add = useCallback(
    (account: Account, onChain = chainId) => {
      if (!onChain) return;
      known.current[onChain] = mergeAccounts(known.current[onChain] ?? [], [account]);
      if (onChain !== shownChain.current) return;
      setList((old) => mergeAccounts(old, [account]));
      setSelected((current) => current || account.address);
    },
    [chainId],
  );

  const create = useCallback(
    async ({
      deploy,
      addressIndex,
      feeMode,
    }: {
      deploy: boolean;
      addressIndex?: number;
      feeMode?: FeeMode;
    }) => {
      if (!client || !chainId) throw new Error('Connect first');
      const index = addressIndex ?? nextAccountIndex(list);
      const { account, result } = await createAccount(client, {
        addressIndex: index,
        deploy,
        chainId,
        feeMode,
      });
      add(account, chainId);
      setSelected(account.address);
      return result;
    },
    [client, chainId, list, add],
  );

  const recover = useCallback(async () => {
    if (!client || !chainId) throw new Error('Connect first');
    const { records, accounts } = await recoverAccounts(client, chainId);
    show(chainId, accounts);
    return records;
  }, [client, chainId, show]);

  return {
    list,
    selected,
    nextIndex: nextAccountIndex(list),
    select: setSelected,
    create,
    recover,
    add,
  };
}
