import { toHex, type Hex } from 'viem';

import { rpcCall, serviceName } from './client';
import type { ChainConfig } from '../evm/chainConfig';
import { upstreamError } from '../errors';

/** ERC-7677 (v0.6 operations): pm_getPaymasterStubData / pm_getPaymasterData. */
export async function paymasterCall(
  chain: ChainConfig,
  method: 'pm_getPaymasterStubData' | 'pm_getPaymasterData',
  userOperation: Record<string, unknown>,
): Promise<{ paymasterAndData: Hex }> {
  const result = (await rpcCall(
    chain.paymasterUrl ?? '',
    method,
    [userOperation, chain.entryPoint, toHex(chain.chainId), {}],
    'paymaster',
  )) as { paymasterAndData?: unknown } | null;
  const data = result?.paymasterAndData;
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{2}){20,}$/u.test(data)) {
    throw upstreamError(
      serviceName(chain.paymasterUrl ?? '', 'paymaster'),
      `${method} answered no paymasterAndData`,
    );
  }
  return { paymasterAndData: data.toLowerCase() as Hex };
}
