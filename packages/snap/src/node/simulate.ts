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
import {
  describeEndpoint,
  StarknetRpcError,
  type BatchResult,
  type RpcCall,
  type RpcClient,
} from './client';
import { nodeErrorReason, toChainError } from './errors';

export type SimulationAnswer =
  | { simulated: SimulatedTransaction[] }
  /** Why the node could not simulate. */
  | { unavailable: string };

/** Node errors that are the transactions' own: the estimate would fail the same way. */
const TRANSACTION_ERRORS = new Set([41, 52, 53, 54, 55]);

/**
 * The simulation of transactions that run one after another (e.g. deploy then invoke), at
 * pre_confirmed, without charging the fee (the preview shows the most the signed bounds allow)
 * and, with `skipValidate`, without the account's validation (the query transactions are not
 * signed): a call that can ride in another batch.
 */
export function simulationCall(
  transactions: readonly Transaction[],
  skipValidate: boolean,
): RpcCall {
  return {
    method: 'starknet_simulateTransactions',
    params: {
      block_id: 'pre_confirmed',
      transactions: transactions.map((tx) => tx.payload),
      simulation_flags: skipValidate ? ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'] : ['SKIP_FEE_CHARGE'],
    },
  };
}

/** The node's answer to simulationCall of `count` transactions. */
export function readSimulation(answer: BatchResult, count: number, url: string): SimulationAnswer {
  const node = describeEndpoint(url);
  if (!answer.ok) {
    if (!TRANSACTION_ERRORS.has(answer.error.code)) {
      return {
        unavailable: `the node (${node}) did not simulate it: ${nodeErrorReason(answer.error)}`,
      };
    }
    throw toChainError(answer.error, 'Fee estimation');
  }
  const { result } = answer;
  if (!Array.isArray(result) || result.length !== count) {
    return {
      unavailable: `the node (${node}) answered the simulation with the wrong number of entries`,
    };
  }
  try {
    return { simulated: result.map(parseSimulatedTransaction) };
  } catch {
    return { unavailable: `the node (${node}) answered a simulation the snap cannot read` };
  }
}

/** simulationCall in a round trip of its own. */
export async function simulateTransactions(
  rpc: RpcClient,
  transactions: readonly Transaction[],
  skipValidate: boolean,
): Promise<SimulationAnswer> {
  const call = simulationCall(transactions, skipValidate);
  let answer: BatchResult;
  try {
    answer = { ok: true, result: await rpc.request<unknown>(call.method, call.params) };
  } catch (error) {
    if (!(error instanceof StarknetRpcError)) {
      throw toChainError(error, 'Fee estimation');
    }
    answer = { ok: false, error };
  }
  return readSimulation(answer, transactions.length, rpc.url);
}
