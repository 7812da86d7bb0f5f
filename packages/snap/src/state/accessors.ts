/**
 * Pure helpers over SnapState. Mutating ones are meant to run inside `stateStore.update`.
 */
import { isHexFelt, sameAddress, toHex } from '../starknet/felt';
import { findTokenIn } from '../starknet/tokens';
import {
  defaultTokens,
  type AccountRecord,
  type Erc20Token,
  type SiteGrant,
  type SnapState,
  type StoredToken,
  type TransactionRecord,
} from './schema';

export { findTokenIn };

export function accountsOf(state: SnapState, chainId: string): AccountRecord[] {
  return state.accounts[chainId] ?? [];
}

export function findAccount(
  state: SnapState,
  chainId: string,
  address: string,
): AccountRecord | undefined {
  return accountsOf(state, chainId).find((account) => sameAddress(account.address, address));
}

/**
 * An address is the same on every chain, so a snap account known on one chain is known on all:
 * look on `chainId` first, then anywhere.
 */
export function findOwnAccount(
  state: SnapState,
  chainId: string,
  address: string,
): AccountRecord | undefined {
  return (
    findAccount(state, chainId, address) ??
    Object.values(state.accounts)
      .flat()
      .find((account) => sameAddress(account.address, address))
  );
}

/** Inserts the record, or replaces the one with the same address on that chain. */
export function upsertAccount(state: SnapState, record: AccountRecord): AccountRecord {
  const list = [...accountsOf(state, record.chainId)];
  const index = list.findIndex((account) => sameAddress(account.address, record.address));
  if (index >= 0) {
    list[index] = record;
  } else {
    list.push(record);
  }
  list.sort((a, b) => a.addressIndex - b.addressIndex);
  state.accounts[record.chainId] = list;
  return record;
}

/** The networks (canonical chain IDs) where the snap holds an account at `addressIndex`. */
export function chainsWithAccountAt(state: SnapState, addressIndex: number): string[] {
  return Object.keys(state.accounts).filter((chainId) =>
    accountsOf(state, chainId).some((account) => account.addressIndex === addressIndex),
  );
}

/** The sites other than `origin` that were granted `addressIndex`. */
export function otherSitesGranted(
  state: SnapState,
  origin: string,
  addressIndex: number,
): string[] {
  return Object.values(state.grants)
    .filter((grant) => grant.origin !== origin && grant.addressIndexes.includes(addressIndex))
    .map((grant) => grant.origin);
}

/**
 * THE notion of "a new account" (l2_createAccount and l2_estimateAccountDeployFee without an
 * index): the smallest index that has no account of this snap on any network and that no other
 * site was granted, skipping `reserved` (indexes already offered as new in a pending dialog).
 * An index names the same address on every network, so an index in use anywhere is never new:
 * offering it to another site would hand that site an address the user already uses elsewhere.
 * An index the asking site itself holds but never used is new (nobody else has it).
 */
export function nextNewAddressIndex(
  state: SnapState,
  origin: string,
  reserved: ReadonlySet<number> = new Set(),
): number {
  const inUse = new Set(reserved);
  for (const list of Object.values(state.accounts)) {
    for (const account of list) {
      inUse.add(account.addressIndex);
    }
  }
  for (const grant of Object.values(state.grants)) {
    if (grant.origin !== origin) {
      grant.addressIndexes.forEach((index) => inUse.add(index));
    }
  }
  let index = 0;
  while (inUse.has(index)) {
    index += 1;
  }
  return index;
}

/** The chain's watch list as stored, unchecked entries included (state/schema StoredToken). */
export function watchListOf(state: SnapState, chainId: string): StoredToken[] {
  return state.erc20Tokens[chainId] ?? defaultTokens(chainId);
}

/** The tokens whose symbol and decimals dialogs may use: read from their contracts. */
export function tokensOf(state: SnapState, chainId: string): Erc20Token[] {
  return watchListOf(state, chainId).filter((token) => !token.unchecked);
}

