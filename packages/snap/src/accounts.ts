/**
 * The snap's own accounts: state records joined with their derived keys.
 */
import { cachedAccountKey, computeAccountAddress, type AccountKey } from './keys';
import { invalidParams } from './rpc/errors';
import { requireAccountGrant } from './sites/grants';
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
 * The key of one of the snap's accounts for the site at `origin`: -32602 naming `field` when the
 * address is not one, and a grant dialog when the site was not allowed this account yet
 * (4001 when declined).
 */
export async function requireOwnAccountKey(
  address: string,
  chainId: string,
  field: string,
  origin: string,
): Promise<AccountKey> {
  const key = await ownAccountKey(address, chainId, field);
  await requireAccountGrant(origin, key, chainId);
  return key;
}

/**
 * The key of one of the snap's accounts, or -32602 naming `field` when the address is not one;
 * no grant is checked (only for checking a signature, which reveals nothing new to the site).
 * The derivation is checked against the stored address so a corrupted record cannot make the
 * snap sign with a key the user did not mean.
 */
export async function ownAccountKey(
  address: string,
  chainId: string,
  field: string,
): Promise<AccountKey> {
  const addressIndex = await ownAddressIndex(address, chainId);
  if (addressIndex === undefined) {
    throw invalidParams(
      field,
      `is not an account of this snap: ${address} (create it with l2_createAccount or recover it first)`,
    );
  }
  // Only a stored account's key is kept in memory (keys/index.ts, bounded).
  const key = await cachedAccountKey(addressIndex);
  if (BigInt(key.address) !== BigInt(address)) {
    throw invalidParams(field, `does not match the key stored for index ${addressIndex}`);
  }
  return key;
}

/** Whether the address belongs to the snap (no key derivation). */
export async function isOwnAccount(address: string, chainId: string): Promise<boolean> {
  return (await ownAddressIndex(address, chainId)) !== undefined;
}

/**
 * Address -> index of accounts already seen in state. Accounts are never removed from state, so
 * a hit stays true; it saves a state read (decryption) on every signing request.
 */
const knownAddressIndexes = new Map<bigint, number>();

async function ownAddressIndex(address: string, chainId: string): Promise<number | undefined> {
  const known = knownAddressIndexes.get(BigInt(address));
  if (known !== undefined) {
    return known;
  }
  const record = findOwnAccount(await stateStore.read(), chainId, address);
  if (record) {
    knownAddressIndexes.set(BigInt(record.address), record.addressIndex);
  }
  return record?.addressIndex;
}

export { computeAccountAddress };
