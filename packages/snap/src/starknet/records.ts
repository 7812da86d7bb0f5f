/**
 * Transaction records (docs/interface/snap.md#transaction-record), all built here with one type
 * map: from what the snap sends (invoke, deploy, declare), from the node's transaction and receipt,
 * and from an explorer item; and one hash known twice merged.
 */
import type { TransactionRecord } from '@l2wallet/starknet-protocol';

import { formatAddress, toHex } from './felt';
import { knownEntryPoint } from './selectors';
import { mapNodeStatus, mergeStatus, type RecordStatus } from './status';
import type { TxCall } from './transaction';

/** Transaction types as node, explorer and records name them. */
const TXN_TYPES: Record<string, string> = {
  INVOKE: 'invoke',
  INVOKE_FUNCTION: 'invoke',
  DEPLOY_ACCOUNT: 'deploy_account',
  DECLARE: 'declare',
  DEPLOY: 'deploy',
  L1_HANDLER: 'l1_handler',
};

function txnType(type: string): string {
  return TXN_TYPES[type.toUpperCase()] ?? type.toLowerCase();
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function sent(
  txHash: string,
  txnType: string,
  senderAddress: string,
  chainId: string,
  fields: Pick<TransactionRecord, 'contractAddress' | 'contractFuncName' | 'contractCallData'>,
): TransactionRecord {
  return {
    txnHash: toHex(txHash),
    txnType,
    senderAddress: formatAddress(senderAddress),
    ...fields,
    status: 'RECEIVED',
    failureReason: null,
    eventIds: [],
    timestamp: nowSeconds(),
    chainId,
  };
}

/** The record of an invoke: its first call names the contract and function; all calls listed. */
export function invokeRecord(
  txHash: string,
  senderAddress: string,
  calls: readonly TxCall[],
  chainId: string,
): TransactionRecord {
  const [first] = calls;
  return sent(txHash, 'invoke', senderAddress, chainId, {
    contractAddress: formatAddress(first.contractAddress),
    contractFuncName: calls.map((call) => call.entrypoint).join(','),
    contractCallData: first.calldata.map(toHex),
  });
}

export function deployRecord(
  txHash: string,
  address: string,
  constructorCalldata: readonly string[],
  chainId: string,
): TransactionRecord {
  return sent(txHash, 'deploy_account', address, chainId, {
    contractAddress: formatAddress(address),
    contractFuncName: '',
    contractCallData: constructorCalldata.map(toHex),
  });
}

export function declareRecord(
  txHash: string,
  senderAddress: string,
  classHash: string,
  chainId: string,
): TransactionRecord {
  return sent(txHash, 'declare', senderAddress, chainId, {
    contractAddress: '',
    contractFuncName: '',
    contractCallData: [classHash],
  });
}

/** Known entry points by name (selectors.ts), any other by its selector. */
function entryPointName(selector: string): string {
  return knownEntryPoint(selector) ?? toHex(selector);
}

type NodeCall = { to: string; selector: string; calldata: string[] };

/**
 * Calls laid out as a Cairo 1 account's __execute__ takes them (a count, then per call its target,
 * selector, calldata length and calldata) from `start`; undefined when they are not.
 */
function decodeCallsAt(
  calldata: readonly string[],
  start: number,
): { calls: NodeCall[]; end: number } | undefined {
  if (start >= calldata.length) {
    return undefined;
  }
  const count = Number(BigInt(calldata[start]));
  const calls: NodeCall[] = [];
  let index = start + 1;
  for (let call = 0; call < count; call += 1) {
    if (index + 3 > calldata.length) {
      return undefined;
    }
    const length = Number(BigInt(calldata[index + 2]));
    const first = index + 3;
    if (first + length > calldata.length) {
      return undefined;
    }
    calls.push({
      to: calldata[index],
      selector: calldata[index + 1],
      calldata: calldata.slice(first, first + length),
    });
    index = first + length;
  }
  return { calls, end: index };
}

/** The calls of a Cairo 1 account's __execute__ calldata; [] when it is not that layout. */
export function decodeExecuteCalldata(calldata: readonly string[]): NodeCall[] {
  const decoded = decodeCallsAt(calldata, 0);
  return decoded && decoded.end === calldata.length ? decoded.calls : [];
}

/** SNIP-9's entry points on the account (both in the known entry points: no hashing here). */
const OUTSIDE_EXECUTION_ENTRY_POINTS = ['execute_from_outside', 'execute_from_outside_v2'];

/**
 * The calls `account` ran through a SNIP-9 outside execution in another account's transaction (a
 * paymaster's relayer): execute_from_outside(_v2) on the account, whose OutsideExecution is the
 * caller, nonce and time bounds, then the calls as __execute__ lays them out. Undefined when the
 * transaction holds none.
 */
function outsideExecutionCalls(calls: NodeCall[], account: string): NodeCall[] | undefined {
  const outside = calls.find(
    (call) =>
      BigInt(call.to) === BigInt(account) &&
      OUTSIDE_EXECUTION_ENTRY_POINTS.includes(knownEntryPoint(call.selector) ?? ''),
  );
  return outside ? decodeCallsAt(outside.calldata, 4)?.calls : undefined;
}

/** A transaction as the node returns it (starknet_getTransactionByHash), in the fields used. */
export type NodeTransaction = {
  type?: string;
  sender_address?: string;
  contract_address?: string;
  calldata?: string[];
  constructor_calldata?: string[];
  class_hash?: string;
};

/** A receipt as the node returns it, in the fields used. */
export type NodeReceipt = {
  finality_status?: string;
  execution_status?: string;
  revert_reason?: string;
  contract_address?: string;
  block_number?: number;
  events?: unknown[];
};

/** Which transaction of the account's history a record describes, and the token that told. */
export type HistoryEntry = { transactionHash: string; token: string };

/** One record from the node's transaction and receipt, as the account sees it. */
export function recordFromNode(
  entry: HistoryEntry,
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
  const txHash = toHex(entry.transactionHash);
  const record: TransactionRecord = {
    txnHash: txHash,
    txnType: txnType(type),
    senderAddress: sender ? formatAddress(sender) : '',
    contractAddress: '',
    contractFuncName: '',
    contractCallData: [],
    status: status.status,
    failureReason: status.failureReason,
    eventIds: (receipt.events ?? []).map((_, index) => `${txHash}_${index}`),
    timestamp,
    chainId,
  };
  if (type === 'DEPLOY_ACCOUNT') {
    record.contractAddress = record.senderAddress;
    record.contractCallData = (tx.constructor_calldata ?? []).map(toHex);
  } else if (type === 'DECLARE') {
    record.contractCallData = tx.class_hash ? [toHex(tx.class_hash)] : [];
  } else if (type === 'INVOKE') {
    const executed = decodeExecuteCalldata(tx.calldata ?? []);
    // Relayed (a paymaster): the account's own calls, signed by it, in another's transaction.
    const relayed = outsideExecutionCalls(executed, account);
    if (relayed) {
      record.senderAddress = formatAddress(account);
    }
    const calls = relayed ?? executed;
    const sentByAccount =
      relayed !== undefined || (sender !== '' && BigInt(sender) === BigInt(account));
    // An incoming transfer shows the token (and the call to it), whatever the sender called first.
    const shown = sentByAccount
      ? calls[0]
      : (calls.find((call) => BigInt(call.to) === BigInt(entry.token)) ?? calls[0]);
    if (sentByAccount) {
      record.contractAddress = shown ? formatAddress(shown.to) : '';
      record.contractFuncName = calls.map((call) => entryPointName(call.selector)).join(',');
    } else {
      record.contractAddress = formatAddress(entry.token);
      record.contractFuncName = shown ? entryPointName(shown.selector) : '';
    }
    record.contractCallData = (shown?.calldata ?? []).map(toHex);
  }
  return record;
}

/** One explorer item, in the fields a transaction record needs (node/explorer.ts parses it). */
export type ExplorerTransaction = {
  hash: string;
  type: string;
  sender: string;
  contract: string;
  entryPoint: string;
  calldata: string[];
  status: string;
  /** SUCCEEDED or REVERTED when the explorer says. */
  executionStatus: string;
  failureReason: string | null;
  /** Unix seconds. */
  timestamp: number;
};

/** Explorer statuses are node statuses; a revert or rejection becomes REJECTED. */
export function recordFromExplorer(item: ExplorerTransaction, chainId: string): TransactionRecord {
  const mapped = mapNodeStatus({
    finality_status: item.status.toUpperCase() === 'PENDING' ? 'PRE_CONFIRMED' : item.status,
    execution_status:
      item.executionStatus || (item.status.toUpperCase() === 'REVERTED' ? 'REVERTED' : undefined),
    failure_reason: item.failureReason ?? undefined,
  });
  return {
    txnHash: toHex(item.hash),
    txnType: txnType(item.type),
    senderAddress: item.sender ? formatAddress(item.sender) : '',
    contractAddress: item.contract ? formatAddress(item.contract) : '',
    contractFuncName: item.entryPoint,
    contractCallData: item.calldata,
    status: mapped.status,
    failureReason: mapped.failureReason,
    eventIds: [],
    timestamp: item.timestamp,
    chainId,
  };
}

/**
 * One hash known twice (stored, then from the node or the explorer): the newer answer's status
 * only advances the known one (mergeStatus: final statuses are sticky, a non-null failureReason
 * is kept for REJECTED). The known record keeps its own timestamp and function name; the newer
 * answer fills what it lacks (an empty field, no event ids).
 */
export function mergeNewerRecord(
  known: TransactionRecord,
  newer: TransactionRecord,
): TransactionRecord {
  const merged = mergeStatus(known, {
    status: newer.status as RecordStatus,
    failureReason: newer.failureReason,
  });
  return {
    ...known,
    ...merged,
    senderAddress: known.senderAddress || newer.senderAddress,
    contractAddress: known.contractAddress || newer.contractAddress,
    contractCallData:
      known.contractCallData.length > 0 ? known.contractCallData : newer.contractCallData,
    eventIds: newer.eventIds.length > 0 ? newer.eventIds : known.eventIds,
    timestamp: known.timestamp || newer.timestamp,
    contractFuncName: known.contractFuncName || newer.contractFuncName,
  };
}
