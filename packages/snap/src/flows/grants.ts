/**
 * Sites are granted, never assumed: every rule of what a site (origin) may learn about the user's
 * accounts lives here. A grant is a list of account indexes per site, valid on every network; a
 * method that names an address answers only for an account granted to the site, and any other
 * address, the user's or a stranger's, gets one and the same error before anything is read.
 * The rules and why: docs/architecture/snap.md#grants.
 */
import { invalidParams, userRejected } from '../errors';
import { getNetwork } from '../starknet/networks';
import {
  chainsWithAccountAt,
  findOwnAccount,
  grantedIndexes,
  grantIndexes,
  nextNewAddressIndex,
  otherSitesGranted,
  revokeGrant,
  stateStore,
  type AccountRecord,
  type SnapState,
} from '../state';
import { confirm, GrantScreen, siteName, type GrantRequest, type ShownAccount } from '../ui';

export type { GrantRequest };

/** The most accounts one call may add to a site's grant (l2_recoverAccounts' maxScanned). */
export const MAX_ACCOUNTS_PER_CALL = 20;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Whether `origin` may already use every index in `indexes`. */
export function isGranted(state: SnapState, origin: string, indexes: readonly number[]): boolean {
  const granted = new Set(grantedIndexes(state, origin));
  return indexes.every((index) => granted.has(index));
}

/**
 * The snap's account at `address` when `origin` was granted its index; undefined for every other
 * address, whether a stranger's or one of the user's that the site was not granted (callers must
 * treat both alike). The record of `chainId` when there is one, else the account's record on
 * another network (the address is the same).
 */
export function grantedAccount(
  state: SnapState,
  origin: string,
  address: string,
  chainId: string,
): AccountRecord | undefined {
  const account = findOwnAccount(state, chainId, address);
  return account && isGranted(state, origin, [account.addressIndex]) ? account : undefined;
}

/**
 * The one answer for an address the site may not use. It names the field only: never the
 * address, never whether it belongs to the snap.
 */
export function notGranted(field: string): Error {
  return invalidParams(
    field,
    'is not an account of this snap that this site may use: a site gets an account with l2_createAccount or l2_recoverAccounts, which ask the user',
  );
}

/** THE grant check of every method that names an account by address. */
export async function requireGrantedAccount(
  origin: string,
  address: string,
  chainId: string,
  field: string,
): Promise<AccountRecord> {
  const account = grantedAccount(await stateStore.read(), origin, address, chainId);
  if (!account) {
    throw notGranted(field);
  }
  return account;
}

/** What the dialog shows of each account: where the user already uses it, and who else may. */
function describeAccounts(
  state: SnapState,
  origin: string,
  accounts: readonly { addressIndex: number; address: string }[],
): ShownAccount[] {
  return accounts.map((account) => ({
    ...account,
    networks: chainsWithAccountAt(state, account.addressIndex).map(
      (chainId) => getNetwork(chainId).name,
    ),
    otherSites: otherSitesGranted(state, origin, account.addressIndex).map(siteName),
  }));
}

function indexesOf(request: GrantRequest): number[] {
  return request.accounts.map((account) => account.addressIndex);
}

/**
 * Asks the user, unless the site holds every index of the request already. Resolves to true when
 * the user approved a new grant (the caller stores it with what it creates, recordGrant), false
 * when nothing had to be asked; 4001 when the user declines (nothing is stored either way).
 */
export async function requireIndexGrant(origin: string, request: GrantRequest): Promise<boolean> {
  const state = await stateStore.read();
  if (isGranted(state, origin, indexesOf(request))) {
    return false;
  }
  const approved = await confirm(
    origin,
    GrantScreen({
      request,
      network: getNetwork(request.chainId),
      accounts: describeAccounts(state, origin, request.accounts),
      alreadyGranted: grantedIndexes(state, origin),
    }),
  );
  if (!approved) {
    throw userRejected();
  }
  return true;
}

/** Records, under the state lock, that `origin` may use `indexes`. */
export function recordGrant(state: SnapState, origin: string, indexes: readonly number[]): void {
  grantIndexes(state, origin, indexes, nowSeconds());
}

/** Indexes offered as new in a dialog still open: concurrent requests are offered others. */
const reservedNewIndexes = new Set<number>();

/**
 * The index "a new account" means for this request (state/accessors nextNewAddressIndex), kept
 * from every other request until `release`: the dialog shows the address that is then granted,
 * and two sites asking at once are never offered the same one.
 */
export async function reserveNewIndex(
  origin: string,
): Promise<{ addressIndex: number; release: () => void }> {
  const addressIndex = await stateStore.inspect((state) => {
    const index = nextNewAddressIndex(state, origin, reservedNewIndexes);
    reservedNewIndexes.add(index);
    return index;
  });
  return { addressIndex, release: () => reservedNewIndexes.delete(addressIndex) };
}

/** The home page's Revoke button: the site's grant is removed, on every network. */
export async function revokeSite(origin: string): Promise<void> {
  await stateStore.update((state) => revokeGrant(state, origin));
}
