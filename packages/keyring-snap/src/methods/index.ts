/**
 * THE request method table of keyring_submitRequest. A method is answered only if it is listed
 * here and the account's type supports it; all answer synchronously.
 */
import { patchUserOperation } from './patchUserOperation';
import { personalSign } from './personalSign';
import { prepareUserOperation } from './prepareUserOperation';
import { signTransaction } from './signTransaction';
import { signTypedData } from './signTypedData';
import { signUserOperation } from './signUserOperation';
import type { AccountType, RequestMethod } from './types';

export const REQUEST_METHODS: readonly RequestMethod[] = [
  personalSign,
  signTransaction,
  signTypedData,
  prepareUserOperation,
  patchUserOperation,
  signUserOperation,
];

export function methodsOf(type: AccountType): string[] {
  return REQUEST_METHODS.filter((method) => method.accountTypes.includes(type)).map(
    (method) => method.name,
  );
}

export type { AccountType, RequestContext, RequestMethod } from './types';
