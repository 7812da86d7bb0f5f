import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../flows/accounts';
import { prepareSend } from '../flows/send';
import { getChain } from '../node/chain';
import { defineMethod } from '../rpc/dispatcher';
import { TxDetailsStruct } from '../starknet/details';
import { AddressStruct, CallsStruct, OptionalChainIdStruct } from '../starknet/structs';

/**
 * l2_estimateFee: the fee of `invocations` sent from `address`, planned as l2_executeTxn would
 * send them (flows/send.ts). For an account that is not deployed yet the estimate covers the
 * deployment too and `includeDeploy` is true.
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
    const prepared = await prepareSend(
      getChain(chainId),
      key,
      { kind: 'invoke', calls: invocations },
      details,
      { alwaysEstimate: true },
    );
    return { ...prepared.plan.fee, includeDeploy: prepared.includeDeploy };
  },
});
