import { optional, type } from 'superstruct';

import { planDeploy } from '../chain/account';
import { getChain } from '../chain/node';
import { deriveAccountKey } from '../keys';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../rpc/structs';
import { nextUnusedAddressIndex, stateStore } from '../state';

/**
 * l2_estimateAccountDeployFee: the SPEC 2.4 fee estimate of deploying the account at
 * `addressIndex` (default: the index l2_createAccount would use next). Amounts in FRI.
 */
export const estimateAccountDeployFee = defineMethod({
  names: ['estimateAccountDeployFee'],
  params: type({
    addressIndex: optional(AddressIndexStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ addressIndex, chainId }) => {
    const index = addressIndex ?? nextUnusedAddressIndex(await stateStore.read(), chainId);
    const key = await deriveAccountKey(index);
    const plan = await planDeploy(getChain(chainId), key);
    return plan.fee;
  },
});
