/**
 * The snap's own accounts: state records joined with their derived keys.
 */
import { computeAccountAddress, deriveAccountKey, type AccountKey } from './keys';
import { invalidParams } from './rpc/errors';
import { findOwnAccount, stateStore, type AccountRecord } from './state';

/** The account record a fresh derivation gives, for `chainId`. */
export function accountRecordFor(key: AccountKey, chainId: string): AccountRecord {
  return {
    address: key.address,
    addressIndex: key.addressIndex,
    publicKey: key.publicKey,
    addressSalt: key.addressSalt,
    deployTxnHash: '',
    derivationPath: key.derivationPath,
    chainId,
  };
}

/**
 * The key of one of the snap's accounts, or -32602 naming `field` when the address is not one.
 * The derivation is checked against the stored address so a corrupted record cannot make the
 * snap sign with a key the user did not mean.
 */
export async function requireOwnAccountKey(
  address: string,
  chainId: string,
  field: string,
): Promise<AccountKey> {
  const state = await stateStore.read();
  const record = findOwnAccount(state, chainId, address);
  if (!record) {
    throw invalidParams(
      field,
      `is not an account of this snap: ${address} (create it with l2_createAccount or recover it first)`,
    );
  }
  const key = await deriveAccountKey(record.addressIndex);
  if (BigInt(key.address) !== BigInt(address)) {
    throw invalidParams(field, `does not match the key stored for index ${record.addressIndex}`);
  }
  return key;
}

/** Whether the address belongs to the snap (no key derivation). */
export async function isOwnAccount(address: string, chainId: string): Promise<boolean> {
  const state = await stateStore.read();
  return findOwnAccount(state, chainId, address) !== undefined;
}

export { computeAccountAddress };
