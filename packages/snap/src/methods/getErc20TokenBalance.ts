import { type } from 'superstruct';

import { getChain } from '../node/chain';
import { readTokenBalance } from '../node/tokens';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';

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
  handler: async ({ tokenAddress, userAddress, chainId }) =>
    readTokenBalance(getChain(chainId), tokenAddress, userAddress),
});
