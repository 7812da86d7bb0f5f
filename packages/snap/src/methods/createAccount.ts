import { boolean, defaulted, optional, type } from 'superstruct';

import { accountRecordFor } from '../accounts';
import { deployAccount } from '../chain/deployAccount';
import { deriveAccountKey } from '../keys';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../rpc/structs';
import { askGrant, isGranted, recordGrant } from '../sites/grants';
import { findAccount, nextUnusedAddressIndex, stateStore, upsertAccount } from '../state';

/**
 * l2_createAccount: derives the account at `addressIndex` (default: the smallest index with no
 * account on that chain), stores its record and returns its address. Creating an index that
 * already exists returns the same account and changes nothing.
 *
 * Sites are granted, not assumed: an index the site was not allowed yet is created only after
 * the user approves a dialog naming the site (sites/grants.ts); the account and the grant are
 * stored together, and a decline (4001) stores nothing. An index the site was granted needs no
 * dialog.
 *
 * `deploy: true` also deploys it (src/chain/deployAccount.ts) and returns
 * {address, transaction_hash}.
 */
export const createAccount = defineMethod({
  names: ['createAccount'],
  params: type({
    addressIndex: optional(AddressIndexStruct),
    deploy: defaulted(boolean(), false),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ addressIndex, deploy, chainId }, { origin }) => {
    const before = await stateStore.read();
    // Without an index, the next free one: if the site already holds it, nothing to ask.
    const nextFree = nextUnusedAddressIndex(before, chainId);
    const granted = isGranted(before, origin, [addressIndex ?? nextFree]);
    const index = addressIndex ?? (granted ? nextFree : undefined);

    if (deploy) {
      const deployIndex = index ?? nextFree;
      if (!granted) {
        const { address } = await deriveAccountKey(deployIndex);
        await askGrant(origin, {
          kind: 'create',
          chainId,
          addressIndex: deployIndex,
          address,
          deploy: true,
        });
        await stateStore.update((state) => recordGrant(state, origin, [deployIndex]));
      }
      return deployAccount(deployIndex, chainId, origin);
    }

    if (!granted) {
      // A named index shows its address; "the next new one" is picked under the lock after the
      // approval, so concurrent requests never get the same index.
      const address = index === undefined ? undefined : (await deriveAccountKey(index)).address;
      await askGrant(origin, { kind: 'create', chainId, addressIndex: index, address, deploy });
    }
    const record = await stateStore.update(async (state) => {
      // Without an index, the next free one now (concurrent requests each get their own): after
      // a grant dialog it is the site's; without a dialog, only if the site already holds it.
      const free = nextUnusedAddressIndex(state, chainId);
      const chosen =
        addressIndex ?? (!granted || isGranted(state, origin, [free]) ? free : nextFree);
      const key = await deriveAccountKey(chosen);
      recordGrant(state, origin, [chosen]);
      const existing = findAccount(state, chainId, key.address);
      return existing ?? upsertAccount(state, accountRecordFor(key, chainId));
    });
    return { address: record.address, addressIndex: record.addressIndex };
  },
});
