import type { Json } from '@metamask/snaps-sdk';

import { asArray } from '../evm/validation';
import { paymasterCall } from '../node/erc7677';
import { PARAMS, type RequestMethod } from './types';
import { parseUserOperation, requireSmartAccountChain } from './userOperationInput';

/**
 * eth_patchUserOperation [user operation] (as MetaMask's bridge sends it): with a paymaster
 * service, its signed paymasterAndData over the operation as given; without one, `0x`. The gas
 * limits stay: prepare estimated them with the paymaster's stub data, which has the final length.
 */
export const patchUserOperation: RequestMethod = {
  name: 'eth_patchUserOperation',
  accountTypes: ['eip155:erc4337'],
  handle: async ({ stored, chain: maybeChain, params }): Promise<Json> => {
    const { chain } = requireSmartAccountChain(stored, maybeChain);
    const list = asArray(params, PARAMS, 1);
    const op = parseUserOperation(list[0], `${PARAMS}[0]`, stored);
    if (!chain.paymasterUrl) {
      return { paymasterAndData: '0x' };
    }
    const { paymasterAndData } = await paymasterCall(chain, 'pm_getPaymasterData', op);
    return { paymasterAndData };
  },
};
