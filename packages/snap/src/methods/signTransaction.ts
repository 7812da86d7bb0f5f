import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { signHash } from '../keys/signing';
import { getNetwork } from '../networks';
import { pickAliased } from '../rpc/aliases';
import { userRejected } from '../rpc/errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, ChainIdStruct } from '../rpc/structs';
import { CallsStruct } from '../transactions/calls';
import { V3DetailsStruct } from '../transactions/details';
import { invokeTransactionHash } from '../transactions/hash';
import { confirm, SignTransactionScreen } from '../ui';

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
        calls: transactions,
        fields: transactionsDetail,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    // Hashed only once approved: the hash of a large multicall costs seconds, which a request
    // the dialog refuses (too large) or the user declines should not spend.
    const transactionHash = invokeTransactionHash({
      senderAddress: key.address,
      chainId,
      calls: transactions,
      details: transactionsDetail,
    });
    return signHash(key, transactionHash);
  },
});
