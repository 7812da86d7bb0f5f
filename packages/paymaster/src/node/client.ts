/**
 * The paymaster's only way to the Starknet node: JSON-RPC 0.10 over HTTP with a timeout per call.
 * Two kinds of failure, kept apart because a submission depends on it: the node answered with a
 * JSON-RPC error (NodeRpcError: it refused, nothing happened), or no answer came back
 * (NodeUnavailable: for a submission, it may or may not have been received).
 * The node URL may carry an API key: it never appears in an error or a log.
 */
import { ExchangeFailure, type JsonAnswer, postJson } from '@l2wallet/jsonrpc';

import type { CallJson } from '../protocol/calls';
import type { InvokeV3Json } from '../protocol/transaction';

export class NodeRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly nodeMessage: string,
    readonly data: unknown,
  ) {
    super(`${method}: the node answered ${code} ${nodeMessage}${detail(data)}`);
  }
}

export class NodeUnavailable extends Error {
  constructor(
    readonly method: string,
    why: string,
  ) {
    super(`${method}: the node did not answer (${why})`);
  }
}

function detail(data: unknown): string {
  if (data === undefined || data === null) return '';
  return `: ${typeof data === 'string' ? data : JSON.stringify(data)}`;
}

/** The node's explanation of a failed transaction (revert reason, validation error), as text. */
export function nodeReason(error: NodeRpcError): string {
  const data = error.data as
    { execution_error?: unknown; revert_error?: unknown } | string | undefined;
  if (typeof data === 'string') return `${error.nodeMessage}: ${data}`;
  const inner = data?.execution_error ?? data?.revert_error;
  if (inner !== undefined) {
    return `${error.nodeMessage}: ${typeof inner === 'string' ? inner : JSON.stringify(inner)}`;
  }
  return error.nodeMessage;
}

export type BlockTag = 'latest' | 'pre_confirmed';
export type SimulationFlag = 'SKIP_VALIDATE' | 'SKIP_FEE_CHARGE';

export interface FunctionInvocationJson {
  contract_address: string;
  entry_point_selector: string;
  result: string[];
  calls: FunctionInvocationJson[];
  is_reverted?: boolean;
}

export interface SimulatedTransactionJson {
  transaction_trace: {
    execute_invocation?: FunctionInvocationJson | { revert_reason: string };
  };
  fee_estimation: Record<string, string>;
}

export type TransactionStatusJson = {
  finality_status: string;
  execution_status?: string;
  failure_reason?: string;
};

export interface ReceiptJson {
  execution_status: 'SUCCEEDED' | 'REVERTED';
  finality_status: string;
  actual_fee: { amount: string; unit: string };
  revert_reason?: string;
}

