/**
 * Transactions on the node: the status of one hash, and records (docs/interface/snap.md#results)
 * for the transactions an account's history names, each resolved in one JSON-RPC batch (transaction
 * + receipt, and the header of every block whose timestamp is not known yet).
 */
import type { TransactionRecord } from '@l2wallet/starknet-protocol';

import { recordFromNode, type NodeReceipt, type NodeTransaction } from '../starknet/records';
import { mapNodeStatus, type MappedStatus, type NodeTransactionStatus } from '../starknet/status';
import { headerCall, knownTimestamps, stampOf } from './blocks';
import { StarknetRpcError, type RpcCall, type RpcClient } from './client';
import { TXN_HASH_NOT_FOUND } from './chain';
import { toChainError } from './errors';
import type { AccountEvent } from './events';

/**
 * The node's status of a transaction as a record status; undefined when the node does not know the
 * hash.
 */
export async function readTransactionStatus(
  rpc: RpcClient,
  transactionHash: string,
): Promise<MappedStatus | undefined> {
  try {
    return mapNodeStatus(
      await rpc.request<NodeTransactionStatus>('starknet_getTransactionStatus', {
        transaction_hash: transactionHash,
      }),
    );
  } catch (error) {
    if (error instanceof StarknetRpcError && error.code === TXN_HASH_NOT_FOUND) {
      return undefined;
    }
    throw toChainError(error, 'Reading the transaction status');
  }
}

/**
 * Events resolved per JSON-RPC batch: at most 3 calls each (transaction, receipt, block header),
 * which keeps a batch under the size public nodes accept; the batches go out side by side.
 */
export const EVENTS_PER_BATCH = 60;

/** Records for the events' transactions: one round trip. Blocks' timestamps are kept. */
export async function resolveRecords(
  rpc: RpcClient,
  chainId: string,
  account: string,
  events: readonly AccountEvent[],
): Promise<TransactionRecord[]> {
  const groups: AccountEvent[][] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_BATCH) {
    groups.push(events.slice(start, start + EVENTS_PER_BATCH));
  }
  const resolved = await Promise.all(
    groups.map(async (group) => resolveGroup(rpc, chainId, account, group)),
  );
  return resolved.flat();
}

async function resolveGroup(
  rpc: RpcClient,
  chainId: string,
  account: string,
  events: readonly AccountEvent[],
): Promise<TransactionRecord[]> {
  if (events.length === 0) {
    return [];
  }
  const known = knownTimestamps(chainId);
  const missingBlocks = [...new Set(events.map((event) => event.blockNumber))].filter(
    (number) => !known.has(number),
  );
  const calls: RpcCall[] = events.flatMap((event) => [
    {
      method: 'starknet_getTransactionByHash',
      params: { transaction_hash: event.transactionHash },
    },
    {
      method: 'starknet_getTransactionReceipt',
      params: { transaction_hash: event.transactionHash },
    },
  ]);
  calls.push(...missingBlocks.map(headerCall));
  const answers = await rpc.batch(calls);
  for (const answer of answers.slice(events.length * 2)) {
    const stamp = answer.ok ? stampOf(answer.result) : undefined;
    if (stamp) {
      known.set(stamp.number, stamp.timestamp);
    }
  }
  return events.map((event, index) => {
    const [tx, receipt] = [answers[index * 2], answers[index * 2 + 1]];
    if (!tx.ok) {
      throw toChainError(tx.error, 'Reading a transaction of the history');
    }
    if (!receipt.ok) {
      throw toChainError(receipt.error, 'Reading a receipt of the history');
    }
    return recordFromNode(
      event,
      tx.result as NodeTransaction,
      receipt.result as NodeReceipt,
      known.get(event.blockNumber) ?? 0,
      account,
      chainId,
    );
  });
}
