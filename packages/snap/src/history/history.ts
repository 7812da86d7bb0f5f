/**
 * An account's transaction history on one network, from the node (the default source: its
 * fee-token Transfer events, node/events.ts), an explorer when the build names one, and the
 * records in snap state, merged. l2_getTransactions and the home page both read it here.
 */
import { headerCall, firstBlockSince, knownTimestamps, stampOf } from '../node/blocks';
import type { RpcClient } from '../node/client';
import { getChain } from '../node/chain';
import { toChainError } from '../node/errors';
import { readAccountEvents } from '../node/events';
import { readExplorerPages } from '../node/explorer';
import { resolveRecords } from '../node/transactions';
import { mergeNewerRecord, recordFromExplorer } from '../starknet/records';
import { resolvePending } from './relayed';
import { stateStore, transactionsOf, type TransactionRecord } from '../state';

/** Explorer pages read at most, so one call stays bounded however busy the account is. */
export const MAX_EXPLORER_PAGES = 20;

export type HistoryQuery = {
  chainId: string;
  address: string;
  /** Unix seconds: the window's start. */
  since: number;
  /** Events (or explorer items) per page read from the source. */
  pageSize: number;
  contractAddress?: string;
  withDeployTxn: boolean;
  onlyFromState: boolean;
  /**
   * Whether the records in snap state (sent by the account, including those the node never
   * accepted) may answer: only for an account granted to the asking site (methods decide, see
   * flows/grants.ts). Without them the answer is the chain's public history alone, the same for
   * any address.
   */
  fromState: boolean;
};

const sameHex = (a: string, b: string): boolean => a !== '' && b !== '' && BigInt(a) === BigInt(b);

const hashKey = (txnHash: string): string => BigInt(txnHash).toString(16);

function inWindow(record: TransactionRecord, query: HistoryQuery): boolean {
  if (record.timestamp < query.since) {
    return false;
  }
  if (record.txnType === 'deploy_account' && !query.withDeployTxn) {
    return false;
  }
  return (
    query.contractAddress === undefined || sameHex(record.contractAddress, query.contractAddress)
  );
}

/** The node's records of the account in the window: round trips in README "Round trips". */
export async function readNodeHistory(
  rpc: RpcClient,
  chainId: string,
  address: string,
  since: number,
  pageSize: number,
): Promise<TransactionRecord[]> {
  const known = knownTimestamps(chainId);
  // The latest block bounds the range; genesis starts the timestamp search. The node's version
  // check rides along in this batch.
  const answers = await rpc.batch(
    known.has(0) ? [headerCall('latest')] : [headerCall('latest'), headerCall(0)],
  );
  const spec = await rpc.specSupport();
  for (const answer of answers) {
    if (!answer.ok) {
      throw toChainError(answer.error, 'Reading the latest block');
    }
  }
  const latest = stampOf(answers[0].ok ? answers[0].result : undefined);
  if (!latest) {
    return [];
  }
  const genesis = answers[1]?.ok ? stampOf(answers[1].result) : undefined;
  if (genesis) {
    known.set(genesis.number, genesis.timestamp);
  }
  const fromBlock = await firstBlockSince(rpc, chainId, since, latest);
  const events = await readAccountEvents(rpc, spec, address, fromBlock, latest.number, pageSize);
  const records = await resolveRecords(rpc, chainId, address, events);
  return records.filter((record) => record.timestamp >= since);
}

async function readExplorerHistory(query: HistoryQuery): Promise<TransactionRecord[]> {
  const { explorer } = getChain(query.chainId);
  if (!explorer) {
    return [];
  }
  const records: TransactionRecord[] = [];
  await readExplorerPages(
    async (page) => explorer.listTransactions(query.address, query.pageSize, page),
    query.since,
    MAX_EXPLORER_PAGES,
    (item) => {
      records.push(recordFromExplorer(item, query.chainId));
    },
  );
  return records;
}

/** An error no other source can make up for: the node answers, but not in a version we speak. */
function isVersionRefusal(error: unknown): boolean {
  const data = (error as { data?: { specVersion?: unknown } } | undefined)?.data;
  return typeof data === 'object' && data !== null && data.specVersion !== undefined;
}

/**
 * The history, newest first, one record per hash. State records come first and keep their own
 * fields and timestamps; the node's and the explorer's answers only advance their status. When
 * the node or the explorer fails the others answer; the node's error is thrown only when
 * nothing can answer (or when the node speaks an unsupported JSON-RPC version).
 */
export async function readHistory(query: HistoryQuery): Promise<TransactionRecord[]> {
  const byHash = new Map<string, TransactionRecord>();
  if (query.fromState) {
    // Relayed executions that may have been submitted: their records take the relayer's hash.
    await resolvePending(query.chainId, (pending) => sameHex(pending.account, query.address));
  }
  // Only the account's own records: one that merely calls the account as a contract was sent by
  // another account, which the asker may not have been granted.
  const stored = query.fromState
    ? transactionsOf(await stateStore.read(), query.chainId).filter(
        (record) => inWindow(record, query) && sameHex(record.senderAddress, query.address),
      )
    : [];
  for (const record of stored) {
    byHash.set(hashKey(record.txnHash), record);
  }

  if (!query.onlyFromState) {
    const { rpc, explorer } = getChain(query.chainId);
    const [node, fromExplorer] = await Promise.allSettled([
      readNodeHistory(rpc, query.chainId, query.address, query.since, query.pageSize),
      readExplorerHistory(query),
    ]);
    if (node.status === 'rejected' && isVersionRefusal(node.reason)) {
      throw node.reason;
    }
    const answered = [node, fromExplorer].filter((result) => result.status === 'fulfilled');
    const explorerAnswered = explorer !== undefined && fromExplorer.status === 'fulfilled';
    if (node.status === 'rejected' && !explorerAnswered && stored.length === 0) {
      throw node.reason;
    }
    for (const result of answered) {
      for (const record of (result as PromiseFulfilledResult<TransactionRecord[]>).value) {
        const key = hashKey(record.txnHash);
        const known = byHash.get(key);
        if (known) {
          byHash.set(key, mergeNewerRecord(known, record));
        } else if (record.timestamp !== 0 && inWindow(record, query)) {
          byHash.set(key, record);
        }
      }
    }
  }

  return [...byHash.values()].sort(
    (a, b) => b.timestamp - a.timestamp || (BigInt(b.txnHash) > BigInt(a.txnHash) ? 1 : -1),
  );
}
