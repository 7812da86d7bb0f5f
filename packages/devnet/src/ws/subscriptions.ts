/**
 * The WebSocket API's subscriptions (starknet_ws_api.json of spec 0.10): each subscribe method's
 * params, checked as the spec says (its errors for too many keys or addresses, a block too far
 * back or unknown), and what each subscription lets through.
 */
import type { BlockId, Devnet } from '../core/devnet';
import { rpcErrors, StarknetRpcError } from '../core/errors';
import { Felt, parseFelt } from '../core/felt';
import { InvalidParamError } from '../core/transactions';
import { MAX_KEYS } from '../rpc/events';
import { normalizeParams, Params, parseBlockId } from '../rpc/params';

/** How far back a subscription may start (the spec's TOO_MANY_BLOCKS_BACK). */
export const MAX_BLOCKS_BACK = 1024;
/** sender_address entries one subscription may list (the spec's TOO_MANY_ADDRESSES_IN_FILTER). */
export const MAX_ADDRESSES = 1024;

export const wsErrors = {
  invalidSubscriptionId: () => new StarknetRpcError(66, 'Invalid subscription id'),
  tooManyAddresses: () =>
    new StarknetRpcError(67, 'Too many addresses in filter sender_address filter'),
  tooManyBlocksBack: () => new StarknetRpcError(68, 'Cannot go back more than 1024 blocks'),
};

export type FinalityStatus = 'RECEIVED' | 'CANDIDATE' | 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2';

export type Subscription =
  | { kind: 'newHeads'; from?: number }
  | { kind: 'events'; from: number; address?: Felt[]; keys: Felt[][]; preConfirmed: boolean }
  | { kind: 'transactionStatus'; hash: Felt }
  | { kind: 'newTransactions'; senders?: Set<Felt>; statuses: Set<FinalityStatus> }
  | { kind: 'newTransactionReceipts'; senders?: Set<Felt>; statuses: Set<FinalityStatus> };

/** Each subscribe method: its params by name in positional order. */
export const SUBSCRIBE_PARAMS = {
  starknet_subscribeNewHeads: ['block_id'],
  starknet_subscribeEvents: ['from_address', 'keys', 'block_id', 'finality_status'],
  starknet_subscribeTransactionStatus: ['transaction_hash'],
  // `tags` is starknet-devnet's and starknet.js's (INCLUDE_PROOF_FACTS); accepted, no effect here.
  starknet_subscribeNewTransactionReceipts: ['finality_status', 'sender_address'],
  starknet_subscribeNewTransactions: ['finality_status', 'sender_address', 'tags'],
} as const;

export type SubscribeMethod = keyof typeof SUBSCRIBE_PARAMS;

export function isSubscribeMethod(method: string): method is SubscribeMethod {
  return Object.prototype.hasOwnProperty.call(SUBSCRIBE_PARAMS, method);
}

/** Params by name or position; a name the method does not take is refused, as nodes do. */
export function namedParams(raw: unknown, names: readonly string[]): Params {
  const params = normalizeParams(raw, names);
  for (const name of Object.keys(params)) {
    if (!names.includes(name)) throw new InvalidParamError(name, 'unknown parameter');
  }
  for (const name of names) if (params[name] === null) delete params[name];
  return params;
}

function felt(value: unknown, name: string): Felt {
  try {
    return parseFelt(value);
  } catch (error) {
    throw new InvalidParamError(name, (error as Error).message);
  }
}

/**
 * The first block a subscription replays: the spec's SUBSCRIPTION_BLOCK_ID (a hash, a number or
 * `latest`; never `pre_confirmed` or `l1_accepted`), at most 1024 blocks back (68), known (24).
 */
function startBlock(devnet: Devnet, value: unknown): number {
  if (value === 'pre_confirmed' || value === 'l1_accepted') {
    throw new InvalidParamError('block_id', "expected 'latest', {block_number} or {block_hash}");
  }
  const id: BlockId = parseBlockId(value, 'block_id');
  const latest = devnet.latestBlock().number;
  const number = typeof id === 'object' && 'block_number' in id ? id.block_number : undefined;
  if (number !== undefined && number > latest) throw rpcErrors.blockNotFound();
  const block = number ?? devnet.resolveBlock(id).number;
  if (latest - block > MAX_BLOCKS_BACK) throw wsErrors.tooManyBlocksBack();
  return block;
}

