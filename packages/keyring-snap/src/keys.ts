/**
 * Account keys. Derived keys come from snap_getEntropy with a salt per account index (snaps may
 * not ask for BIP-44 coin type 60), so state keeps only the index. A key lives in a local
 * variable for one signature and is never returned, logged or put in an error.
 */
import { keccak256, toHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import type { Hex } from './validation';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export function entropySalt(index: number): string {
  return `l2wallet-keyring:account:${index}`;
}

/** Maps 32 bytes of entropy into [1, n-1], the valid private key range. */
function toPrivateKey(entropy: Hex): Hex {
  const scalar = (BigInt(keccak256(entropy)) % (SECP256K1_N - 1n)) + 1n;
  return toHex(scalar, { size: 32 });
}

/**
 * Keys derived in this execution, by index. Memory only (an execution ends when the snap is
 * idle): snap_getEntropy costs a derivation from the secret each time, a signature should not.
 */
const derivedKeys = new Map<number, Promise<Hex>>();

export async function deriveAccountKey(index: number): Promise<Hex> {
  let key = derivedKeys.get(index);
  if (!key) {
    key = snap
      .request({ method: 'snap_getEntropy', params: { version: 1, salt: entropySalt(index) } })
      .then((entropy) => toPrivateKey(entropy as Hex));
    derivedKeys.set(index, key);
    key.catch(() => derivedKeys.delete(index));
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
