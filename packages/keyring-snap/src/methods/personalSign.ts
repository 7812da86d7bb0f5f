import { signMessage } from 'viem/accounts';

import { invalidParams } from '../errors';
import { asAddress, asArray, asBytes, sameAddress } from '../validation';
import { PARAMS, type RequestMethod } from './types';

/** personal_sign [message (hex bytes), address]: EIP-191 ("\x19Ethereum Signed Message:\n"). */
export const personalSign: RequestMethod = {
  name: 'personal_sign',
  accountTypes: ['eip155:eoa', 'eip155:erc4337'],
  handle: async ({ stored, params, signingKey }) => {
    const list = asArray(params, PARAMS, 2);
    const message = asBytes(list[0], `${PARAMS}[0]`);
    const address = asAddress(list[1], `${PARAMS}[1]`);
    if (!sameAddress(address, stored.account.address)) {
      throw invalidParams(
        `${PARAMS}[1]`,
        `must be the account's address ${stored.account.address}`,
      );
    }
    return signMessage({ message: { raw: message }, privateKey: await signingKey() });
  },
};
