import { ResourceNotFoundError } from '@metamask/snaps-sdk';
import { type } from 'superstruct';

import { toChainError } from '../node/errors';
import { getChain } from '../node/chain';
import { StarknetRpcError } from '../node/client';
import { mapNodeStatus, mergeStatus, type NodeTransactionStatus } from '../starknet/status';
import { defineMethod } from '../rpc/dispatcher';
import { FeltStruct, OptionalChainIdStruct } from '../starknet/structs';
import { grantedAccount } from '../sites/grants';
import { stateStore, transactionsOf, updateTransaction } from '../state';

const TXN_HASH_NOT_FOUND = 29;

/**
 * l2_getTransactionStatus: asks the node, maps finality and execution status to the record
 * status (RECEIVED, PENDING, ACCEPTED_ON_L2, REJECTED with failureReason), updates the stored
 * record when there is one, and returns the status.
 *
 * What snap state knows of a transaction (a record the node never saw, a final status) answers
 * only when its sender is an account granted to the asking site; for any other hash the answer
 * is the node's alone, whether or not the snap holds a record of it.
 */
export const getTransactionStatus = defineMethod({
  names: ['getTransactionStatus'],
  params: type({ transactionHash: FeltStruct, chainId: OptionalChainIdStruct }),
  handler: async ({ transactionHash, chainId }, { origin }) => {
    const chain = getChain(chainId);
    let node: NodeTransactionStatus;
    try {
      node = await chain.rpc.request<NodeTransactionStatus>('starknet_getTransactionStatus', {
        transaction_hash: transactionHash,
      });
    } catch (error) {
      if (error instanceof StarknetRpcError && error.code === TXN_HASH_NOT_FOUND) {
        const state = await stateStore.read();
        const stored = transactionsOf(state, chainId).find(
          (record) => BigInt(record.txnHash) === BigInt(transactionHash),
        );
        if (stored && grantedAccount(state, origin, stored.senderAddress, chainId)) {
          return stored.status;
        }
        throw new ResourceNotFoundError(
          `Transaction ${transactionHash} is not known on ${chain.network.name}`,
        );
      }
      throw toChainError(error, 'Reading the transaction status');
    }
    const mapped = mapNodeStatus(node);
    return stateStore.update((state) => {
      const stored = transactionsOf(state, chainId).find(
        (record) => BigInt(record.txnHash) === BigInt(transactionHash),
      );
      if (!stored) {
        return mapped.status;
      }
      const merged = mergeStatus(stored, mapped);
      updateTransaction(state, chainId, transactionHash, merged);
      return grantedAccount(state, origin, stored.senderAddress, chainId)
        ? merged.status
        : mapped.status;
    });
  },
});
