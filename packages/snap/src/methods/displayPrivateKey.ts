import { optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../flows/accounts';
import { pickAliased } from '../rpc/aliases';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';
import { alert, confirm, PrivateKeyScreen, RevealKeyConfirmScreen } from '../ui';

/**
 * l2_displayPrivateKey: after a confirmation, shows the key in a copyable alert. The key never
 * leaves the dialog: the result is always null, declined or not. `address` (the production
 * Starknet snap's name) is accepted for `userAddress`.
 */
export const displayPrivateKey = defineMethod({
  names: ['displayPrivateKey'],
  params: type({
    userAddress: optional(AddressStruct),
    address: optional(AddressStruct),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ userAddress, address, chainId }, { origin }) => {
    const account = pickAliased({ userAddress, address });
    const field = userAddress ? 'userAddress' : 'address';
    const key = await requireOwnAccountKey(account, chainId, field, origin);
    if (await confirm(origin, RevealKeyConfirmScreen({ address: key.address }))) {
      await alert(origin, PrivateKeyScreen({ address: key.address, privateKey: key.privateKey }));
    }
    return null;
  },
});
