import { boolean, defaulted, define, optional, type } from 'superstruct';

import { readHistory } from '../history/history';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';
import { grantedAccount } from '../flows/grants';
import { stateStore } from '../state';

/** docs/interface/snap.md#limits: the page size is 10, 25 or 50. */
const PageSizeStruct = define<10 | 25 | 50>('page size', (value) =>
  value === 10 || value === 25 || value === 50 ? true : 'expected one of 10, 25 or 50',
);

const DaysStruct = define<number>('number of days', (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3650
    ? true
    : 'expected a whole number of days from 1 to 3650',
);

/**
 * l2_getTransactions (also l2_getTransaction): every transaction `senderAddress` sent or
 * received in the last `txnsInLastNumOfDays` days, newest first: from the node (fee-token
 * Transfer events, read in pages of `pageSize`), an explorer when the build names one, and the
 * records in snap state (history/history.ts).
 *
 * The records in snap state answer only for an account granted to the asking site. For any other
 * address, one of the user's or a stranger's, the answer is the chain's public history alone,
 * read the same way (`onlyFromState: true` is then always empty).
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
  handler: async (
    {
      senderAddress,
      contractAddress,
      pageSize,
      txnsInLastNumOfDays,
      withDeployTxn,
      onlyFromState,
      chainId,
    },
    { origin },
  ) =>
    readHistory({
      chainId,
      address: senderAddress,
      since: Math.floor(Date.now() / 1000) - txnsInLastNumOfDays * 86_400,
      pageSize,
      contractAddress,
      withDeployTxn,
      onlyFromState,
      fromState:
        grantedAccount(await stateStore.read(), origin, senderAddress, chainId) !== undefined,
    }),
});
