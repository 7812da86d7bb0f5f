import { type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../rpc/structs';
import { alert, confirm, PrivateKeyScreen, RevealKeyConfirmScreen } from '../ui';

/**
 * l2_displayPrivateKey: after a confirmation, shows the key in a copyable alert. The key never
 * leaves the dialog: the result is always null, declined or not.
 */
export const displayPrivateKey = defineMethod({
  names: ['displayPrivateKey'],
  params: type({ userAddress: AddressStruct, chainId: OptionalChainIdStruct }),
  handler: async ({ userAddress, chainId }) => {
    const key = await requireOwnAccountKey(userAddress, chainId, 'userAddress');
    if (await confirm(RevealKeyConfirmScreen({ address: key.address }))) {
      await alert(PrivateKeyScreen({ address: key.address, privateKey: key.privateKey }));
    }
    return null;
  },
});
