import { encodeFunctionData, toHex, type Hex } from 'viem';

import {
  callDataFor,
  DUMMY_SIGNATURE,
  ENTRY_POINT_ABI,
  initCodeFor,
  type GasLimits,
  type Intent,
  type PreparedUserOperation,
} from '../evm/userOperation';
import { rpcBatch, rpcCall, serviceName } from '../node/client';
import { paymasterCall } from '../node/erc7677';
import { show, type ChainConfig } from '../evm/chainConfig';
import { invalidParams, upstreamError } from '../errors';
import {
  asAddress,
  asArray,
  asBytes,
  asRecord,
  onlyKeys,
  optionalQuantity,
} from '../evm/validation';
import { requireSmartAccountChain } from './userOperationInput';
import { PARAMS, type RequestMethod } from './types';

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

/**
 * The bundler's estimate, or null with the reason in the snap's log. v0.6 estimation simulates
 * the prefund: with gas prices above zero a new, empty account fails with "AA21 didn't pay
 * prefund". The draft therefore has zero gas prices (Alto 0.0.20 accepts them and then needs no
 * prefund) and, with a paymaster, the paymaster's stub data, so its validation gas and calldata
 * are part of the estimate. A bundler that still cannot estimate leaves gasLimits to the wallet
 * (they are optional in the Keyring API's EthBaseUserOperation).
 */
async function estimate(chain: ChainConfig, draft: Record<string, Hex>): Promise<GasLimits | null> {
  try {
    const gas = (await rpcCall(
      chain.bundlerUrl,
      'eth_estimateUserOperationGas',
      [draft, chain.entryPoint],
      'bundler',
    )) as Record<string, unknown> | null;
    return {
      callGasLimit: quantity(gas?.callGasLimit, 'callGasLimit'),
      verificationGasLimit: quantity(gas?.verificationGasLimit, 'verificationGasLimit'),
      preVerificationGas: quantity(gas?.preVerificationGas, 'preVerificationGas'),
    };
  } catch (error) {
    console.warn(
      `eth_prepareUserOperation: no gasLimits for ${draft.sender}: ${(error as Error).message}`,
    );
    return null;
  }
}

/**
 * eth_prepareUserOperation [transaction, ...] (the bridge's EthBaseTransaction: to, value,
 * data). Round trips, one after another: the node reads (code, EntryPoint nonce) in one
 * JSON-RPC batch; with a paymaster its stub data; the bundler's estimate with that stub. So 2
 * without a paymaster, 3 with one (the estimate needs the stub). It fails only for bad input or
 * a node that cannot be read; the estimate is best effort.
 */
export const prepareUserOperation: RequestMethod = {
  name: 'eth_prepareUserOperation',
  accountTypes: ['eip155:erc4337'],
  handle: async ({ stored, chain: maybeChain, params }) => {
    const { smartAccount, chain } = requireSmartAccountChain(stored, maybeChain);
    const intents = parseIntents(params);
    const sender = stored.account.address as Hex;
    const [code, nonceWord] = (await rpcBatch(
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
      ],
      'node',
    )) as [Hex, Hex];
    const deployed = typeof code === 'string' && code !== '0x' && code !== '0x0';
    const initCode = deployed
      ? '0x'
      : initCodeFor(smartAccount.factory, smartAccount.owner, smartAccount.salt);
    const callData = callDataFor(intents);
    const nonce = toHex(nonceOf(nonceWord, chain));
    const draft: Record<string, Hex> = {
      sender,
      nonce,
      initCode,
      callData,
      callGasLimit: '0x0',
      verificationGasLimit: '0x0',
      preVerificationGas: '0x0',
      maxFeePerGas: '0x0',
      maxPriorityFeePerGas: '0x0',
      paymasterAndData: '0x',
      signature: DUMMY_SIGNATURE,
    };
    if (chain.paymasterUrl) {
      draft.paymasterAndData = (
        await paymasterCall(chain, 'pm_getPaymasterStubData', draft)
      ).paymasterAndData;
    }
    const gasLimits = await estimate(chain, draft);
    const prepared: PreparedUserOperation = {
      callData,
      initCode,
      nonce,
      ...(gasLimits ? { gasLimits } : {}),
      dummySignature: DUMMY_SIGNATURE,
      dummyPaymasterAndData: draft.paymasterAndData,
      bundlerUrl: chain.bundlerUrl,
    };
    return prepared;
  },
};

/** The EntryPoint's getNonce word; anything else is the node's fault, named by host. */
function nonceOf(word: unknown, chain: ChainConfig): bigint {
  if (typeof word !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/u.test(word)) {
    throw upstreamError(
      serviceName(chain.rpcUrl, 'node'),
      `EntryPoint.getNonce answered ${show(word)}`,
    );
  }
  return BigInt(word);
}

function quantity(value: unknown, name: string): Hex {
  if (
    (typeof value !== 'string' && typeof value !== 'number') ||
    !/^(0x[0-9a-fA-F]+|[0-9]+)$/u.test(String(value))
  ) {
    throw new Error(`eth_estimateUserOperationGas answered no ${name}`);
  }
  return toHex(BigInt(value));
}
