import { signMessage } from 'viem/accounts';

import { userOperationHash } from '../evm/userOperation';
import { invalidParams } from '../errors';
import { asAddress, asArray, sameAddress } from '../evm/validation';
import { PARAMS, type RequestMethod } from './types';
import { parseUserOperation, requireSmartAccountChain } from './userOperationInput';

/**
 * eth_signUserOperation [user operation] (as MetaMask's bridge sends it: the chain is the
 * request's scope, the entry point that chain's) or [user operation, entry point] (checked
 * against the chain's). The owner signs the v0.6 userOpHash as an EIP-191 message, which is
 * what SimpleAccount._validateSignature recovers.
 */
export const signUserOperation: RequestMethod = {
  name: 'eth_signUserOperation',
  accountTypes: ['eip155:erc4337'],
  handle: async ({ stored, chain: maybeChain, params, signingKey }) => {
    const { chain } = requireSmartAccountChain(stored, maybeChain);
    const list = asArray(params, PARAMS, 1);
    if (list.length > 2) {
      throw invalidParams(PARAMS, 'must be [userOperation] or [userOperation, entryPoint]');
    }
    const op = parseUserOperation(list[0], `${PARAMS}[0]`, stored);
    if (list.length === 2) {
      const entryPoint = asAddress(list[1], `${PARAMS}[1]`);
      if (!sameAddress(entryPoint, chain.entryPoint)) {
        throw invalidParams(`${PARAMS}[1]`, `must be the chain's entry point ${chain.entryPoint}`);
      }
    }
    const hash = userOperationHash(op, chain.entryPoint, chain.chainId);
    return signMessage({ message: { raw: hash }, privateKey: await signingKey() });
  },
};
