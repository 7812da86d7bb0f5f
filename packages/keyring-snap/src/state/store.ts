/**
 * Snap state (snap_manageState, encrypted by MetaMask). Derived accounts keep only their entropy
 * index; an imported key cannot be derived, so it is the one secret kept here.
 */
import type { KeyringAccount } from '@metamask/keyring-api';

import type { ChainConfig } from '../evm/chainConfig';
import type { KeyDomain } from '../keys';
import type { Hex } from '../evm/validation';

/**
 * A derived key without `domain` is an EOA-domain key (keys/). Smart accounts stored before
 * owner keys had their own domain keep theirs, so their address stays; the index counter, shared
 * by both types, never hands their index to an EOA of the same state.
 */
export type KeySource =
  { kind: 'derived'; index: number; domain?: KeyDomain } | { kind: 'imported'; privateKey: Hex };

export type StoredAccount = {
  account: KeyringAccount;
  key: KeySource;
  /** ERC-4337 accounts: a SimpleAccount v0.6 owned by the key. */
  smartAccount?: { owner: Hex; chainId: number; factory: Hex; salt: Hex };
};

export type KeyringState = {
  accounts: Record<string, StoredAccount>;
  nextIndex: number;
  /** Chain configs set with keyring_setChainConfig, by decimal chain id. */
  chains: Record<string, ChainConfig>;
};

const EMPTY: KeyringState = { accounts: {}, nextIndex: 0, chains: {} };

export async function readState(): Promise<KeyringState> {
  const state = await snap.request({ method: 'snap_manageState', params: { operation: 'get' } });
  return { ...EMPTY, ...(state as Partial<KeyringState> | null) };
}

export async function writeState(state: KeyringState): Promise<void> {
  await snap.request({
    method: 'snap_manageState',
    params: { operation: 'update', newState: state as unknown as Record<string, never> },
  });
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs read-modify-write sections one at a time, so two creates never take the same index. */
export function withStateLock<Result>(task: () => Promise<Result>): Promise<Result> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}
