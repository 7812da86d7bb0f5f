import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { planInvoke } from '../chain/account';
import { TxDetailsStruct } from '../starknet/details';
import { getChain } from '../node/chain';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';
import { CallsStruct } from '../starknet/structs';

/**
 * l2_estimateFee: the fee of `invocations` sent from `address`. For an account that is not
 * deployed yet the estimate covers the deployment too and `includeDeploy` is true.
 */
export const estimateFee = defineMethod({
  names: ['estimateFee'],
  params: type({
    address: AddressStruct,
    invocations: CallsStruct,
    details: optional(TxDetailsStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ address, invocations, details, chainId }, { origin }) => {
    const key = await requireOwnAccountKey(address, chainId, 'address', origin);
    const plan = await planInvoke(getChain(chainId), key, invocations, details, true);
    return { ...plan.fee, includeDeploy: plan.includeDeploy };
  },
});
