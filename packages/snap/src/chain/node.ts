/**
 * Per-network access to the Starknet node: one RpcClient and one ExplorerClient per chain, and
 * the reads and writes the chain methods share. Reads that a method needs together go out as
 * one JSON-RPC batch.
 */
import { hash } from 'starknet';

import { getNetwork, type Network } from '../networks';
import { Mutex } from '../state/mutex';
import { toChainError } from './errors';
import { ExplorerClient } from './explorer';
import { parseFeeEstimate, type FeeEstimate } from './fees';
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import { describeEndpoint, RpcClient, StarknetRpcError, unavailability, type RpcCall } from './rpc';
import type { SignedTransaction } from './transactions';

export type BlockTag = 'latest' | 'pre_confirmed';

export type ChainContext = {
  network: Network;
  rpc: RpcClient;
  /** Only when the build names an explorer: the history comes from the node either way. */
  explorer?: ExplorerClient;
};

const contexts = new Map<string, ChainContext>();

/** The node and explorer of a network the params struct has already accepted. */
export function getChain(chainId: string): ChainContext {
  const network = getNetwork(chainId);
  let context = contexts.get(network.chainId);
  if (!context) {
    context = {
      network,
      rpc: new RpcClient(network.rpcUrl),
      explorer: network.explorerUrl ? new ExplorerClient(network.explorerUrl) : undefined,
    };
    contexts.set(network.chainId, context);
  }
  return context;
}

export const CONTRACT_NOT_FOUND = 20;

export function classHashAtCall(address: string, block: BlockTag = 'pre_confirmed'): RpcCall {
  return {
    method: 'starknet_getClassHashAt',
    params: { block_id: block, contract_address: address },
  };
}

export function nonceCall(address: string, block: BlockTag = 'pre_confirmed'): RpcCall {
  return { method: 'starknet_getNonce', params: { block_id: block, contract_address: address } };
}

export function viewCall(
  contractAddress: string,
  entrypoint: string,
  calldata: readonly string[],
  block: BlockTag = 'latest',
): RpcCall {
  return {
    method: 'starknet_call',
    params: {
      request: {
        contract_address: contractAddress,
        entry_point_selector: hash.getSelectorFromName(entrypoint),
        calldata: [...calldata],
      },
      block_id: block,
    },
  };
}

export type AccountChainState = { deployed: boolean; nonce: bigint };

/** Whether the account is deployed, and its nonce: one round trip. */
export async function readAccountState(
  rpc: RpcClient,
  address: string,
): Promise<AccountChainState> {
  const [classHash, nonce] = await rpc.batch<string>([
    classHashAtCall(address),
    nonceCall(address),
  ]);
  if (!classHash.ok) {
    if (classHash.error.code === CONTRACT_NOT_FOUND) {
      return { deployed: false, nonce: 0n };
    }
    throw toChainError(classHash.error, 'Reading the account');
  }
  if (!nonce.ok) {
    throw toChainError(nonce.error, 'Reading the account nonce');
  }
  return { deployed: true, nonce: BigInt(nonce.result) };
}

export async function readNonce(rpc: RpcClient, address: string): Promise<bigint> {
  try {
    return BigInt(await rpc.request<string>(nonceCall(address).method, nonceCall(address).params));
  } catch (error) {
    if (error instanceof StarknetRpcError && error.code === CONTRACT_NOT_FOUND) {
      return 0n;
    }
    throw toChainError(error, 'Reading the account nonce');
  }
}

/** Estimates transactions that run one after another (e.g. deploy then invoke): one round trip. */
export async function estimateTransactions(
  rpc: RpcClient,
  transactions: readonly SignedTransaction[],
  skipValidate: boolean,
): Promise<FeeEstimate[]> {
  try {
    const result = await rpc.request<unknown[]>('starknet_estimateFee', {
      request: transactions.map((tx) => tx.payload),
      simulation_flags: skipValidate ? ['SKIP_VALIDATE'] : [],
      block_id: 'pre_confirmed',
    });
    if (!Array.isArray(result) || result.length !== transactions.length) {
      throw new Error('The node answered the fee estimate with the wrong number of entries');
    }
    return result.map(parseFeeEstimate);
  } catch (error) {
    throw toChainError(error, 'Fee estimation');
  }
}

const SUBMIT_METHOD: Record<string, string> = {
  INVOKE: 'starknet_addInvokeTransaction',
  DEPLOY_ACCOUNT: 'starknet_addDeployAccountTransaction',
  DECLARE: 'starknet_addDeclareTransaction',
};

