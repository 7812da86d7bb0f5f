import type { Json } from '@metamask/snaps-sdk';
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
 * deployment too and `includeDeploy` is true. With `details.feeMode` it is the paymaster's: the
 * usual fields in FRI, plus `overallFeeInGasToken` and `suggestedMaxFeeInGasToken` (base-10, the
 * token's smallest unit; the latter is the most the account would sign to pay) and `gasToken`.
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
    if (prepared.route === 'v3') {
      return { ...prepared.plan.fee, includeDeploy: prepared.includeDeploy } as Json;
    }
    // Relayed: the paymaster's estimate in STRK (FRI) and in the gas token.
    const { fee } = prepared.built;
    return {
      suggestedMaxFee: fee.suggestedMaxFeeInStrk.toString(10),
      overallFee: fee.estimatedFeeInStrk.toString(10),
      gasConsumed: '0',
      gasPrice: '0',
      unit: 'wei',
      includeDeploy: prepared.includeDeploy,
      overallFeeInGasToken: fee.estimatedFeeInGasToken.toString(10),
      suggestedMaxFeeInGasToken: prepared.fee.amount.toString(10),
      gasToken: prepared.feeMode.gasToken,
    };
  },
});
