/**
 * The snap's own accounts: state records joined with their derived keys.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import { invalidParams } from './errors';
import { cachedAccountKey, computeAccountAddress, type AccountKey } from './keys';
import { readOnChainPublicKey } from './node/onChainAccount';
import { requireGrantedAccount } from './sites/grants';
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
 * The key of one of the snap's accounts that the site at `origin` was granted. Every other
 * address, a stranger's or one of the user's the site was not granted, is the same -32602 naming
 * `field` (sites/grants.ts), before any key is derived or anything else is read. The derivation
 * is checked against the stored address so a corrupted record cannot make the snap sign with a
 * key the user did not mean.
 */
export async function requireOwnAccountKey(
  address: string,
  chainId: string,
  field: string,
  origin: string,
): Promise<AccountKey> {
  const { addressIndex } = await requireGrantedAccount(origin, address, chainId, field);
  // Only a stored account's key is kept in memory (keys/index.ts, bounded).
  const key = await cachedAccountKey(addressIndex);
  if (BigInt(key.address) !== BigInt(address)) {
    throw invalidParams(field, `does not match the key stored for index ${addressIndex}`);
  }
  return key;
}

export { computeAccountAddress };

/**
 * l2_extractPublicKey of one of the snap's accounts: the owner on chain when the account is
 * deployed. When the node cannot be reached and the snap has never seen the account deployed,
 * the derived key is the answer (it is the owner until an owner change, which needs a deployed
 * account); for an account known to be deployed the node error stands (retryable).
 */
export async function accountPublicKey(key: AccountKey, chainId: string): Promise<string> {
  try {
    return (await readOnChainPublicKey(key.address, chainId)) ?? key.publicKey;
  } catch (error) {
    if (error instanceof ResourceUnavailableError) {
      const record = findOwnAccount(await stateStore.read(), chainId, key.address);
      if (!record?.deployTxnHash) {
        return key.publicKey;
      }
    }
    throw error;
  }
}