function statusList(
  value: unknown,
  allowed: readonly FinalityStatus[],
  name: string,
): Set<FinalityStatus> {
  if (value === undefined) return new Set(['ACCEPTED_ON_L2']);
  if (!Array.isArray(value)) throw new InvalidParamError(name, 'expected an array of statuses');
  return new Set(
    value.map((status, i) => {
      if (!allowed.includes(status as FinalityStatus))
        throw new InvalidParamError(`${name}[${i}]`, `expected one of ${allowed.join(', ')}`);
      return status as FinalityStatus;
    }),
  );
}

function senders(value: unknown): Set<Felt> | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new InvalidParamError('sender_address', 'expected an array');
  if (value.length > MAX_ADDRESSES) throw wsErrors.tooManyAddresses();
  const list = value.map((a, i) => felt(a, `sender_address[${i}]`));
  return list.length === 0 ? undefined : new Set(list);
}

function eventKeys(value: unknown): Felt[][] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidParamError('keys', 'expected an array of arrays');
  const keys = value.map((alternatives, i) => {
    if (!Array.isArray(alternatives))
      throw new InvalidParamError(`keys[${i}]`, 'expected an array');
    return alternatives.map((k, j) => felt(k, `keys[${i}][${j}]`));
  });
  if (keys.flat().length > MAX_KEYS) throw rpcErrors.tooManyKeysInFilter();
  return keys;
}

/** A subscribe call's params as a subscription; throws the spec's error when they are wrong. */
export function parseSubscription(
  devnet: Devnet,
  method: SubscribeMethod,
  raw: unknown,
): Subscription {
  const p = namedParams(raw, SUBSCRIBE_PARAMS[method]);
  switch (method) {
    case 'starknet_subscribeNewHeads': {
      // A tag (latest) subscribes to new blocks only; a number or hash replays from there.
      const from = startBlock(devnet, p.block_id ?? 'latest');
      return { kind: 'newHeads', from: typeof p.block_id === 'object' ? from : undefined };
    }
    case 'starknet_subscribeEvents': {
      // One address per the spec; a list (starknet.js may send one) matches any of them.
      const addresses = Array.isArray(p.from_address) ? p.from_address : [p.from_address];
      const address =
        p.from_address === undefined
          ? undefined
          : addresses.map((a, i) =>
              felt(a, Array.isArray(p.from_address) ? `from_address[${i}]` : 'from_address'),
            );
      const keys = eventKeys(p.keys);
      const status = p.finality_status ?? 'ACCEPTED_ON_L2';
      if (status !== 'PRE_CONFIRMED' && status !== 'ACCEPTED_ON_L2') {
        throw new InvalidParamError(
          'finality_status',
          "expected 'PRE_CONFIRMED' or 'ACCEPTED_ON_L2'",
        );
      }
      const from = startBlock(devnet, p.block_id ?? 'latest');
      return { kind: 'events', from, address, keys, preConfirmed: status === 'PRE_CONFIRMED' };
    }
    case 'starknet_subscribeTransactionStatus':
      if (p.transaction_hash === undefined)
        throw new InvalidParamError('transaction_hash', 'missing');
      return { kind: 'transactionStatus', hash: felt(p.transaction_hash, 'transaction_hash') };
    case 'starknet_subscribeNewTransactionReceipts':
      return {
        kind: 'newTransactionReceipts',
        statuses: statusList(
          p.finality_status,
          ['PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
          'finality_status',
        ),
        senders: senders(p.sender_address),
      };
    case 'starknet_subscribeNewTransactions': {
      if (
        p.tags !== undefined &&
        (!Array.isArray(p.tags) || p.tags.some((t) => t !== 'INCLUDE_PROOF_FACTS'))
      )
        throw new InvalidParamError('tags', "expected an array of 'INCLUDE_PROOF_FACTS'");
      return {
        kind: 'newTransactions',
        statuses: statusList(
          p.finality_status,
          ['RECEIVED', 'CANDIDATE', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
          'finality_status',
        ),
        senders: senders(p.sender_address),
      };
    }
  }
}
