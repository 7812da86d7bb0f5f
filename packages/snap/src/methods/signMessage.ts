import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../flows/accounts';
import { previewOutsideExecution } from '../flows/preview';
import { signHash } from '../keys/signing';
import { getChain } from '../node/chain';
import { getNetwork } from '../starknet/networks';
import { pickAliased } from '../rpc/aliases';
import { userRejected } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';
import { stateStore, tokensOf } from '../state';
import { TypedDataStruct, typedDataHash } from '../starknet/typedData';
import { requireSignable } from '../starknet/typedData/check';
import { describeTypedData } from '../starknet/typedData/display';
import {
  isOutsideExecution,
  readOutsideExecution,
  type OutsideExecutionView,
} from '../starknet/typedData/outsideExecution';
import { confirm, OutsideExecutionScreen, SignMessageScreen } from '../ui';

/**
 * l2_signMessage: signs SNIP-12 typed data after the user saw what is signed. Returns the
 * signature as comma-separated hex values ("0xr,0xs").
 *
 * Before any dialog (-32602 otherwise, starknet/typedData/check.ts): no type may redeclare a basic
 * or preset type, the domain's chainId must be the request's network, and no member may lie outside
 * its declared type. The dialog shows the declared members, each as the value it hashes to; a
 * SNIP-9 outside execution is shown like a transaction, with a warning that whoever holds the
 * signature can run its calls, and the preview of their effect (flows/preview.ts).
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
    requireSignable(typedDataMessage, chainId);
    // Everything that can refuse the request runs before the first dialog.
    const messageHash = typedDataHash(typedDataMessage, signer, 'typedDataMessage');
    const network = getNetwork(chainId);
    const tokens = tokensOf(await stateStore.read(), chainId);
    const shown:
      { execution: OutsideExecutionView } | { described: ReturnType<typeof describeTypedData> } =
      isOutsideExecution(typedDataMessage)
        ? { execution: readOutsideExecution(typedDataMessage, tokens) }
        : { described: describeTypedData(typedDataMessage, tokens) };
    const key = await requireOwnAccountKey(
      signer,
      chainId,
      signerAddress ? 'signerAddress' : 'address',
      origin,
    );
    // The preview simulates the very calls the hash signs (readOutsideExecution reads them as
    // hashed); it never stops the signing.
    const screen =
      'execution' in shown
        ? OutsideExecutionScreen({
            signer,
            network,
            execution: shown.execution,
            preview: await previewOutsideExecution(getChain(chainId), key.address, shown.execution),
          })
        : SignMessageScreen({
            signer,
            network,
            primaryType: typedDataMessage.primaryType,
            ...shown.described,
          });
    if (!(await confirm(origin, screen))) {
      throw userRejected();
    }
    return signHash(key, messageHash).join(',');
  },
});
