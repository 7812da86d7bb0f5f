import { type } from 'superstruct';

import { u256Answer } from '../chain/answers';
import { toChainError } from '../chain/errors';
import { getChain, viewCall } from '../chain/node';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct, toHex } from '../rpc/structs';

/**
 * l2_getErc20TokenBalance: `balanceLatest` from the latest block and `balancePending` from
 * pre_confirmed, both u256 as hex; both reads go out in one batch.
 */
export const getErc20TokenBalance = defineMethod({
  names: ['getErc20TokenBalance'],
  params: type({
    tokenAddress: AddressStruct,
    userAddress: AddressStruct,
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ tokenAddress, userAddress, chainId }) => {
    const chain = getChain(chainId);
    const [latest, pending] = await chain.rpc.batch<string[]>([
      viewCall(tokenAddress, 'balance_of', [userAddress], 'latest'),
      viewCall(tokenAddress, 'balance_of', [userAddress], 'pre_confirmed'),
    ]);
    if (!latest.ok) {
      throw toChainError(latest.error, 'Reading the token balance');
    }
    if (!pending.ok) {
      throw toChainError(pending.error, 'Reading the pending token balance');
    }
    return {
      balancePending: toHex(u256Answer(pending.result, 'a token balance')),
      balanceLatest: toHex(u256Answer(latest.result, 'a token balance')),
    };
  },
});
