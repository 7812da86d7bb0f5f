/**
 * Node errors (Starknet JSON-RPC codes) as errors a dapp can act on. The node's own message is
 * kept (it names the cause, e.g. the revert reason); nothing secret is ever in it because the
 * node never sees a private key.
 */
import {
  InvalidInputError,
  ResourceNotFoundError,
  SnapError,
  TransactionRejected,
} from '@metamask/snaps-sdk';

import { StarknetRpcError } from './client';

const MAX_REASON = 600;

function dataText(data: unknown): string {
  if (data === undefined || data === null) {
    return '';
  }
  if (typeof data === 'string') {
    return data;
  }
  if (typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const key of ['revert_error', 'execution_error', 'reason', 'message']) {
      const value = record[key];
      if (typeof value === 'string') {
        return value;
      }
      if (value !== undefined && typeof value === 'object') {
        return dataText(value);
      }
    }
    try {
      return JSON.stringify(data);
    } catch {
      return '';
    }
  }
  return String(data);
}

export function nodeErrorReason(error: StarknetRpcError): string {
  const detail = dataText(error.data);
  const text =
    detail && !error.message.includes(detail) ? `${error.message}: ${detail}` : error.message;
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}...` : text;
}

/**
 * Maps an error from the chain layer to a SnapError. SnapErrors (node unavailable, user
 * rejected, invalid params) pass through unchanged.
 */
export function toChainError(error: unknown, action: string): Error {
  if (error instanceof SnapError) {
    return error;
  }
  if (!(error instanceof StarknetRpcError)) {
    return error instanceof Error ? error : new Error(String(error));
  }
  const reason = nodeErrorReason(error);
  const data = { nodeCode: error.code };
  switch (error.code) {
    case 20:
      return new ResourceNotFoundError(`${action} failed: contract not found (${reason})`, data);
    case 24:
      return new ResourceNotFoundError(`${action} failed: block not found`, data);
    case 28:
      return new ResourceNotFoundError(`${action} failed: class hash not found`, data);
    case 29:
      return new ResourceNotFoundError(`${action} failed: transaction hash not found`, data);
    case 40:
      return new TransactionRejected(`${action} failed: contract error: ${reason}`, data);
    case 41:
      return new TransactionRejected(
        `${action} failed: transaction execution error: ${reason}`,
        data,
      );
    case 51:
      return new InvalidInputError(`${action} failed: the class is already declared`, data);
    case 52:
      return new TransactionRejected(
        `${action} failed: invalid transaction nonce (${reason})`,
        data,
      );
    case 53:
    case 54:
      return new TransactionRejected(
        `${action} failed: insufficient account balance to pay the fee (${reason})`,
        data,
      );
    case 55:
      return new TransactionRejected(
        `${action} failed: account validation failed (${reason})`,
        data,
      );
    case 59:
      return new TransactionRejected(`${action} failed: duplicate transaction`, data);
    default:
      return new InvalidInputError(
        `${action} failed: the node answered ${error.code}: ${reason}`,
        data,
      );
  }
}
