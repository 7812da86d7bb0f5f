import { size } from 'viem';
import { signMessage } from 'viem/accounts';

import { invalidParams } from '../errors';
import { asAddress, asArray, asBytes, sameAddress } from '../evm/validation';
import { PARAMS, type RequestMethod } from './types';

/**
 * The one message length an ERC-4337 account never signs here. SimpleAccount v0.6 validates
 * ecrecover(keccak("\x19Ethereum Signed Message:\n32" || userOpHash)); personal_sign hashes
 * "\x19Ethereum Signed Message:\n" || decimal length || message, which is that same input only
 * for a message of exactly 32 bytes (length plus its digits is 34 for 32 alone). Every other
 * length, typed data (0x1901…) and transactions (a type or RLP byte) hash other inputs.
 */
export const USER_OPERATION_HASH_BYTES = 32;

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
    if (stored.smartAccount && size(message) === USER_OPERATION_HASH_BYTES) {
      throw invalidParams(
        `${PARAMS}[0]`,
        `is exactly 32 bytes, which an ERC-4337 account does not sign with personal_sign: the account (SimpleAccount v0.6) would accept that signature as the signature of any user operation whose hash is those 32 bytes, so a site could spend from it. Sign it as text instead (for a hash: the UTF-8 bytes of its 0x hex string), or as typed data with eth_signTypedData_v4; user operations are signed with eth_signUserOperation.`,
      );
    }
    return signMessage({ message: { raw: message }, privateKey: await signingKey() });
  },
};
