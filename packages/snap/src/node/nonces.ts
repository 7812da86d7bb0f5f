/**
 * The snap's own view of each account's nonces, for the life of its execution: one submission at
 * a time per account, and the next nonce is the larger of the chain's and one past the last this
 * snap submitted, so concurrent approved transactions get distinct, consecutive nonces even while
 * the earlier ones are still pending. It also remembers the DEPLOY_ACCOUNT it sent per account.
 */
import { Mutex } from '../mutex';
import { StarknetRpcError } from './client';
import { INVALID_NONCE } from './chain';

const nonceLocks = new Map<string, Mutex>();
const lastSubmittedNonce = new Map<string, bigint>();
/** The pre_confirmed nonce of each deployed account as the snap last read it. */
const lastReadNonce = new Map<string, bigint>();
const localDeploys = new Map<string, string>();

function accountKey(chainId: string, address: string): string {
  return `${chainId}:${BigInt(address).toString(16)}`;
}

/** Runs `task` while holding the account's submission lock: one submission at a time. */
export async function withAccountLock<T>(
  chainId: string,
  address: string,
  task: () => Promise<T>,
): Promise<T> {
  const key = accountKey(chainId, address);
  let lock = nonceLocks.get(key);
  if (!lock) {
    lock = new Mutex();
    nonceLocks.set(key, lock);
  }
  return lock.runExclusive(task);
}

/**
 * The next nonce of the account: the larger of the chain's and one past the last nonce this
 * snap submitted. Call it with the account's lock held.
 */
export function nextNonce(chainId: string, address: string, chainNonce: bigint): bigint {
  const local = lastSubmittedNonce.get(accountKey(chainId, address));
  return local !== undefined && local + 1n > chainNonce ? local + 1n : chainNonce;
}

/** Records the pre_confirmed nonce a read of the deployed account found. */
export function noteReadNonce(chainId: string, address: string, nonce: bigint): void {
  lastReadNonce.set(accountKey(chainId, address), nonce);
}

/**
 * The nonce the account's next read is expected to find (one past the last this snap submitted,
 * else the last read), or undefined when this execution knows nothing of it. A guess that only
 * lets a simulation ride along with that read: its answer is used only when the read agrees.
 */
export function expectedNonce(chainId: string, address: string): bigint | undefined {
  const key = accountKey(chainId, address);
  const read = lastReadNonce.get(key);
  const local = lastSubmittedNonce.get(key);
  if (local === undefined) {
    return read;
  }
  return read !== undefined && read > local ? read : local + 1n;
}

/** Whether a submission failed because the node rejected its nonce (JSON-RPC error 52). */
export function isInvalidNonceError(error: unknown): boolean {
  if (error instanceof StarknetRpcError) {
    return error.code === INVALID_NONCE;
  }
  const data = (error as { data?: { nodeCode?: unknown } } | undefined)?.data;
  return typeof data === 'object' && data !== null && data.nodeCode === INVALID_NONCE;
}

/**
 * After a failed submission: earlier submissions may still be pending, so the local nonce is
 * kept; only when the node says the nonce is invalid is the chain's nonce the truth again.
 */
export function noteFailedSubmission(chainId: string, address: string, error: unknown): void {
  if (isInvalidNonceError(error)) {
    lastSubmittedNonce.delete(accountKey(chainId, address));
  }
}

/** Records that `nonce` was submitted. */
export function noteSubmittedNonce(chainId: string, address: string, nonce: bigint): void {
  const key = accountKey(chainId, address);
  const local = lastSubmittedNonce.get(key);
  if (local === undefined || nonce > local) {
    lastSubmittedNonce.set(key, nonce);
  }
}

/**
 * Runs `submit` with the next nonce of `address` (or `fixedNonce`, the caller's), under the
 * account's lock, and notes the outcome.
 */
export async function withNextNonce<T>(
  chainId: string,
  address: string,
  readChainNonce: () => Promise<bigint>,
  submit: (nonce: bigint) => Promise<T>,
  fixedNonce?: bigint,
): Promise<T> {
  return withAccountLock(chainId, address, async () =>
    submitWithNonce(
      chainId,
      address,
      fixedNonce ?? nextNonce(chainId, address, await readChainNonce()),
      submit,
    ),
  );
}

/** Submits with `nonce` and notes the outcome. Call it with the account's lock held. */
export async function submitWithNonce<T>(
  chainId: string,
  address: string,
  nonce: bigint,
  submit: (nonce: bigint) => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await submit(nonce);
  } catch (error) {
    noteFailedSubmission(chainId, address, error);
    throw error;
  }
  noteSubmittedNonce(chainId, address, nonce);
  return result;
}

/**
 * Records the account's deployment this snap sent: a DEPLOY_ACCOUNT (nonce 0), or a relayer's
 * transaction that deploys it (`usedNonce` false: the account's nonce stays 0, expected next).
 */
export function noteDeploySubmitted(
  chainId: string,
  address: string,
  txHash: string,
  usedNonce = true,
): void {
  localDeploys.set(accountKey(chainId, address), txHash);
  const key = accountKey(chainId, address);
  if (usedNonce) {
    noteSubmittedNonce(chainId, address, 0n);
  } else if (!lastReadNonce.has(key) && !lastSubmittedNonce.has(key)) {
    lastReadNonce.set(key, 0n);
  }
}

/** The hash of the DEPLOY_ACCOUNT this snap sent for the account, if any. */
export function localDeployHash(chainId: string, address: string): string | undefined {
  return localDeploys.get(accountKey(chainId, address));
}
