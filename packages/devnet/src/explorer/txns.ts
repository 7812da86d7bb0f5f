import type { TransactionRecord } from '../core/blocks';
import type { Devnet } from '../core/devnet';
import { Felt, parseFelt, toHex } from '../core/felt';

export const PAGE_SIZES = [10, 25, 50] as const;

export interface ExplorerCall {
  contract: string;
  entrypoint: string;
  selector: string;
  calldata: string[];
}

export interface ExplorerTransaction {
  hash: string;
  type: 'INVOKE' | 'DEPLOY_ACCOUNT' | 'DECLARE' | 'L1_HANDLER';
  sender: string;
  /**
   * The contract called (first call of a multicall), the deployed account, or null for a declare.
   */
  contract: string | null;
  /** Entry point name of that call ('constructor' for a deployment, null for a declare). */
  entrypoint: string | null;
  calls: ExplorerCall[];
  /** The transaction's own calldata (constructor calldata for a deployment). */
  calldata: string[];
  nonce: string;
  status: 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1';
  executionStatus: 'SUCCEEDED' | 'REVERTED';
  failureReason: string | null;
  actualFee: string;
  /** WEI for an L1 handler (its fee was paid on L1). */
  feeUnit: 'FRI' | 'WEI';
  blockNumber: number;
  timestamp: number;
}

export interface ExplorerPage {
  items: ExplorerTransaction[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export class ExplorerQueryError extends Error {}

function touches(record: TransactionRecord, address: Felt): boolean {
  const { tx } = record;
  if (tx.type === 'L1_HANDLER') return tx.contractAddress === address;
  if (tx.senderAddress === address) return true;
  return record.calls.some((call) => call.to === address);
}

function entrypointName(
  devnet: Devnet,
  record: TransactionRecord,
  to: Felt,
  selector: Felt,
): string {
  const reader = devnet.state.at(record.blockNumber);
  const classHash = reader.classHashAt(to);
  return devnet.classes.entryPointName(classHash, selector) ?? toHex(selector);
}

function describe(devnet: Devnet, record: TransactionRecord): ExplorerTransaction {
  const { tx } = record;
  const calls = record.calls.map((call) => ({
    contract: toHex(call.to),
    entrypoint: entrypointName(devnet, record, call.to, call.selector),
    selector: toHex(call.selector),
    calldata: call.calldata.map((f) => toHex(f)),
  }));
  let contract: string | null = calls[0]?.contract ?? null;
  let entrypoint: string | null = calls[0]?.entrypoint ?? null;
  let calldata: Felt[] = [];
  if (tx.type === 'INVOKE') calldata = tx.calldata;
  if (tx.type === 'DEPLOY_ACCOUNT') {
    contract = toHex(tx.senderAddress);
    entrypoint = 'constructor';
    calldata = tx.constructorCalldata;
  }
  if (tx.type === 'DECLARE') calldata = [tx.classHash];
  if (tx.type === 'L1_HANDLER') {
    contract = toHex(tx.contractAddress);
    entrypoint = entrypointName(devnet, record, tx.contractAddress, tx.entryPointSelector);
    calldata = tx.calldata;
  }
  return {
    hash: toHex(record.hash),
    type: tx.type,
    // An L1 handler's sender is the L1 contract that sent the message.
    sender: toHex(tx.type === 'L1_HANDLER' ? tx.message.l1ContractAddress : tx.senderAddress),
    contract,
    entrypoint,
    calls,
    calldata: calldata.map((f) => toHex(f)),
    nonce: toHex(tx.nonce),
    status: devnet.finalityOf(record),
    executionStatus: record.executionStatus,
    failureReason: record.revertReason ?? null,
    actualFee: toHex(record.actualFee),
    feeUnit: tx.type === 'L1_HANDLER' ? 'WEI' : 'FRI',
    blockNumber: record.blockNumber,
    timestamp: devnet.blockOf(record).timestamp,
  };
}

/** GET /api/txns?to=<address>&ps=<10|25|50>&p=<page, from 1>: newest first. */
export function listTransactions(devnet: Devnet, query: URLSearchParams): ExplorerPage {
  const to = query.get('to');
  if (!to) throw new ExplorerQueryError("query parameter 'to' (an address) is required");
  let address: Felt;
  try {
    address = parseFelt(to);
  } catch {
    throw new ExplorerQueryError("query parameter 'to' must be a 0x-prefixed address");
  }
  const pageSize = Number(query.get('ps') ?? 10);
  if (!PAGE_SIZES.includes(pageSize as (typeof PAGE_SIZES)[number])) {
    throw new ExplorerQueryError("query parameter 'ps' must be 10, 25 or 50");
  }
  const page = Number(query.get('p') ?? 1);
  if (!Number.isInteger(page) || page < 1) {
    throw new ExplorerQueryError("query parameter 'p' must be a page number from 1");
  }
  const matching: TransactionRecord[] = [];
  for (const record of devnet.allTransactions())
    if (touches(record, address)) matching.push(record);
  matching.reverse();
  const start = (page - 1) * pageSize;
  return {
    items: matching.slice(start, start + pageSize).map((record) => describe(devnet, record)),
    page,
    pageSize,
    total: matching.length,
    totalPages: Math.ceil(matching.length / pageSize),
  };
}
