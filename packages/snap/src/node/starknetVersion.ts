/**
 * The Starknet version a network runs, as its node reports it in the latest block's header
 * (`starknet_version`). A declaration's compiled class hash depends on it: Blake2s over the
 * CASM from Starknet 0.14.1 on, Poseidon before.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import type { RpcClient } from './client';
import { toChainError } from './errors';

export async function nodeStarknetVersion(rpc: RpcClient): Promise<string> {
  let header: { starknet_version?: unknown } | null;
  try {
    header = await rpc.request('starknet_getBlockWithTxHashes', { block_id: 'latest' });
  } catch (error) {
    throw toChainError(error, "Reading the network's Starknet version");
  }
  const version = header?.starknet_version;
  // Mainnet has reported three and four part versions (0.13.2.1): the first three decide.
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(\.\d+)?$/u.test(version)) {
    throw new ResourceUnavailableError(
      'The Starknet node did not report a Starknet version in its latest block, so the compiled class hash it expects is unknown: pass compiledClassHash.',
      { retryable: false },
    );
  }
  return version;
}
