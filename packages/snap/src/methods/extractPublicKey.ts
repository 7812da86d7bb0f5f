import { type } from 'superstruct';

import { accountPublicKey, requireOwnAccountKey } from '../flows/accounts';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';

/** l2_extractPublicKey: the public key of one of the snap's accounts (on chain when deployed). */
export const extractPublicKey = defineMethod({
  names: ['extractPublicKey'],
  params: type({ userAddress: AddressStruct, chainId: OptionalChainIdStruct }),
  handler: async ({ userAddress, chainId }, { origin }) => {
    const key = await requireOwnAccountKey(userAddress, chainId, 'userAddress', origin);
    // A deployed account's key is the one on chain (get_owner), which may differ from the
    // signer's after an owner change; an undeployed account's is the derived one.
    return accountPublicKey(key, chainId);
  },
});
