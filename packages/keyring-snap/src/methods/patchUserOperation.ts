import type { Json } from '@metamask/snaps-sdk';
import { toHex, type Hex } from 'viem';

import { asArray } from '../validation';
import { paymasterCall } from './paymaster';
import { PARAMS, type RequestMethod } from './types';
import { parseUserOperation, requireSmartAccountChain } from './userOperationInput';

/** Gas a VerifyingPaymaster v0.6 adds to validation (its hash and ecrecover), with margin. */
export const PAYMASTER_VERIFICATION_GAS = 60_000n;

/** Calldata gas of paymasterAndData at 16 per byte (the bundler estimated without it). */
function calldataGas(data: Hex): bigint {
  let gas = 0n;
  for (let index = 2; index < data.length; index += 2) {
    gas += 16n;
  }
  return gas;
}

/**
 * eth_patchUserOperation [user operation]: with a paymaster service, the limits the paymaster
 * changes (its validation gas and its calldata) and then its signed paymasterAndData over the
 * operation with those limits; without one, `0x`.
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
    const stub = await paymasterCall(chain, 'pm_getPaymasterStubData', op);
    const verificationGasLimit = toHex(
      BigInt(op.verificationGasLimit) + PAYMASTER_VERIFICATION_GAS,
    );
    const preVerificationGas = toHex(
      BigInt(op.preVerificationGas) + calldataGas(stub.paymasterAndData) + 1_000n,
    );
    const { paymasterAndData } = await paymasterCall(chain, 'pm_getPaymasterData', {
      ...op,
      verificationGasLimit,
      preVerificationGas,
    });
    return { paymasterAndData, verificationGasLimit, preVerificationGas };
  },
};
