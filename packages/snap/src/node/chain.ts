/**
 * Per-network access to the Starknet node: one RpcClient, one PaymasterClient and, when the build
 * names one, one ExplorerClient per network, and the JSON-RPC calls the reads share. Reads that a
 * method needs together go out as one JSON-RPC batch.
 */
import { getNetwork, type Network } from '../starknet/networks';
import { selectorOf } from '../starknet/selectors';
import { RpcClient, type RpcCall } from './client';
import { ExplorerClient } from './explorer';
import { PaymasterClient } from './paymaster';

export type BlockTag = 'latest' | 'pre_confirmed';

export type ChainContext = {
  network: Network;
  rpc: RpcClient;
  /** Only when the build names an explorer: the history comes from the node either way. */
  explorer?: ExplorerClient;
  /** The network's SNIP-29 paymaster, for fees paid in another token than STRK. */
  paymaster: PaymasterClient;
};

const contexts = new Map<string, ChainContext>();

/** The node and explorer of a network the params struct has already accepted. */
export function getChain(chainId: string): ChainContext {
  const network = getNetwork(chainId);
  let context = contexts.get(network.chainId);
  if (!context) {
    context = {
      network,
      rpc: new RpcClient(network.rpcUrl),
      explorer: network.explorerUrl ? new ExplorerClient(network.explorerUrl) : undefined,
      paymaster: new PaymasterClient(network.paymasterUrl),
    };
    contexts.set(network.chainId, context);
  }
  return context;
}

/** Starknet JSON-RPC error codes the snap reads. */
export const CONTRACT_NOT_FOUND = 20;
export const ENTRYPOINT_NOT_FOUND = 21;
export const CLASS_HASH_NOT_FOUND = 28;
export const TXN_HASH_NOT_FOUND = 29;
export const CONTRACT_ERROR = 40;
export const INVALID_NONCE = 52;

export function classHashAtCall(address: string, block: BlockTag = 'pre_confirmed'): RpcCall {
  return {
    method: 'starknet_getClassHashAt',
    params: { block_id: block, contract_address: address },
  };
}

export function nonceCall(address: string, block: BlockTag = 'pre_confirmed'): RpcCall {
  return { method: 'starknet_getNonce', params: { block_id: block, contract_address: address } };
}

export function classCall(classHash: string, block: BlockTag = 'pre_confirmed'): RpcCall {
  return { method: 'starknet_getClass', params: { block_id: block, class_hash: classHash } };
}

export function viewCall(
  contractAddress: string,
  entrypoint: string,
  calldata: readonly string[],
  block: BlockTag = 'latest',
): RpcCall {
  return {
    method: 'starknet_call',
    params: {
      request: {
        contract_address: contractAddress,
        entry_point_selector: selectorOf(entrypoint),
        calldata: [...calldata],
      },
      block_id: block,
    },
  };
}
