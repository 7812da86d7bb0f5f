import { InvalidInputError } from '@metamask/snaps-sdk';
import { optional, type } from 'superstruct';

import { recordGrant, requireIndexGrant, reserveNewIndex } from '../flows/grants';
import { prepareSend } from '../flows/send';
import { deriveAccountKey } from '../keys';
import { getChain } from '../node/chain';
import { defineMethod } from '../rpc/dispatcher';
import { AddressIndexStruct, OptionalChainIdStruct } from '../starknet/structs';
import { stateStore } from '../state';

/**
 * l2_estimateAccountDeployFee: the fee estimate (docs/interface/snap.md#fee-estimate) of deploying
 * the account at `addressIndex` (default: the new account l2_createAccount would create), planned
 * as l2_createAccount would send it (flows/send.ts). Amounts in FRI.
 *
 * The estimate reads the account on chain (and says so when it is deployed already), so the
 * site must hold the index first: an index it does not hold is asked for like any other
 * (flows/grants.ts), and the approved index is granted.
 */
export const estimateAccountDeployFee = defineMethod({
  names: ['estimateAccountDeployFee'],
  params: type({
    addressIndex: optional(AddressIndexStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ addressIndex, chainId }, { origin }) => {
    const reserved = addressIndex === undefined ? await reserveNewIndex(origin) : undefined;
    const index = addressIndex ?? (reserved?.addressIndex as number);
    try {
      const key = await deriveAccountKey(index);
      if (
        await requireIndexGrant(origin, {
          kind: 'use',
          chainId,
          accounts: [{ addressIndex: index, address: key.address }],
          isNew: reserved !== undefined,
        })
      ) {
        await stateStore.update((state) => recordGrant(state, origin, [index]));
      }
      const chain = getChain(chainId);
      const prepared = await prepareSend(chain, key, { kind: 'deploy' }, undefined, {
        check: (snapshot) => {
          if (snapshot.deployed) {
            throw new InvalidInputError(
              `Account ${key.address} is already deployed on ${chain.network.name}: there is no deployment fee to estimate.`,
            );
          }
        },
      });
      if (prepared.route !== 'v3') {
        throw new Error('A deployment without a fee mode is never relayed');
      }
      return prepared.plan.fee;
    } finally {
      reserved?.release();
    }
  },
});