export class StarknetNode {
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** One call; JSON-RPC errors are NodeRpcError, everything else NodeUnavailable. */
  async request<T>(method: string, params: unknown, timeoutMs = this.timeoutMs): Promise<T> {
    let answer: JsonAnswer;
    try {
      answer = await postJson(
        this.url,
        { jsonrpc: '2.0', id: this.nextId++, method, params },
        { timeoutMs },
      );
    } catch (error) {
      if (!(error instanceof ExchangeFailure)) throw error;
      if (error.status !== undefined) {
        throw new NodeUnavailable(method, `HTTP ${error.status} without a JSON-RPC answer`);
      }
      throw new NodeUnavailable(
        method,
        error.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : 'connection failed',
      );
    }
    const body = answer.body as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    } | null;
    if (body?.error && typeof body.error.code === 'number') {
      throw new NodeRpcError(method, body.error.code, String(body.error.message), body.error.data);
    }
    if (!body || !('result' in body)) {
      throw new NodeUnavailable(method, `HTTP ${answer.status} without a JSON-RPC answer`);
    }
    return body.result as T;
  }

  chainId(): Promise<string> {
    return this.request('starknet_chainId', []);
  }

  /** The chain's clock: the timestamp of the block being built (the latest one if unsupported). */
  async blockTimestamp(): Promise<number> {
    try {
      const block = await this.request<{ timestamp: number }>('starknet_getBlockWithTxHashes', {
        block_id: 'pre_confirmed',
      });
      return block.timestamp;
    } catch (error) {
      if (!(error instanceof NodeRpcError)) throw error;
      const block = await this.request<{ timestamp: number }>('starknet_getBlockWithTxHashes', {
        block_id: 'latest',
      });
      return block.timestamp;
    }
  }

  async nonce(address: string, block: BlockTag = 'pre_confirmed'): Promise<bigint> {
    return BigInt(
      await this.request<string>('starknet_getNonce', {
        block_id: block,
        contract_address: address,
      }),
    );
  }

  /** The class hash at `address`, or undefined when nothing is deployed there. */
  async classHashAt(address: string): Promise<bigint | undefined> {
    try {
      return BigInt(
        await this.request<string>('starknet_getClassHashAt', {
          block_id: 'pre_confirmed',
          contract_address: address,
        }),
      );
    } catch (error) {
      if (error instanceof NodeRpcError && error.code === 20) return undefined;
      throw error;
    }
  }

  /** The selectors a declared class exposes, or undefined when the class is not declared. */
  async classEntryPoints(classHash: string): Promise<bigint[] | undefined> {
    try {
      const contractClass = await this.request<{
        entry_points_by_type?: { EXTERNAL?: { selector: string }[] };
      }>('starknet_getClass', { block_id: 'pre_confirmed', class_hash: classHash });
      return (contractClass.entry_points_by_type?.EXTERNAL ?? []).map((e) => BigInt(e.selector));
    } catch (error) {
      if (error instanceof NodeRpcError && error.code === 28) return undefined;
      throw error;
    }
  }

  async call(call: CallJson): Promise<bigint[]> {
    const result = await this.request<string[]>('starknet_call', {
      request: {
        contract_address: call.to,
        entry_point_selector: call.selector,
        calldata: call.calldata,
      },
      block_id: 'pre_confirmed',
    });
    return result.map((value) => BigInt(value));
  }

  estimateFee(transactions: InvokeV3Json[]): Promise<Record<string, string>[]> {
    return this.request('starknet_estimateFee', {
      request: transactions,
      simulation_flags: ['SKIP_VALIDATE'],
      block_id: 'pre_confirmed',
    });
  }

  simulate(
    transactions: InvokeV3Json[],
    flags: SimulationFlag[],
  ): Promise<SimulatedTransactionJson[]> {
    return this.request('starknet_simulateTransactions', {
      block_id: 'pre_confirmed',
      transactions,
      simulation_flags: flags,
    });
  }

  async addInvoke(transaction: InvokeV3Json, timeoutMs?: number): Promise<bigint> {
    const result = await this.request<{ transaction_hash: string }>(
      'starknet_addInvokeTransaction',
      { invoke_transaction: transaction },
      timeoutMs,
    );
    return BigInt(result.transaction_hash);
  }

  /** A transaction's receipt: how it ended and what it cost; undefined while not in a block. */
  async receipt(hash: string): Promise<ReceiptJson | undefined> {
    try {
      return await this.request<ReceiptJson>('starknet_getTransactionReceipt', {
        transaction_hash: hash,
      });
    } catch (error) {
      if (error instanceof NodeRpcError && error.code === 29) return undefined;
      throw error;
    }
  }

  /** The node's status of a transaction, or undefined when the node does not know the hash. */
  async transactionStatus(hash: string): Promise<TransactionStatusJson | undefined> {
    try {
      return await this.request<TransactionStatusJson>('starknet_getTransactionStatus', {
        transaction_hash: hash,
      });
    } catch (error) {
      if (error instanceof NodeRpcError && error.code === 29) return undefined;
      throw error;
    }
  }
}
