import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../flows/accounts';
import { signHash } from '../keys/signing';
import { getNetwork } from '../starknet/networks';
import { pickAliased } from '../rpc/aliases';
import { invalidParams, userRejected } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, ChainIdStruct, FeltStruct } from '../starknet/structs';
import { V3DetailsFields } from '../starknet/details';
import { declareTransaction } from '../starknet/transaction';
import { confirm, DeclareScreen } from '../ui';

const DeclareDetailsStruct = type({
  ...V3DetailsFields,
  classHash: FeltStruct,
  compiledClassHash: FeltStruct,
  senderAddress: optional(AddressStruct),
  chainId: optional(ChainIdStruct),
});

/**
 * l2_signDeclareTransaction: signs the v3 declare hash (classHash, compiledClassHash, sender,
 * nonce, resourceBounds, ...). Returns {signature}.
 */
export const signDeclareTransaction = defineMethod({
  names: ['signDeclareTransaction'],
  params: type({
    address: optional(AddressStruct),
    senderAddress: optional(AddressStruct),
    chainId: ChainIdStruct,
    details: DeclareDetailsStruct,
  }),
  handler: async ({ address, senderAddress, chainId, details }, { origin }) => {
    const sender = pickAliased({
      senderAddress,
      address,
      'details.senderAddress': details.senderAddress,
    });
    if (details.chainId !== undefined && details.chainId !== chainId) {
      throw invalidParams(
        'details.chainId',
        `must equal "chainId" (${chainId}) when both are given`,
      );
    }
    const field = senderAddress ? 'senderAddress' : address ? 'address' : 'details.senderAddress';
    const key = await requireOwnAccountKey(sender, chainId, field, origin);
    const { hash: transactionHash } = declareTransaction({
      senderAddress: key.address,
      declare: { classHash: details.classHash, compiledClassHash: details.compiledClassHash },
      chainId,
      details,
      version: details.version,
    });
    const approved = await confirm(
      origin,
      DeclareScreen({
        sends: false,
        signer: key.address,
        network: getNetwork(chainId),
        classHash: details.classHash,
        compiledClassHash: details.compiledClassHash,
        fields: details,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    return { signature: signHash(key, transactionHash) };
  },
});
