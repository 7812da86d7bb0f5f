import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { planInvoke } from '../chain/account';
import { ChainTxDetailsStruct } from '../chain/details';
import { getChain } from '../chain/node';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../rpc/structs';
import { CallsStruct } from '../transactions/calls';

/**
 * l2_estimateFee: the fee of `invocations` sent from `address`. For an account that is not
 * deployed yet the estimate covers the deployment too and `includeDeploy` is true.
 */
export const estimateFee = defineMethod({
  names: ['estimateFee'],
  params: type({
    address: AddressStruct,
    invocations: CallsStruct,
    details: optional(ChainTxDetailsStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ address, invocations, details, chainId }, { origin }) => {
    const key = await requireOwnAccountKey(address, chainId, 'address', origin);
    const plan = await planInvoke(getChain(chainId), key, invocations, details, true);
    return { ...plan.fee, includeDeploy: plan.includeDeploy };
  },
});
