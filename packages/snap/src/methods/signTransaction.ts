import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../flows/accounts';
import { signHash } from '../keys/signing';
import { getNetwork } from '../starknet/networks';
import { pickAliased } from '../rpc/aliases';
import { userRejected } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, ChainIdStruct } from '../starknet/structs';
import { CallsStruct } from '../starknet/structs';
import { V3DetailsStruct } from '../starknet/details';
import { invokeTransaction } from '../starknet/transaction';
import { confirm, rawCall, SignTransactionScreen } from '../ui';

/**
 * l2_signTransaction: signs the v3 invoke transaction hash of `transactions` with the details
 * given; the user sees the calls first. Returns the signature as an array of hex strings.
 */
export const signTransaction = defineMethod({
  names: ['signTransaction'],
  params: type({
    address: optional(AddressStruct),
    senderAddress: optional(AddressStruct),
    chainId: ChainIdStruct,
    transactions: CallsStruct,
    transactionsDetail: V3DetailsStruct,
  }),
  handler: async (
    { address, senderAddress, chainId, transactions, transactionsDetail },
    { origin },
  ) => {
    const sender = pickAliased({ address, senderAddress });
    const key = await requireOwnAccountKey(
      sender,
      chainId,
      address ? 'address' : 'senderAddress',
      origin,
    );
    const approved = await confirm(
      origin,
      SignTransactionScreen({
        signer: key.address,
        network: getNetwork(chainId),
        calls: transactions.map(rawCall),
        fields: transactionsDetail,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    // Hashed only once approved: the hash of a large multicall costs seconds, which a request
    // the dialog refuses (too large) or the user declines should not spend.
    const { hash } = invokeTransaction({
      senderAddress: key.address,
      calls: transactions,
      chainId,
      details: transactionsDetail,
      version: transactionsDetail.version,
    });
    return signHash(key, hash);
  },
});
