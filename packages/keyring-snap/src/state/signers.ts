/**
 * One key, one account. The key an account signs with (an EOA's own key, a smart account's
 * owner key) signs for no other account the keyring holds. This is what lets the snap confine
 * user-operation signatures to ERC-4337 accounts: SimpleAccount v0.6 accepts its owner's EIP-191
 * signature of a 32-byte userOpHash, and only an ERC-4337 account refuses 32-byte personal_sign
 * messages (methods/personalSign.ts). An EOA that held an owner key would sign them.
 */
import { invalidParams, invalidRequest } from '../errors';
import type { StoredAccount } from './store';
import { sameAddress, type Hex } from '../evm/validation';

/** The address that recovers from the account's signatures: the EOA itself or the owner. */
export function signerOf(stored: StoredAccount): Hex {
  return (stored.smartAccount?.owner ?? stored.account.address) as Hex;
}

/**
 * Refuses a new account whose address or signing key is already one of `held`'s. An imported key
 * that owns a smart account held here (its key exported, then imported) is refused; so is a smart
 * account whose derived owner is an EOA held here (only possible when that owner key was
 * exported from an earlier install and imported).
 */
export function checkOneAccountPerKey(held: StoredAccount[], candidate: StoredAccount): void {
  const candidateSigner = signerOf(candidate);
  for (const known of held) {
    const knownSigner = signerOf(known);
    if (sameAddress(known.account.address, candidate.account.address)) {
      throw invalidParams(
        'options.privateKey',
        `is the key of an existing account ${known.account.address}`,
      );
    }
    if (!sameAddress(knownSigner, candidateSigner)) {
      continue;
    }
    if (known.smartAccount) {
      throw invalidParams(
        'options.privateKey',
        `is the owner key of the smart account ${known.account.address}: an EOA with that key could sign (personal_sign of a 32-byte message) what the smart account accepts as a user-operation signature, so it is not imported`,
      );
    }
    throw invalidRequest(
      `The smart account was not created: its owner key is the key of the account ${known.account.address} already in this keyring, and a message that account signs (personal_sign of a 32-byte message) could authorize the smart account's user operations. Remove ${known.account.address} first.`,
    );
  }
}
