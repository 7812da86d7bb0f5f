/**
 * Account keys. Derived keys come from snap_getEntropy with a salt per key domain and account
 * index (snaps may not ask for BIP-44 coin type 60), so state keeps only the index. A key lives
 * in a local variable for one signature and is never returned, logged or put in an error.
 *
 * Two domains, so that no EOA key is ever a smart account's owner key: SimpleAccount v0.6
 * accepts the owner's EIP-191 signature of a 32-byte user-operation hash, which an EOA may sign
 * with personal_sign. An EOA at index n and the owner of a smart account at index n therefore
 * come from different salts: a snap reinstalled (state gone, entropy the same) that hands out
 * index 0 again gives its new EOA another key than the old smart account's owner.
 */
import { keccak256, toHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import type { Hex } from '../evm/validation';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** `eoa`: an eip155:eoa account's key. `owner`: the owner key of an eip155:erc4337 account. */
export type KeyDomain = 'eoa' | 'owner';

/** The EOA salt is the one the first release used, so derived EOAs keep their addresses. */
const SALT_PREFIX: Record<KeyDomain, string> = {
  eoa: 'l2wallet-keyring:account:',
  owner: 'l2wallet-keyring:erc4337-owner:',
};

export function entropySalt(domain: KeyDomain, index: number): string {
  return `${SALT_PREFIX[domain]}${index}`;
}

/** Maps 32 bytes of entropy into [1, n-1], the valid private key range. */
function toPrivateKey(entropy: Hex): Hex {
  const scalar = (BigInt(keccak256(entropy)) % (SECP256K1_N - 1n)) + 1n;
  return toHex(scalar, { size: 32 });
}

/**
 * Keys derived in this execution, by salt. Memory only (an execution ends when the snap is
 * idle): snap_getEntropy costs a derivation from the secret each time, a signature should not.
 */
const derivedKeys = new Map<string, Promise<Hex>>();

export async function deriveKey(domain: KeyDomain, index: number): Promise<Hex> {
  const salt = entropySalt(domain, index);
  let key = derivedKeys.get(salt);
  if (!key) {
    key = snap
      .request({ method: 'snap_getEntropy', params: { version: 1, salt } })
      .then((entropy) => toPrivateKey(entropy as Hex));
    derivedKeys.set(salt, key);
    key.catch(() => derivedKeys.delete(salt));
  }
  return key;
}

export function isValidPrivateKey(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{64}$/u.test(value)) {
    return false;
  }
  const scalar = BigInt(value);
  return scalar > 0n && scalar < SECP256K1_N;
}

export function addressOfKey(privateKey: Hex): Hex {
  return privateKeyToAddress(privateKey);
}
