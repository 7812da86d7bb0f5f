/**
 * The Starknet wallet API's own error codes (as `@starknet-io/types-js` defines its
 * WALLET_API errors). Every failure of a wallet-object request is one of these.
 */
import type { WALLET_API } from '@starknet-io/types-js';

import { SnapError } from '../errors';

type WalletApiErrorInterface =
  | WALLET_API.NOT_ERC20
  | WALLET_API.UNLISTED_NETWORK
  | WALLET_API.USER_REFUSED_OP
  | WALLET_API.INVALID_REQUEST_PAYLOAD
  | WALLET_API.ACCOUNT_ALREADY_DEPLOYED
  | WALLET_API.NOT_REGISTERED
  | WALLET_API.API_VERSION_NOT_SUPPORTED
  | WALLET_API.UNKNOWN_ERROR;

export type WalletApiErrorCode = WalletApiErrorInterface['code'];

/** Name -> code, checked against the types-js error interfaces. */
export const WALLET_API_ERROR_CODES = {
  NOT_ERC20: 111,
  UNLISTED_NETWORK: 112,
  USER_REFUSED_OP: 113,
  INVALID_REQUEST_PAYLOAD: 114,
  ACCOUNT_ALREADY_DEPLOYED: 115,
  NOT_REGISTERED: 118,
  API_VERSION_NOT_SUPPORTED: 162,
  UNKNOWN_ERROR: 163,
} as const satisfies Record<string, WalletApiErrorCode>;

export type WalletApiErrorName = keyof typeof WALLET_API_ERROR_CODES;

/**
 * A wallet API error: `code` is the wallet API's, `message` says what happened (for 114, which
 * field), `data.snapCode` keeps the snap's own code when the snap answered the error.
 */
export class WalletApiError extends Error {
  readonly code: WalletApiErrorCode;
  readonly data: unknown;

  constructor(name: WalletApiErrorName, message: string, data?: unknown) {
    super(message);
    this.name = `WalletApiError(${name})`;
    this.code = WALLET_API_ERROR_CODES[name];
    this.data = data;
  }
}

export const userRefused = (message = 'The user declined the request in the wallet.') =>
  new WalletApiError('USER_REFUSED_OP', message);

/** 114: the message names the field (e.g. `calls[0].contract_address`). */
export const invalidPayload = (field: string, problem: string) =>
  new WalletApiError('INVALID_REQUEST_PAYLOAD', `Invalid request payload: ${field} ${problem}`, {
    field,
  });

/**
 * The wallet API error for whatever a snap call threw: declined (4001) -> 113, params the snap
 * refused (-32602, message naming the field) -> 114, anything else -> 163 with the snap's message.
 */
export function toWalletApiError(error: unknown): WalletApiError {
  if (error instanceof WalletApiError) return error;
  if (error instanceof SnapError) {
    const data = { snapCode: error.code, snapData: error.data };
    if (error.code === 4001) return new WalletApiError('USER_REFUSED_OP', error.message, data);
    if (error.code === -32602)
      return new WalletApiError('INVALID_REQUEST_PAYLOAD', error.message, data);
    return new WalletApiError('UNKNOWN_ERROR', error.message, data);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new WalletApiError('UNKNOWN_ERROR', message);
}
