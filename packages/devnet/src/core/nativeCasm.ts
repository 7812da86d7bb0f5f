import { ARGENT_ACCOUNT_CLASS_HASH } from './constants';
import { Felt } from './felt';

// The compiled class hashes this devnet knows for its native classes: those whose CASM could be
// hashed (argent-contracts-starknet's deployed artifact of account 0.3.1 and its
// compiled_contract_class, hashed with starknet.js's computeCompiledClassHash). A declare of such
// a class with another compiled class hash is refused with 60, as a node that compiles it
// would. The other native classes (OpenZeppelin account, ERC-20, UDCs, l1_l2) have no CASM here.

export interface CompiledClassHashes {
  /** Since Starknet 0.14.1 (the version this devnet reports): Blake2s over the CASM. */
  blake: Felt;
  /** Before Starknet 0.14.1: Poseidon over the CASM. */
  poseidon: Felt;
}

export const NATIVE_COMPILED_CLASS_HASHES = new Map<Felt, CompiledClassHashes>([
  [
    BigInt(ARGENT_ACCOUNT_CLASS_HASH),
    {
      blake: 0x66c941031ca97b7b3f3dc4c7f548f71b5f09a3f0a79146955aef51110680ed8n,
      poseidon: 0x1ec590df0895ac187b176f08fc1e77eb79bc0ac09427f871180a1b0d7df2266n,
    },
  ],
]);

/**
 * Whether a Starknet version (x.y.z) is at least 0.14.1, where compiled classes hash with Blake2s.
 */
export function hashesCasmWithBlake(starknetVersion: string): boolean {
  const [major, minor, patch] = starknetVersion.split('.').map(Number);
  return major > 0 || minor > 14 || (minor === 14 && patch >= 1);
}

/**
 * The compiled class hash a declare of `classHash` must carry on a chain of `starknetVersion`,
 * when this devnet knows the class's CASM.
 */
export function expectedCompiledClassHash(
  classHash: Felt,
  starknetVersion: string,
): Felt | undefined {
  const known = NATIVE_COMPILED_CLASS_HASHES.get(classHash);
  if (!known) return undefined;
  return hashesCasmWithBlake(starknetVersion) ? known.blake : known.poseidon;
}
