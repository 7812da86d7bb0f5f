import { encodeFunctionData, toHex, type Hex } from 'viem';

import {
  callDataFor,
  DUMMY_SIGNATURE,
  ENTRY_POINT_ABI,
  initCodeFor,
  type Intent,
} from '../chain/userOperation';
import { rpcBatch, rpcCall } from '../chain/rpc';
import { show } from '../config';
import { invalidParams, upstreamError } from '../errors';
import { asAddress, asArray, asBytes, asRecord, onlyKeys, optionalQuantity } from '../validation';
import { requireSmartAccountChain } from './userOperationInput';
import { PARAMS, type RequestMethod } from './types';
import { paymasterCall } from './paymaster';

function parseIntents(params: unknown): Intent[] {
  const list = asArray(params, PARAMS, 1);
  const intents = list.map((raw, index) => {
    const field = `${PARAMS}[${index}]`;
    const intent = asRecord(raw, field);
    onlyKeys(intent, ['to', 'value', 'data'], field);
    if (intent.to === undefined || intent.to === null) {
      throw invalidParams(`${field}.to`, 'is required: a SimpleAccount cannot create contracts');
    }
    return {
      to: asAddress(intent.to, `${field}.to`),
      value: optionalQuantity(intent.value, `${field}.value`) ?? 0n,
      data:
        intent.data === undefined || intent.data === null
          ? '0x'
          : asBytes(intent.data, `${field}.data`),
    } as Intent;
  });
  if (intents.length > 1) {
    intents.forEach((intent, index) => {
      if (intent.value !== 0n) {
        throw invalidParams(
          `${PARAMS}[${index}].value`,
          `must be 0 in a batch: SimpleAccount v0.6 executeBatch carries no ETH values (got ${show(intent.value)})`,
        );
      }
    });
  }
  return intents;
}

type GasEstimate = {
  callGasLimit?: unknown;
  verificationGasLimit?: unknown;
  preVerificationGas?: unknown;
};

/**
 * eth_prepareUserOperation [intent, ...]: the node reads (code, EntryPoint nonce, gas price) go
 * in one JSON-RPC batch; then the bundler's gas estimate and, with a paymaster, its stub data
 * run side by side. Two sequential round trips in all.
 */
export const prepareUserOperation: RequestMethod = {
  name: 'eth_prepareUserOperation',
  accountTypes: ['eip155:erc4337'],
  handle: async ({ stored, chain: maybeChain, params }) => {
    const { smartAccount, chain } = requireSmartAccountChain(stored, maybeChain);
    const intents = parseIntents(params);
    const sender = stored.account.address as Hex;
    const [code, nonceWord, gasPrice] = (await rpcBatch(
      chain.rpcUrl,
      [
        { method: 'eth_getCode', params: [sender, 'latest'] },
        {
          method: 'eth_call',
          params: [
            {
              to: chain.entryPoint,
              data: encodeFunctionData({
                abi: ENTRY_POINT_ABI,
                functionName: 'getNonce',
                args: [sender, 0n],
              }),
            },
            'latest',
          ],
        },
        { method: 'eth_gasPrice', params: [] },
      ],
      'node',
    )) as [Hex, Hex, Hex];
    const deployed = typeof code === 'string' && code !== '0x' && code !== '0x0';
    const initCode = deployed
      ? '0x'
      : initCodeFor(smartAccount.factory, smartAccount.owner, smartAccount.salt);
    const callData = callDataFor(intents);
    const nonce = toHex(BigInt(nonceWord));
    const draft = {
      sender,
      nonce,
      initCode,
      callData,
      callGasLimit: '0x0',
      verificationGasLimit: '0x0',
      preVerificationGas: '0x0',
      maxFeePerGas: toHex(BigInt(gasPrice)),
      maxPriorityFeePerGas: toHex(BigInt(gasPrice)),
      paymasterAndData: '0x',
      signature: DUMMY_SIGNATURE,
    };
    const [estimate, stub] = await Promise.all([
      rpcCall(
        chain.bundlerUrl,
        'eth_estimateUserOperationGas',
        [draft, chain.entryPoint],
        'bundler',
      ),
      chain.paymasterUrl
        ? paymasterCall(chain, 'pm_getPaymasterStubData', draft)
        : Promise.resolve({ paymasterAndData: '0x' as Hex }),
    ]);
    const gas = estimate as GasEstimate;
    const gasLimits = {
      callGasLimit: quantity(gas.callGasLimit, 'callGasLimit'),
      verificationGasLimit: quantity(gas.verificationGasLimit, 'verificationGasLimit'),
      preVerificationGas: quantity(gas.preVerificationGas, 'preVerificationGas'),
    };
    return {
      callData,
      initCode,
      nonce,
      gasLimits,
      dummySignature: DUMMY_SIGNATURE,
      dummyPaymasterAndData: stub.paymasterAndData,
      bundlerUrl: chain.bundlerUrl,
    };
  },
};

function quantity(value: unknown, name: string): Hex {
  if (
    (typeof value !== 'string' && typeof value !== 'number') ||
    !/^(0x[0-9a-fA-F]+|[0-9]+)$/u.test(String(value))
  ) {
    throw upstreamError('bundler', `eth_estimateUserOperationGas answered no ${name}`);
  }
  return toHex(BigInt(value));
}
