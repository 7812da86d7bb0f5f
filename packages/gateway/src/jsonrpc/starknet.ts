/**
 * The Starknet method table (JSON-RPC 0.9 / 0.10) for chains with `"protocol": "starknet"`:
 * each method's params by name, as starknet.js sends them (an object), or by position. Credits
 * come from credits/costs.ts (STARKNET_COSTS). A method not listed, an `eth_*` method among
 * them, is -32601 and is not charged.
 */
import type { StarknetMethodName } from '../credits/costs';
import { type Check, opt, type Param, req } from './params';

const FELT = /^0x[0-9a-fA-F]{1,64}$/;
const TAGS = ['latest', 'pre_confirmed', 'l1_accepted'];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const felt: Check = (v) =>
  typeof v === 'string' && FELT.test(v) ? undefined : 'must be a felt (0x and 1 to 64 hex digits)';

export const blockId: Check = (v) => {
  if (typeof v === 'string') {
    return TAGS.includes(v)
      ? undefined
      : `must be one of ${TAGS.join(', ')} or a block hash/number`;
  }
  if (isObject(v)) {
    if (v.block_hash !== undefined) return felt(v.block_hash);
    if (Number.isSafeInteger(v.block_number) && (v.block_number as number) >= 0) return undefined;
  }
  return `must be one of ${TAGS.join(', ')}, {"block_hash": felt} or {"block_number": integer}`;
};

const object: Check = (v) => (isObject(v) ? undefined : 'must be an object');
const array: Check = (v) => (Array.isArray(v) ? undefined : 'must be an array');
const index: Check = (v) =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? undefined : 'must be a non-negative integer';

const read = (params: Param[]) => ({ params, retryable: true });
const write = (params: Param[]) => ({ params, retryable: false });
// The WebSocket API's calls: served by the connection's own upstream socket (server/ws/).
const ws = (params: Param[]) => ({ params, retryable: false, wsOnly: true });
const string: Check = (v) => (typeof v === 'string' ? undefined : 'must be a string');
const feltOrList: Check = (v) => (Array.isArray(v) ? array(v) : felt(v));

/** The subscribe methods of the spec's WebSocket API. */
export const STARKNET_SUBSCRIBE = new Set([
  'starknet_subscribeNewHeads',
  'starknet_subscribeEvents',
  'starknet_subscribeTransactionStatus',
  'starknet_subscribeNewTransactionReceipts',
  'starknet_subscribeNewTransactions',
]);

export const STARKNET_TABLE: Record<
  StarknetMethodName,
  { params: Param[]; retryable: boolean; wsOnly?: boolean }
> = {
  starknet_specVersion: read([]),
  starknet_chainId: read([]),
  starknet_syncing: read([]),
  starknet_blockNumber: read([]),
  starknet_blockHashAndNumber: read([]),
  starknet_getBlockWithTxHashes: read([req('block_id', blockId)]),
  starknet_getBlockWithTxs: read([req('block_id', blockId), opt('response_flags', array)]),
  starknet_getBlockWithReceipts: read([req('block_id', blockId), opt('response_flags', array)]),
  starknet_getBlockTransactionCount: read([req('block_id', blockId)]),
  starknet_getStateUpdate: read([req('block_id', blockId), opt('contract_addresses', array)]),
  starknet_getStorageAt: read([
    req('contract_address', felt),
    req('key', felt),
    req('block_id', blockId),
  ]),
  starknet_getTransactionStatus: read([req('transaction_hash', felt)]),
  starknet_getMessagesStatus: read([req('transaction_hash', felt)]),
  starknet_getTransactionByHash: read([
    req('transaction_hash', felt),
    opt('response_flags', array),
  ]),
  starknet_getTransactionByBlockIdAndIndex: read([
    req('block_id', blockId),
    req('index', index),
    opt('response_flags', array),
  ]),
  starknet_getTransactionReceipt: read([req('transaction_hash', felt)]),
  starknet_getClass: read([req('block_id', blockId), req('class_hash', felt)]),
  starknet_getClassHashAt: read([req('block_id', blockId), req('contract_address', felt)]),
  starknet_getClassAt: read([req('block_id', blockId), req('contract_address', felt)]),
  starknet_getNonce: read([req('block_id', blockId), req('contract_address', felt)]),
  starknet_call: read([req('request', object), req('block_id', blockId)]),
  starknet_estimateFee: read([
    req('request', array),
    req('simulation_flags', array),
    req('block_id', blockId),
  ]),
  starknet_estimateMessageFee: read([req('message', object), req('block_id', blockId)]),
  starknet_getEvents: read([req('filter', object)]),
  starknet_getStorageProof: read([
    req('block_id', blockId),
    opt('class_hashes', array),
    opt('contract_addresses', array),
    opt('contracts_storage_keys', array),
  ]),
  starknet_getCompiledCasm: read([req('class_hash', felt)]),
  starknet_simulateTransactions: read([
    req('block_id', blockId),
    req('transactions', array),
    req('simulation_flags', array),
    opt('trace_flags', array),
  ]),
  starknet_traceTransaction: read([req('transaction_hash', felt), opt('trace_flags', array)]),
  starknet_traceBlockTransactions: read([req('block_id', blockId), opt('trace_flags', array)]),
  // A transaction sent twice is refused as a duplicate, but a timeout may hide a success: no retry.
  starknet_addInvokeTransaction: write([req('invoke_transaction', object)]),
  starknet_addDeclareTransaction: write([req('declare_transaction', object)]),
  starknet_addDeployAccountTransaction: write([req('deploy_account_transaction', object)]),
  // The node checks the rest (its errors 24, 34, 66, 67, 68 are relayed).
  starknet_subscribeNewHeads: ws([opt('block_id', blockId)]),
  starknet_subscribeEvents: ws([
    opt('from_address', feltOrList),
    opt('keys', array),
    opt('block_id', blockId),
    opt('finality_status', string),
  ]),
  starknet_subscribeTransactionStatus: ws([req('transaction_hash', felt)]),
  starknet_subscribeNewTransactionReceipts: ws([
    opt('finality_status', array),
    opt('sender_address', array),
  ]),
  starknet_subscribeNewTransactions: ws([
    opt('finality_status', array),
    opt('sender_address', array),
    opt('tags', array),
  ]),
  starknet_unsubscribe: ws([req('subscription_id', string)]),
};
