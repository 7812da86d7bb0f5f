import { boolean, defaulted, optional, type } from 'superstruct';

import { invalidParams } from '../errors';
import { rememberAccount } from '../flows/accounts';
import { deployAccount } from '../flows/deploy';
import { recordGrant, requireIndexGrant, reserveNewIndex } from '../flows/grants';
import { deriveAccountKey } from '../keys';
import { defineMethod } from '../rpc/dispatcher';
import { FeeModeStruct } from '../starknet/details';
import { AddressIndexStruct, OptionalChainIdStruct } from '../starknet/structs';
import { stateStore } from '../state';

/**
 * l2_createAccount: derives the account at `addressIndex` (default: a new account, one that no
 * network and no other site uses yet: state/accessors nextNewAddressIndex), stores its record and
 * returns its address. Creating an index that already exists returns the same account and
 * changes nothing.
 *
 * Sites are granted, not assumed (flows/grants.ts): an index the site was not allowed yet is
 * created only after the user approves a dialog naming the site, the address and the networks
 * where the user already has it; the account and the grant are stored together, and a decline
 * (4001) stores nothing. An index the site was granted needs no dialog.
 *
 * `deploy: true` also deploys it (flows/deploy.ts) and returns {address, transaction_hash}; with
 * `details.feeMode: {mode: 'default', gasToken}` the paymaster's relayer deploys it and the fee is
 * paid in that token.
 */
export const createAccount = defineMethod({
  names: ['createAccount'],
  params: type({
    addressIndex: optional(AddressIndexStruct),
    deploy: defaulted(boolean(), false),
    details: optional(type({ feeMode: optional(FeeModeStruct) })),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ addressIndex, deploy, details, chainId }, { origin }) => {
    if (details?.feeMode && !deploy) {
      throw invalidParams('details.feeMode', 'applies only with deploy: true');
    }
    const reserved = addressIndex === undefined ? await reserveNewIndex(origin) : undefined;
    const index = addressIndex ?? (reserved?.addressIndex as number);
    try {
      const key = await deriveAccountKey(index);
      const approved = await requireIndexGrant(origin, {
        kind: 'create',
        chainId,
        accounts: [{ addressIndex: index, address: key.address }],
        isNew: reserved !== undefined,
        deploy,
      });
      if (deploy) {
        if (approved) {
          await stateStore.update((state) => recordGrant(state, origin, [index]));
        }
        return await deployAccount(index, chainId, origin, details?.feeMode);
      }
      const record = await stateStore.update((state) => {
        recordGrant(state, origin, [index]);
        return rememberAccount(state, key, chainId);
      });
      return { address: record.address, addressIndex: record.addressIndex };
    } finally {
      reserved?.release();
    }
  },
});
