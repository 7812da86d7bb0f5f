import { array, optional, string, type, union } from 'superstruct';

import { isOwnAccount, ownAccountKey } from '../accounts';
import { verifyOnChain } from '../chain/onChainAccount';
import { verifyHash } from '../keys/signing';
import { pickAliased } from '../rpc/aliases';
import { invalidParams } from '../rpc/errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct, parseFelt } from '../rpc/structs';
import { TypedDataStruct, typedDataHash } from '../typedData';

/** "0xr,0xs" or ["0xr", "0xs"]; undefined when any value is not a felt. */
function parseSignature(signature: string | string[]): string[] | undefined {
  const parts = Array.isArray(signature) ? signature : signature.split(',');
  const felts = parts.map((part) => parseFelt(part.trim()));
  if (felts.length === 0 || felts.some((felt) => felt === undefined)) {
    return undefined;
  }
  return felts.map((felt) => `0x${(felt as bigint).toString(16)}`);
}

/**
 * l2_verifySignedMessage: true when `signature` is the signer's signature of the typed data.
 * A malformed signature is false. The snap's own accounts are verified locally; other accounts
 * by their contract's is_valid_signature on chain.
 */
export const verifySignedMessage = defineMethod({
  names: ['verifySignedMessage'],
  params: type({
    typedDataMessage: TypedDataStruct,
    address: optional(AddressStruct),
    signerAddress: optional(AddressStruct),
    signature: union([string(), array(string())]),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ typedDataMessage, address, signerAddress, signature, chainId }) => {
    const signer = pickAliased({ address, signerAddress });
    const field = address ? 'address' : 'signerAddress';
    if (!(await isOwnAccount(signer, chainId))) {
      const parsed = parseSignature(signature);
      if (!parsed) {
        return false;
      }
      const messageHash = typedDataHash(typedDataMessage, signer, 'typedDataMessage');
      const onChain = await verifyOnChain(signer, messageHash, parsed, chainId);
      if (!onChain.deployed) {
        throw invalidParams(
          field,
          `is neither an account of this snap nor a deployed account: ${signer} has no contract whose is_valid_signature could check the signature`,
        );
      }
      return onChain.valid;
    }
    const key = await ownAccountKey(signer, chainId, field);
    const messageHash = typedDataHash(typedDataMessage, key.address, 'typedDataMessage');
    const parsed = parseSignature(signature);
    return parsed ? verifyHash(key, messageHash, parsed) : false;
  },
});
