import { boolean, defaulted, define, optional, type } from 'superstruct';

import { readExplorerPages } from '../chain/explorer';
import { getChain } from '../chain/node';
import { mergeNewerRecord, recordFromExplorer } from '../chain/records';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../rpc/structs';
import { stateStore, transactionsOf, type TransactionRecord } from '../state';

/** SPEC 8: the explorer page size is 10, 25 or 50. */
const PageSizeStruct = define<10 | 25 | 50>('page size', (value) =>
  value === 10 || value === 25 || value === 50 ? true : 'expected one of 10, 25 or 50',
);

const DaysStruct = define<number>('number of days', (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3650
    ? true
    : 'expected a whole number of days from 1 to 3650',
);

/** Explorer pages read at most, so one call stays bounded however busy the account is. */
export const MAX_EXPLORER_PAGES = 20;

const sameHex = (a: string, b: string): boolean => a !== '' && b !== '' && BigInt(a) === BigInt(b);

function keep(
  record: TransactionRecord,
  sender: string,
  contractAddress: string | undefined,
  withDeployTxn: boolean,
  since: number,
): boolean {
  if (record.timestamp < since) {
    return false;
  }
  if (record.txnType === 'deploy_account' && !withDeployTxn) {
    return false;
  }
  if (contractAddress !== undefined && !sameHex(record.contractAddress, contractAddress)) {
    return false;
  }
  return sameHex(record.senderAddress, sender) || sameHex(record.contractAddress, sender);
}

/**
 * l2_getTransactions (also l2_getTransaction): the explorer's list for `senderAddress` merged
 * with the records in snap state: one item per hash (the explorer's status advances the stored one, never back),
 * newest first, within the last `txnsInLastNumOfDays` days.
 */
export const getTransactions = defineMethod({
  names: ['getTransactions', 'getTransaction'],
  params: type({
    senderAddress: AddressStruct,
    contractAddress: optional(AddressStruct),
    pageSize: defaulted(PageSizeStruct, 10),
    txnsInLastNumOfDays: defaulted(DaysStruct, 5),
    withDeployTxn: defaulted(boolean(), false),
    onlyFromState: defaulted(boolean(), false),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({
    senderAddress,
    contractAddress,
    pageSize,
    txnsInLastNumOfDays,
    withDeployTxn,
    onlyFromState,
    chainId,
  }) => {
    const since = Math.floor(Date.now() / 1000) - txnsInLastNumOfDays * 86_400;
    const byHash = new Map<string, TransactionRecord>();
    const add = (record: TransactionRecord, preferNew: boolean): void => {
      const key = BigInt(record.txnHash).toString(16);
      const known = byHash.get(key);
      if (!known) {
        byHash.set(key, record);
      } else if (preferNew) {
        byHash.set(key, mergeNewerRecord(known, record));
      }
    };

    const stored = transactionsOf(await stateStore.read(), chainId);
    for (const record of stored) {
      if (keep(record, senderAddress, contractAddress, withDeployTxn, since)) {
        add(record, false);
      }
    }

    if (!onlyFromState) {
      const { explorer } = getChain(chainId);
      await readExplorerPages(
        async (page) => explorer.listTransactions(senderAddress, pageSize, page),
        since,
        MAX_EXPLORER_PAGES,
        (item) => {
          const record = recordFromExplorer(item, chainId);
          if (record.timestamp === 0) {
            // No time known: it only updates a record already listed.
            if (byHash.has(BigInt(record.txnHash).toString(16))) {
              add(record, true);
            }
          } else if (keep(record, senderAddress, contractAddress, withDeployTxn, since)) {
            add(record, true);
          }
        },
      );
    }

    return [...byHash.values()].sort(
      (a, b) => b.timestamp - a.timestamp || (BigInt(b.txnHash) > BigInt(a.txnHash) ? 1 : -1),
    );
  },
});
