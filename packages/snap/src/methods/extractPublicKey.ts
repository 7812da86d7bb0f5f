import { type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../rpc/structs';

/** l2_extractPublicKey: the Stark public key of one of the snap's accounts. */
export const extractPublicKey = defineMethod({
  names: ['extractPublicKey'],
  params: type({ userAddress: AddressStruct, chainId: OptionalChainIdStruct }),
  handler: async ({ userAddress, chainId }) => {
    const key = await requireOwnAccountKey(userAddress, chainId, 'userAddress');
    return key.publicKey;
  },
});
