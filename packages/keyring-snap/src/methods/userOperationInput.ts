import { invalidParams, unsupportedMethod } from '../errors';
import type { ChainConfig } from '../evm/chainConfig';
import { USER_OPERATION_FIELDS, type UserOperation } from '../evm/userOperation';
import { asAddress, asBytes, asQuantity, asRecord, onlyKeys, sameAddress } from '../evm/validation';
import type { StoredAccount } from '../state/store';
import { toHex } from 'viem';

const QUANTITIES = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const;
const BYTES = ['initCode', 'callData', 'paymasterAndData', 'signature'] as const;

/** A complete v0.6 user operation of this account, every field checked and normalised. */
export function parseUserOperation(
  raw: unknown,
  field: string,
  stored: StoredAccount,
): UserOperation {
  const op = asRecord(raw, field);
  onlyKeys(op, USER_OPERATION_FIELDS, field);
  for (const name of USER_OPERATION_FIELDS) {
    if (op[name] === undefined || op[name] === null) {
      throw invalidParams(`${field}.${name}`, 'is required');
    }
  }
  const sender = asAddress(op.sender, `${field}.sender`);
  if (!sameAddress(sender, stored.account.address)) {
    throw invalidParams(
      `${field}.sender`,
      `must be the account's address ${stored.account.address}`,
    );
  }
  const parsed = { sender } as UserOperation;
  for (const name of QUANTITIES) {
    parsed[name] = toHex(asQuantity(op[name], `${field}.${name}`));
  }
  for (const name of BYTES) {
    parsed[name] = asBytes(op[name], `${field}.${name}`);
  }
  return parsed;
}

export function requireSmartAccountChain(stored: StoredAccount, chain: ChainConfig | null) {
  if (!stored.smartAccount || !chain) {
    throw unsupportedMethod('user operations', stored.account.type);
  }
  return { smartAccount: stored.smartAccount, chain };
}
