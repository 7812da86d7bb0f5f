import { ResourceNotFoundError } from '@metamask/snaps-sdk';
import { type } from 'superstruct';

import { grantedAccount } from '../flows/grants';
import { getChain } from '../node/chain';
import { readTransactionStatus } from '../node/transactions';
import { defineMethod } from '../rpc/dispatcher';
import { mergeStatus } from '../starknet/status';
import { FeltStruct, OptionalChainIdStruct } from '../starknet/structs';
import { stateStore, transactionsOf, updateTransaction } from '../state';

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
    const isThis = (record: { txnHash: string }): boolean =>
      BigInt(record.txnHash) === BigInt(transactionHash);
    const mapped = await readTransactionStatus(chain.rpc, transactionHash);
    if (!mapped) {
      const state = await stateStore.read();
      const stored = transactionsOf(state, chainId).find(isThis);
      if (stored && grantedAccount(state, origin, stored.senderAddress, chainId)) {
        return stored.status;
      }
      throw new ResourceNotFoundError(
        `Transaction ${transactionHash} is not known on ${chain.network.name}`,
      );
    }
    return stateStore.update((state) => {
      const stored = transactionsOf(state, chainId).find(isThis);
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
