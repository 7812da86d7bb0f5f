import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { signHash } from '../keys/signing';
import { getNetwork } from '../networks';
import { pickAliased } from '../rpc/aliases';
import { userRejected } from '../rpc/errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../rpc/structs';
import { TypedDataStruct, typedDataHash } from '../typedData';
import { confirm, SignMessageScreen } from '../ui';

/**
 * l2_signMessage: signs SNIP-12 typed data after the user saw signer, domain and message.
 * Returns the signature as comma-separated hex values ("0xr,0xs").
 */
export const signMessage = defineMethod({
  names: ['signMessage'],
  params: type({
    typedDataMessage: TypedDataStruct,
    signerAddress: optional(AddressStruct),
    address: optional(AddressStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ typedDataMessage, signerAddress, address, chainId }, { origin }) => {
    const signer = pickAliased({ signerAddress, address });
    const key = await requireOwnAccountKey(
      signer,
      chainId,
      signerAddress ? 'signerAddress' : 'address',
      origin,
    );
    const messageHash = typedDataHash(typedDataMessage, key.address, 'typedDataMessage');
    const approved = await confirm(
      origin,
      SignMessageScreen({
        signer: key.address,
        network: getNetwork(chainId),
        domain: typedDataMessage.domain,
        primaryType: typedDataMessage.primaryType,
        message: typedDataMessage.message,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    return signHash(key, messageHash).join(',');
  },
});
