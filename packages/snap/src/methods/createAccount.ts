import { boolean, defaulted, optional, type } from 'superstruct';

import { accountRecordFor } from '../accounts';
import { deployAccount } from '../chain/deployAccount';
import { deriveAccountKey } from '../keys';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../rpc/structs';
import { findAccount, nextUnusedAddressIndex, stateStore, upsertAccount } from '../state';

/**
 * l2_createAccount: derives the account at `addressIndex` (default: the smallest index with no
 * account on that chain), stores its record and returns its address. Creating an index that
 * already exists returns the same account and changes nothing.
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
  handler: async ({ addressIndex, deploy, chainId }) => {
    if (deploy) {
      return deployAccount(addressIndex, chainId);
    }
    const record = await stateStore.update(async (state) => {
      const index = addressIndex ?? nextUnusedAddressIndex(state, chainId);
      const key = await deriveAccountKey(index);
      const existing = findAccount(state, chainId, key.address);
      return existing ?? upsertAccount(state, accountRecordFor(key, chainId));
    });
    return { address: record.address, addressIndex: record.addressIndex };
  },
});
