/**
 * Stark-curve ECDSA with an account key. Signatures are [r, s] as 0x-hex.
 */
import { ec } from 'starknet';

import type { AccountKey } from '.';

/** Signs a hash given in any hex or decimal spelling (padded to 32 bytes for the curve). */
export function signWithPrivateKey(privateKey: string, messageHash: string): string[] {
  const padded = BigInt(messageHash).toString(16).padStart(64, '0');
  const signature = ec.starkCurve.sign(padded, privateKey);
  return [`0x${signature.r.toString(16)}`, `0x${signature.s.toString(16)}`];
}

export function signHash(key: AccountKey, messageHash: string): string[] {
  return signWithPrivateKey(key.privateKey, messageHash);
}

/** False for anything malformed: wrong length, values off the curve order, bad hex. */
export function verifyHash(key: AccountKey, messageHash: string, signature: string[]): boolean {
  if (signature.length !== 2) {
    return false;
  }
  try {
    const [r, s] = signature.map((value) => BigInt(value));
    const fullPublicKey = ec.starkCurve.getPublicKey(key.privateKey, false);
    return ec.starkCurve.verify(new ec.starkCurve.Signature(r, s), messageHash, fullPublicKey);
  } catch {
    return false;
  }
}
