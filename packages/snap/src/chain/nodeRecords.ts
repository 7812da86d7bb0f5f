/**
 * SPEC 2.4 transaction records built from the node: each hash the account's events name is
 * resolved in one JSON-RPC batch (transaction + receipt, and the header of every block whose
 * timestamp is not known yet).
 */
import { formatAddress, toHex } from '../rpc/structs';
import { knownEntryPoint } from '../selectors';
import type { TransactionRecord } from '../state';
import type { AccountEvent } from './accountEvents';
import { headerCall, knownTimestamps, stampOf } from './blockWindow';
import { toChainError } from './errors';
import type { RpcCall, RpcClient } from './rpc';
import { mapNodeStatus } from './status';

/** Known entry points by name (src/selectors.ts), any other by its selector. */
function entryPointName(selector: string): string {
  return knownEntryPoint(selector) ?? toHex(selector);
}

type NodeCall = { to: string; selector: string; calldata: string[] };

/** The calls of a Cairo 1 account's __execute__ calldata; [] when it is not that layout. */
export function decodeExecuteCalldata(calldata: readonly string[]): NodeCall[] {
  if (calldata.length === 0) {
    return [];
  }
  const count = Number(BigInt(calldata[0]));
  const calls: NodeCall[] = [];
  let index = 1;
  for (let call = 0; call < count; call += 1) {
    if (index + 3 > calldata.length) {
      return [];
    }
    const length = Number(BigInt(calldata[index + 2]));
    const start = index + 3;
    if (start + length > calldata.length) {
      return [];
    }
    calls.push({
      to: calldata[index],
      selector: calldata[index + 1],
      calldata: calldata.slice(start, start + length),
    });
    index = start + length;
  }
  return index === calldata.length ? calls : [];
}

type NodeTransaction = {
  type?: string;
  sender_address?: string;
  contract_address?: string;
  calldata?: string[];
  constructor_calldata?: string[];
  class_hash?: string;
};

type NodeReceipt = {
  finality_status?: string;
  execution_status?: string;
  revert_reason?: string;
  contract_address?: string;
  block_number?: number;
  events?: unknown[];
};

const TYPES: Record<string, string> = {
  INVOKE: 'invoke',
  DEPLOY_ACCOUNT: 'deploy_account',
  DECLARE: 'declare',
  DEPLOY: 'deploy',
  L1_HANDLER: 'l1_handler',
};

/** One record from the node's transaction and receipt, as the account sees it. */
export function recordFromNode(
  event: AccountEvent,
  tx: NodeTransaction,
  receipt: NodeReceipt,
  timestamp: number,
  account: string,
  chainId: string,
): TransactionRecord {
  const type = (tx.type ?? '').toUpperCase();
  const sender = tx.sender_address ?? receipt.contract_address ?? tx.contract_address ?? '';
  const status = mapNodeStatus({
    finality_status: receipt.finality_status,
    execution_status: receipt.execution_status,
    failure_reason: receipt.revert_reason,
  });
  const record: TransactionRecord = {
    txnHash: toHex(event.transactionHash),
    txnType: TYPES[type] ?? type.toLowerCase(),
    senderAddress: sender ? formatAddress(sender) : '',
    contractAddress: '',
    contractFuncName: '',
    contractCallData: [],
    status: status.status,
    failureReason: status.failureReason,
    eventIds: (receipt.events ?? []).map((_, index) => `${toHex(event.transactionHash)}_${index}`),
    timestamp,
    chainId,
  };
  if (type === 'DEPLOY_ACCOUNT') {
    record.contractAddress = record.senderAddress;
    record.contractCallData = (tx.constructor_calldata ?? []).map(toHex);
  } else if (type === 'DECLARE') {
    record.contractCallData = tx.class_hash ? [toHex(tx.class_hash)] : [];
  } else if (type === 'INVOKE') {
    const calls = decodeExecuteCalldata(tx.calldata ?? []);
    const sentByAccount = sender !== '' && BigInt(sender) === BigInt(account);
    // An incoming transfer shows the token (and the call to it), whatever the sender called first.
    const shown = sentByAccount
      ? calls[0]
      : (calls.find((call) => BigInt(call.to) === BigInt(event.token)) ?? calls[0]);
    if (sentByAccount) {
      record.contractAddress = shown ? formatAddress(shown.to) : '';
      record.contractFuncName = calls.map((call) => entryPointName(call.selector)).join(',');
    } else {
      record.contractAddress = formatAddress(event.token);
      record.contractFuncName = shown ? entryPointName(shown.selector) : '';
    }
    record.contractCallData = (shown?.calldata ?? []).map(toHex);
  }
  return record;
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