/**
 * Adds the token (its values read from the contract) to the chain's watch list, or replaces the
 * entry with its address, and notes that `origin` added it. Returns the token
 * (docs/interface/snap.md#token).
 */
export function upsertToken(state: SnapState, token: Erc20Token, origin: string): Erc20Token {
  const list = [...watchListOf(state, token.chainId)];
  const index = list.findIndex((known) => sameAddress(known.address, token.address));
  const addedBy = [...(index >= 0 ? (list[index].addedBy ?? []) : [])];
  if (!addedBy.includes(origin)) {
    addedBy.push(origin);
  }
  const stored: StoredToken = { ...token, addedBy };
  if (index >= 0) {
    list[index] = stored;
  } else {
    list.push(stored);
  }
  state.erc20Tokens[token.chainId] = list;
  return token;
}

/** The tokens `origin` added, on every network, for the home page. */
export function tokensAddedBy(state: SnapState, origin: string): StoredToken[] {
  return Object.values(state.erc20Tokens)
    .flat()
    .filter((token) => token.addedBy?.includes(origin));
}

export function transactionsOf(state: SnapState, chainId: string): TransactionRecord[] {
  return state.transactions[chainId] ?? [];
}

/** Adds the record, or merges into the one with the same hash. */
export function upsertTransaction(state: SnapState, record: TransactionRecord): TransactionRecord {
  const list = [...transactionsOf(state, record.chainId)];
  const index = list.findIndex((known) => BigInt(known.txnHash) === BigInt(record.txnHash));
  if (index >= 0) {
    list[index] = { ...list[index], ...record };
  } else {
    list.push(record);
  }
  state.transactions[record.chainId] = list;
  return record;
}

export function updateTransaction(
  state: SnapState,
  chainId: string,
  txnHash: string,
  patch: Partial<Omit<TransactionRecord, 'txnHash' | 'chainId'>>,
): TransactionRecord | undefined {
  const list = transactionsOf(state, chainId);
  const record = list.find((known) => BigInt(known.txnHash) === BigInt(txnHash));
  if (record) {
    Object.assign(record, patch);
  }
  return record;
}

/** The account indexes `origin` may use (empty when the site was never granted any). */
export function grantedIndexes(state: SnapState, origin: string): number[] {
  return state.grants[origin]?.addressIndexes ?? [];
}

/** Adds `indexes` to the site's grant, creating it at `now` (unix seconds) if needed. */
export function grantIndexes(
  state: SnapState,
  origin: string,
  indexes: readonly number[],
  now: number,
): SiteGrant {
  const existing = state.grants[origin];
  const merged = new Set([...(existing?.addressIndexes ?? []), ...indexes]);
  const grant: SiteGrant = {
    origin,
    grantedAt: existing?.grantedAt ?? now,
    addressIndexes: [...merged].sort((a, b) => a - b),
  };
  state.grants[origin] = grant;
  return grant;
}

/** Forgets everything granted to the site. */
export function revokeGrant(state: SnapState, origin: string): boolean {
  if (!state.grants[origin]) {
    return false;
  }
  delete state.grants[origin];
  return true;
}

/** The account nonce kept for `address` on `chainId` (SnapState.accountNonces); junk is none. */
export function keptNonceOf(
  state: SnapState,
  chainId: string,
  address: string,
): bigint | undefined {
  const value: unknown = state.accountNonces?.[chainId]?.[toHex(address)];
  return isHexFelt(value) ? BigInt(value) : undefined;
}

/** Keeps `nonce` as the account's next nonce on `chainId` (SnapState.accountNonces). */
export function keepNonce(state: SnapState, chainId: string, address: string, nonce: bigint): void {
  const chains = state.accountNonces ?? {};
  state.accountNonces = {
    ...chains,
    [chainId]: { ...chains[chainId], [toHex(address)]: toHex(nonce) },
  };
}
