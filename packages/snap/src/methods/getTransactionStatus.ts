import { ResourceNotFoundError } from '@metamask/snaps-sdk';
import { type } from 'superstruct';

import { grantedAccount } from '../flows/grants';
import { resolvePending } from '../history/relayed';
import { getChain } from '../node/chain';
import { readTransactionStatus } from '../node/transactions';
import { defineMethod } from '../rpc/dispatcher';
import { mergeStatus } from '../starknet/status';
import { sameAddress } from '../starknet/felt';
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
 *
 * The tracking id of a relayed execution that may have been submitted (what the error of
 * l2_executeTxn named) is resolved through the paymaster to the relayer's transaction first.
 */
export const getTransactionStatus = defineMethod({
  names: ['getTransactionStatus'],
  params: type({ transactionHash: FeltStruct, chainId: OptionalChainIdStruct }),
  handler: async ({ transactionHash: asked, chainId }, { origin }) => {
    const chain = getChain(chainId);
    // A tracking id of a relayed execution that may have been submitted: the relayer's hash.
    const resolved = await resolvePending(chain.network.chainId, (pending) =>
      sameAddress(pending.trackingId, asked),
    );
    const transactionHash = resolved.get(BigInt(asked).toString(16)) ?? asked;
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
