import { optional, type } from 'superstruct';

import { planDeploy } from '../chain/account';
import { getChain } from '../node/chain';
import { deriveAccountKey } from '../keys';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../starknet/structs';
import { recordGrant, requireIndexGrant, reserveNewIndex } from '../sites/grants';
import { stateStore } from '../state';

/**
 * l2_estimateAccountDeployFee: the SPEC 2.4 fee estimate of deploying the account at
 * `addressIndex` (default: the new account l2_createAccount would create). Amounts in FRI.
 *
 * The estimate reads the account on chain (and says so when it is deployed already), so the
 * site must hold the index first: an index it does not hold is asked for like any other
 * (sites/grants.ts), and the approved index is granted.
 */
export const estimateAccountDeployFee = defineMethod({
  names: ['estimateAccountDeployFee'],
  params: type({
    addressIndex: optional(AddressIndexStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ addressIndex, chainId }, { origin }) => {
    const reserved = addressIndex === undefined ? await reserveNewIndex(origin) : undefined;
    const index = addressIndex ?? (reserved?.addressIndex as number);
    try {
      const key = await deriveAccountKey(index);
      if (
        await requireIndexGrant(origin, {
          kind: 'use',
          chainId,
          accounts: [{ addressIndex: index, address: key.address }],
          isNew: reserved !== undefined,
        })
      ) {
        await stateStore.update((state) => recordGrant(state, origin, [index]));
      }
      const plan = await planDeploy(getChain(chainId), key);
      return plan.fee;
    } finally {
      reserved?.release();
    }
  },
});
