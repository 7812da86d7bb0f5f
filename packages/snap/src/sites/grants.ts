/**
 * Sites are granted, never assumed. A site (origin) may derive, use and list only the account
 * indexes the user allowed it; the first time it asks for an account it lacks, a dialog naming
 * the site asks the user. Declining is 4001 and stores nothing. Grants live in state
 * (`grants`, keyed by origin) and are listed, and revocable, on the snap's home page.
 */
import { getNetwork } from '../networks';
import { userRejected } from '../rpc/errors';
import { grantedIndexes, grantIndexes, stateStore, type SnapState } from '../state';
import { confirm } from '../ui/dialogs';
import { GrantScreen, type GrantRequest } from './GrantScreen';

export { siteName } from './origin';
export type { GrantRequest };

/** The most accounts one call may add to a site's grant (l2_recoverAccounts' maxScanned). */
export const MAX_ACCOUNTS_PER_CALL = 20;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Whether `origin` may already use every index in `indexes`. */
export function isGranted(state: SnapState, origin: string, indexes: readonly number[]): boolean {
  const granted = new Set(grantedIndexes(state, origin));
  return indexes.every((index) => granted.has(index));
}

/** Shows the grant dialog; 4001 when the user declines (nothing is stored either way). */
export async function askGrant(origin: string, request: GrantRequest): Promise<void> {
  const state = await stateStore.read();
  const approved = await confirm(
    origin,
    GrantScreen({
      request,
      network: getNetwork(request.chainId),
      alreadyGranted: grantedIndexes(state, origin),
    }),
  );
  if (!approved) {
    throw userRejected();
  }
}

/** Records, under the state lock, that `origin` may use `indexes`. */
export function recordGrant(state: SnapState, origin: string, indexes: readonly number[]): void {
  grantIndexes(state, origin, indexes, nowSeconds());
}

/**
 * For methods that use one existing account: asks (naming the site and the account) when the
 * site was not granted its index yet, and stores the grant once approved.
 */
export async function requireAccountGrant(
  origin: string,
  account: { addressIndex: number; address: string },
  chainId: string,
): Promise<void> {
  if (isGranted(await stateStore.read(), origin, [account.addressIndex])) {
    return;
  }
  await askGrant(origin, { kind: 'use', chainId, ...account });
  await stateStore.update((state) => recordGrant(state, origin, [account.addressIndex]));
}
