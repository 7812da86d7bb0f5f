import { array, optional, string, type, union } from 'superstruct';

import { requireOwnAccountKey } from '../flows/accounts';
import { verifyOnChain } from '../node/onChainAccount';
import { verifyHash } from '../keys/signing';
import { getNetwork } from '../starknet/networks';
import { pickAliased } from '../rpc/aliases';
import { invalidParams } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { parseFelt } from '../starknet/felt';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';
import { grantedAccount } from '../flows/grants';
import { stateStore } from '../state';
import { TypedDataStruct, typedDataHash } from '../starknet/typedData';

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
 * A malformed signature is false.
 *
 * Only an account granted to the asking site is verified locally, with its key. Every other
 * address is verified the one way a stranger's is: by its contract's is_valid_signature on
 * chain, the same node calls in the same order, and an address with no contract is the same
 * error. So the answer (true, false or the error), its timing and the node traffic are the same
 * for one of the user's accounts the site was not granted as for anybody else's.
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
  handler: async ({ typedDataMessage, address, signerAddress, signature, chainId }, { origin }) => {
    const signer = pickAliased({ address, signerAddress });
    const field = address ? 'address' : 'signerAddress';
    const parsed = parseSignature(signature);
    if (!parsed) {
      return false;
    }
    const messageHash = typedDataHash(typedDataMessage, signer, 'typedDataMessage');
    if (grantedAccount(await stateStore.read(), origin, signer, chainId)) {
      const key = await requireOwnAccountKey(signer, chainId, field, origin);
      return verifyHash(key, messageHash, parsed);
    }
    const onChain = await verifyOnChain(signer, messageHash, parsed, chainId);
    if (!onChain.deployed) {
      throw invalidParams(
        field,
        `has no deployed account contract on ${getNetwork(chainId).name} whose is_valid_signature could check the signature`,
      );
    }
    return onChain.valid;
  },
});
