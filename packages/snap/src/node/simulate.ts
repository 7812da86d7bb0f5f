/**
 * starknet_simulateTransactions for the send path's previews (flows/preview.ts): one round trip
 * gives each transaction's fee estimate and its trace, so it replaces the fee estimate.
 *
 * A node that cannot simulate (the method is missing, or it answers an error other than a
 * transaction's own failure) does not stop a send: the answer says why, and the caller falls back
 * to the fee estimate. A transaction the node refuses (41: validation, nonce, balance) is the same
 * error the estimate gives; a node that cannot be reached is too.
 */
import { parseSimulatedTransaction, type SimulatedTransaction } from '../starknet/preview';
import type { Transaction } from '../starknet/transaction';
import { describeEndpoint, StarknetRpcError, type RpcClient } from './client';
import { nodeErrorReason, toChainError } from './errors';

export type SimulationAnswer =
  | { simulated: SimulatedTransaction[] }
  /** Why the node could not simulate. */
  | { unavailable: string };

/** Node errors that are the transactions' own: the estimate would fail the same way. */
const TRANSACTION_ERRORS = new Set([41, 52, 53, 54, 55]);

/**
 * Simulates transactions that run one after another (e.g. deploy then invoke), at pre_confirmed,
 * without charging the fee (the preview shows the most the signed bounds allow) and, with
 * `skipValidate`, without the account's validation (the query transactions are not signed).
 */
export async function simulateTransactions(
  rpc: RpcClient,
  transactions: readonly Transaction[],
  skipValidate: boolean,
): Promise<SimulationAnswer> {
  let result: unknown;
  try {
    result = await rpc.request<unknown>('starknet_simulateTransactions', {
      block_id: 'pre_confirmed',
      transactions: transactions.map((tx) => tx.payload),
      simulation_flags: skipValidate ? ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'] : ['SKIP_FEE_CHARGE'],
    });
  } catch (error) {
    if (error instanceof StarknetRpcError && !TRANSACTION_ERRORS.has(error.code)) {
      return {
        unavailable: `the node (${describeEndpoint(rpc.url)}) did not simulate it: ${nodeErrorReason(error)}`,
      };
    }
    throw toChainError(error, 'Fee estimation');
  }
  if (!Array.isArray(result) || result.length !== transactions.length) {
    return {
      unavailable: `the node (${describeEndpoint(rpc.url)}) answered the simulation with the wrong number of entries`,
    };
  }
  try {
    return { simulated: result.map(parseSimulatedTransaction) };
  } catch {
    return {
      unavailable: `the node (${describeEndpoint(rpc.url)}) answered a simulation the snap cannot read`,
    };
  }
}
