/**
 * On-chain reads of account contracts: the owner key of a deployed Argent account, and
 * signature checks through the account's own is_valid_signature (SNIP-6).
 */
import { classHashAtCall, CONTRACT_ERROR, CONTRACT_NOT_FOUND, getChain, viewCall } from './chain';
import { toChainError } from './errors';

/** 'VALID' as a short string: what SNIP-6 is_valid_signature returns on success. */
const VALID = BigInt('0x56414c4944');

/** The account's public key on chain (Argent get_owner), or undefined when not deployed. */
export async function readOnChainPublicKey(
  address: string,
  chainId: string,
): Promise<string | undefined> {
  const { rpc } = getChain(chainId);
  const [classHash, owner] = await rpc.batch<unknown>([
    classHashAtCall(address, 'latest'),
    viewCall(address, 'get_owner', [], 'latest'),
  ]);
  if (!classHash.ok) {
    if (classHash.error.code === CONTRACT_NOT_FOUND) {
      return undefined;
    }
    throw toChainError(classHash.error, 'Reading the account');
  }
  if (!owner.ok) {
    throw toChainError(owner.error, 'Reading the account owner (get_owner)');
  }
  const [key] = owner.result as string[];
  return `0x${BigInt(key).toString(16)}`;
}

/**
 * Asks the account contract whether `signature` signs `messageHash`. A deployed account that
 * rejects the signature (returns anything but VALID, or fails on it) gives false; an address
 * with no contract is an error the caller reports.
 */
export async function verifyOnChain(
  address: string,
  messageHash: string,
  signature: readonly string[],
  chainId: string,
): Promise<{ deployed: boolean; valid: boolean }> {
  const { rpc } = getChain(chainId);
  const calldata = [messageHash, `0x${signature.length.toString(16)}`, ...signature];
  const [classHash, result] = await rpc.batch<unknown>([
    classHashAtCall(address, 'latest'),
    viewCall(address, 'is_valid_signature', calldata, 'latest'),
  ]);
  if (!classHash.ok) {
    if (classHash.error.code === CONTRACT_NOT_FOUND) {
      return { deployed: false, valid: false };
    }
    throw toChainError(classHash.error, 'Reading the account');
  }
  if (!result.ok) {
    // Contract errors (code 40) mean the account refused the signature.
    if (result.error.code === CONTRACT_ERROR) {
      return { deployed: true, valid: false };
    }
    throw toChainError(result.error, 'Verifying the signature on chain');
  }
  const [answer] = result.result as string[];
  return { deployed: true, valid: answer !== undefined && BigInt(answer) === VALID };
}