const SUBMIT_PARAM: Record<string, string> = {
  INVOKE: 'invoke_transaction',
  DEPLOY_ACCOUNT: 'deploy_account_transaction',
  DECLARE: 'declare_transaction',
};

/** Sends a signed transaction; returns the hash the node reports. */
export async function submitTransaction(
  rpc: RpcClient,
  signed: SignedTransaction,
  action: string,
): Promise<string> {
  const type = String(signed.payload.type);
  try {
    const result = await rpc.request<{ transaction_hash: string }>(SUBMIT_METHOD[type], {
      [SUBMIT_PARAM[type]]: signed.payload,
    });
    return result.transaction_hash;
  } catch (error) {
    const { unavailable, timedOut, retryable } = unavailability(error);
    if (unavailable && !timedOut && !retryable) {
      // The node refused the request (e.g. HTTP 401): the transaction was not taken.
      throw error;
    }
    if (unavailable && timedOut) {
      // The request went out; the node may have taken the transaction. A blind retry could
      // send it twice, so the caller gets the hash to check first.
      throw new ResourceUnavailableError(
        `${action}: the Starknet node (${describeEndpoint(rpc.url)}) did not answer in time after the transaction was sent, so it may have been accepted. Check l2_getTransactionStatus for ${signed.hash} before sending it again.`,
        { retryable: false, timedOut: true, transactionHash: signed.hash },
      );
    }
    if (unavailable) {
      throw new ResourceUnavailableError(
        `${action}: the Starknet node (${describeEndpoint(rpc.url)}) could not be reached, so the transaction was not sent. Nothing was changed in the snap; try again when the node is reachable.`,
        { retryable: true, transactionHash: signed.hash },
      );
    }
    throw toChainError(error, action);
  }
}

const nonceLocks = new Map<string, Mutex>();
const lastSubmittedNonce = new Map<string, bigint>();
const localDeploys = new Map<string, string>();

function accountKey(chainId: string, address: string): string {
  return `${chainId}:${BigInt(address).toString(16)}`;
}

/**
 * Runs `task` while holding the account's submission lock: one submission (or deploy + invoke)
 * at a time per account.
 */
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

/** Whether a submission failed because the node rejected its nonce (JSON-RPC error 52). */
export function isInvalidNonceError(error: unknown): boolean {
  if (error instanceof StarknetRpcError) {
    return error.code === INVALID_NONCE;
  }
  const data = (error as { data?: { nodeCode?: unknown } } | undefined)?.data;
  return typeof data === 'object' && data !== null && data.nodeCode === INVALID_NONCE;
}

export const INVALID_NONCE = 52;

/**
 * After a failed submission: earlier submissions may still be pending, so the local nonce is
 * kept; only when the node says the nonce is invalid is the chain's nonce the truth again.
 */
export function noteFailedSubmission(chainId: string, address: string, error: unknown): void {
  if (isInvalidNonceError(error)) {
    lastSubmittedNonce.delete(accountKey(chainId, address));
  }
}

/**
 * Runs `submit` with the next nonce of `address`, one submission at a time per account. The
 * nonce is the larger of the chain's (pre_confirmed) and one past the last nonce this snap
 * submitted, so concurrent approved transactions get distinct, consecutive nonces even while
 * the earlier ones are still pending.
 */
export async function withNextNonce<T>(
  chainId: string,
  address: string,
  readChainNonce: () => Promise<bigint>,
  submit: (nonce: bigint) => Promise<T>,
): Promise<T> {
  return withAccountLock(chainId, address, async () => {
    const nonce = nextNonce(chainId, address, await readChainNonce());
    let result: T;
    try {
      result = await submit(nonce);
    } catch (error) {
      noteFailedSubmission(chainId, address, error);
      throw error;
    }
    noteSubmittedNonce(chainId, address, nonce);
    return result;
  });
}

/** Records that a nonce was used outside withNextNonce (explicit details.nonce, deploy). */
export function noteSubmittedNonce(chainId: string, address: string, nonce: bigint): void {
  const key = accountKey(chainId, address);
  const local = lastSubmittedNonce.get(key);
  if (local === undefined || nonce > local) {
    lastSubmittedNonce.set(key, nonce);
  }
}

/** Records the account's DEPLOY_ACCOUNT this snap sent (nonce 0). */
export function noteDeploySubmitted(chainId: string, address: string, txHash: string): void {
  localDeploys.set(accountKey(chainId, address), txHash);
  noteSubmittedNonce(chainId, address, 0n);
}

/** The hash of the DEPLOY_ACCOUNT this snap sent for the account, if any. */
export function localDeployHash(chainId: string, address: string): string | undefined {
  return localDeploys.get(accountKey(chainId, address));
}
