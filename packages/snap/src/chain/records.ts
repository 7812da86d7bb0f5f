/**
 * Transaction records (SPEC 2.4) the chain methods store in snap state after a submission, and
 * the mapping of explorer items to the same shape.
 */
import { formatAddress, toHex } from '../rpc/structs';
import {
  findAccount,
  stateStore,
  upsertAccount,
  upsertTransaction,
  type TransactionRecord,
} from '../state';
import type { ExplorerTransaction } from './explorer';
import { mapNodeStatus, mergeStatus, type RecordStatus } from './status';
import type { ChainCall } from './transactions';

export type TxnType = 'invoke' | 'deploy_account' | 'declare';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function hashOf(txHash: string): string {
  return toHex(txHash);
}

/** The record of an invoke: its first call names the contract and function; all calls listed. */
export function invokeRecord(
  txHash: string,
  senderAddress: string,
  calls: readonly ChainCall[],
  chainId: string,
): TransactionRecord {
  const [first] = calls;
  return {
    txnHash: hashOf(txHash),
    txnType: 'invoke',
    senderAddress: formatAddress(senderAddress),
    contractAddress: formatAddress(first.contractAddress),
    contractFuncName: calls.map((call) => call.entrypoint).join(','),
    contractCallData: first.calldata.map(toHex),
    status: 'RECEIVED',
    failureReason: null,
    eventIds: [],
    timestamp: nowSeconds(),
    chainId,
  };
}

export function deployRecord(
  txHash: string,
  address: string,
  constructorCalldata: readonly string[],
  chainId: string,
): TransactionRecord {
  return {
    txnHash: hashOf(txHash),
    txnType: 'deploy_account',
    senderAddress: formatAddress(address),
    contractAddress: formatAddress(address),
    contractFuncName: '',
    contractCallData: constructorCalldata.map(toHex),
    status: 'RECEIVED',
    failureReason: null,
    eventIds: [],
    timestamp: nowSeconds(),
    chainId,
  };
}

export function declareRecord(
  txHash: string,
  senderAddress: string,
  classHash: string,
  chainId: string,
): TransactionRecord {
  return {
    txnHash: hashOf(txHash),
    txnType: 'declare',
    senderAddress: formatAddress(senderAddress),
    contractAddress: '',
    contractFuncName: '',
    contractCallData: [classHash],
    status: 'RECEIVED',
    failureReason: null,
    eventIds: [],
    timestamp: nowSeconds(),
    chainId,
  };
}

/** Stores the records, and the deploy hash on the account record when one is given. */
export async function storeRecords(
  records: readonly TransactionRecord[],
  deployed?: { chainId: string; address: string; deployTxnHash: string },
): Promise<void> {
  await stateStore.update((state) => {
    for (const record of records) {
      upsertTransaction(state, record);
    }
    if (deployed) {
      const account = findAccount(state, deployed.chainId, deployed.address);
      if (account) {
        upsertAccount(state, { ...account, deployTxnHash: hashOf(deployed.deployTxnHash) });
      }
    }
  });
}

const EXPLORER_TYPES: Record<string, string> = {
  INVOKE: 'invoke',
  INVOKE_FUNCTION: 'invoke',
  DEPLOY_ACCOUNT: 'deploy_account',
  DECLARE: 'declare',
  DEPLOY: 'deploy',
  L1_HANDLER: 'l1_handler',
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
    txnHash: hashOf(item.hash),
    txnType: EXPLORER_TYPES[item.type.toUpperCase()] ?? item.type.toLowerCase(),
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
