/**
 * How long an answer stays true, per method and block parameter, for both protocols:
 * - forever: the chain id;
 * - immutable: by hash, or at a block at or below the chain's final block;
 * - head: a `latest` read, true until the next head;
 * - whenFinal: by transaction hash, immutable once the answer's block is final;
 * - none: not kept (pending / pre_confirmed, other tags, recent explicit blocks, everything else).
 * Every read may still be merged with an identical one in flight at the same head.
 */
import type { Protocol } from '../jsonrpc/methods';

export type Scope = 'forever' | 'immutable' | 'head' | 'whenFinal' | 'none';

/** Where the block parameter sits (position; Starknet also takes it by name, `block_id`). */
const EVM_BLOCK_PARAM: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_getBlockByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  eth_getProof: 2,
};

const EVM_FIXED: Record<string, Scope> = {
  eth_chainId: 'forever',
  net_version: 'forever',
  eth_blockNumber: 'head',
  eth_getBlockByHash: 'immutable',
  eth_getTransactionByBlockHashAndIndex: 'immutable',
  eth_getTransactionReceipt: 'whenFinal',
  eth_getTransactionByHash: 'whenFinal',
};

const STARKNET_BLOCK_PARAM: Record<string, number> = {
  starknet_call: 1,
  starknet_getNonce: 0,
  starknet_getStorageAt: 2,
  starknet_getClassHashAt: 0,
  starknet_getClassAt: 0,
  starknet_getClass: 0,
  starknet_getBlockWithTxHashes: 0,
  starknet_getBlockWithTxs: 0,
  starknet_getBlockWithReceipts: 0,
  starknet_getBlockTransactionCount: 0,
  starknet_getStateUpdate: 0,
  starknet_getTransactionByBlockIdAndIndex: 0,
};

const STARKNET_FIXED: Record<string, Scope> = {
  starknet_chainId: 'forever',
  starknet_specVersion: 'forever',
  starknet_blockNumber: 'head',
  starknet_blockHashAndNumber: 'head',
  starknet_getTransactionByHash: 'immutable',
  starknet_getTransactionReceipt: 'whenFinal',
};

const QUANTITY = /^0x[0-9a-fA-F]{1,16}$/;

function evmBlockScope(block: unknown, finalBlock: bigint | undefined): Scope {
  if (block === undefined || block === null || block === 'latest') return 'head';
  if (block === 'earliest') return 'immutable';
  let number: unknown = block;
  if (typeof block === 'object') {
    const tagged = block as { blockHash?: unknown; blockNumber?: unknown };
    if (typeof tagged.blockHash === 'string') return 'immutable';
    number = tagged.blockNumber;
  }
  if (typeof number === 'string' && QUANTITY.test(number) && finalBlock !== undefined) {
    return BigInt(number) <= finalBlock ? 'immutable' : 'none';
  }
  return 'none'; // pending, safe, finalized: they move without being a new head
}

function starknetBlockScope(block: unknown, finalBlock: bigint | undefined): Scope {
  if (block === 'latest') return 'head';
  if (typeof block !== 'object' || block === null) return 'none'; // pre_confirmed, l1_accepted
  const id = block as { block_hash?: unknown; block_number?: unknown };
  if (typeof id.block_hash === 'string') return 'immutable';
  if (typeof id.block_number === 'number' && finalBlock !== undefined) {
    return BigInt(id.block_number) <= finalBlock ? 'immutable' : 'none';
  }
  return 'none';
}

/** The scope of a call before it is sent (params as the client sent them). */
export function scopeOf(
  protocol: Protocol,
  method: string,
  params: unknown,
  finalBlock: bigint | undefined,
): Scope {
  if (protocol === 'evm') {
    const fixed = EVM_FIXED[method];
    if (fixed) return fixed;
    const index = EVM_BLOCK_PARAM[method];
    if (index === undefined) return 'none';
    return evmBlockScope((params as unknown[])[index], finalBlock);
  }
  const fixed = STARKNET_FIXED[method];
  if (fixed) return fixed;
  const index = STARKNET_BLOCK_PARAM[method];
  if (index === undefined) return 'none';
  const block = Array.isArray(params)
    ? params[index]
    : (params as Record<string, unknown> | undefined)?.block_id;
  return starknetBlockScope(block, finalBlock);
}

/**
 * The block an answer at an explicit block number is about (a reorg above it makes the answer
 * stale); undefined for tags and hashes.
 */
export function blockOf(protocol: Protocol, method: string, params: unknown): bigint | undefined {
  if (protocol === 'evm') {
    const index = EVM_BLOCK_PARAM[method];
    if (index === undefined) return undefined;
    let block = (params as unknown[])[index];
    if (block && typeof block === 'object')
      block = (block as { blockNumber?: unknown }).blockNumber;
    return typeof block === 'string' && QUANTITY.test(block) ? BigInt(block) : undefined;
  }
  const index = STARKNET_BLOCK_PARAM[method];
  if (index === undefined) return undefined;
  const block = Array.isArray(params)
    ? params[index]
    : (params as Record<string, unknown> | undefined)?.block_id;
  const number = (block as { block_number?: unknown } | null | undefined)?.block_number;
  return typeof number === 'number' ? BigInt(number) : undefined;
}

const BLOCK_NUMBER = /"blockNumber":"(0x[0-9a-fA-F]+)"/;

/** The block an EVM transaction or receipt answer is in (a reorg above it makes it stale). */
export function blockIn(result: string): bigint | undefined {
  const number = BLOCK_NUMBER.exec(result)?.[1];
  return number === undefined ? undefined : BigInt(number);
}

/** Whether an answer (its result's JSON text) may be kept for its scope. */
export function keepable(
  protocol: Protocol,
  scope: Scope,
  result: string,
  finalBlock: bigint | undefined,
): boolean {
  if (scope === 'none' || result === 'null') return false;
  if (scope !== 'whenFinal') return true;
  if (protocol === 'starknet') return result.includes('"finality_status":"ACCEPTED_ON_L1"');
  const number = BLOCK_NUMBER.exec(result)?.[1];
  return number !== undefined && finalBlock !== undefined && BigInt(number) <= finalBlock;
}
