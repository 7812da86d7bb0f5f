/**
 * Fee estimates and submissions: the node's side of the one send path (flows/send.ts).
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import { parseFeeEstimate, type FeeEstimate } from '../starknet/fees';
import type { Transaction } from '../starknet/transaction';
import { describeEndpoint, unavailability, type RpcClient } from './client';
import { toChainError } from './errors';

/** Estimates transactions that run one after another (e.g. deploy then invoke): one round trip. */
export async function estimateTransactions(
  rpc: RpcClient,
  transactions: readonly Transaction[],
  skipValidate: boolean,
): Promise<FeeEstimate[]> {
  try {
    const result = await rpc.request<unknown[]>('starknet_estimateFee', {
      request: transactions.map((tx) => tx.payload),
      simulation_flags: skipValidate ? ['SKIP_VALIDATE'] : [],
      block_id: 'pre_confirmed',
    });
    if (!Array.isArray(result) || result.length !== transactions.length) {
      throw new Error('The node answered the fee estimate with the wrong number of entries');
    }
    return result.map(parseFeeEstimate);
  } catch (error) {
    throw toChainError(error, 'Fee estimation');
  }
}

const SUBMIT: Record<string, { method: string; param: string }> = {
  INVOKE: { method: 'starknet_addInvokeTransaction', param: 'invoke_transaction' },
  DEPLOY_ACCOUNT: {
    method: 'starknet_addDeployAccountTransaction',
    param: 'deploy_account_transaction',
  },
  DECLARE: { method: 'starknet_addDeclareTransaction', param: 'declare_transaction' },
};

/** Sends a signed transaction; returns the hash the node reports. */
export async function submitTransaction(
  rpc: RpcClient,
  signed: Transaction,
  action: string,
): Promise<string> {
  const { method, param } = SUBMIT[String(signed.payload.type)];
  try {
    const result = await rpc.request<{ transaction_hash: string }>(method, {
      [param]: signed.payload,
    });
    return result.transaction_hash;
  } catch (error) {
    const { unavailable, timedOut, retryable } = unavailability(error);
    if (unavailable && !timedOut && !retryable) {
      // The node refused the request (e.g. HTTP 401): the transaction was not taken.
      throw error;
    }
    if (unavailable && timedOut) {
      // The request went out; the node may have taken the transaction. A blind retry could
      // send it twice, so the caller gets the hash to check first.
      throw new ResourceUnavailableError(
        `${action}: the Starknet node (${describeEndpoint(rpc.url)}) did not answer in time after the transaction was sent, so it may have been accepted. Check l2_getTransactionStatus for ${signed.hash} before sending it again.`,
        { retryable: false, timedOut: true, transactionHash: signed.hash },
      );
    }
    if (unavailable) {
      throw new ResourceUnavailableError(
        `${action}: the Starknet node (${describeEndpoint(rpc.url)}) could not be reached, so the transaction was not sent. Nothing was changed in the snap; try again when the node is reachable.`,
        { retryable: true, transactionHash: signed.hash },
      );
    }
    throw toChainError(error, action);
  }
}
