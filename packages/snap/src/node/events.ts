/**
 * The fee-token Transfer events that involve an account, read from the node with
 * `starknet_getEvents`. Every transaction an account sends pays its fee with a STRK (v3) or ETH
 * Transfer whose `from` key is the account, reverted ones, deploys and declares included, so
 * the `from` key finds all of them; the `to` key finds incoming transfers.
 *
 * The block range is cut into a few segments read side by side: each (segment, key, token)
 * cursor reads pages of `pageSize` events and follows its continuation token, and one JSON-RPC
 * batch carries the next page of every cursor still open.
 */
import { ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';

import { selectorOf } from '../starknet/selectors';
import type { RpcCall, RpcClient } from './client';
import { toChainError } from './errors';
import type { SpecSupport } from './specVersion';

export const FEE_TOKENS = [STRK_TOKEN_ADDRESS, ETH_TOKEN_ADDRESS] as const;

const TRANSFER_KEY = selectorOf('Transfer');

/** Segments of the block range read side by side. */
export const SEGMENTS = 4;
/** Batches of pages read at most, so one call stays bounded however busy the account is. */
export const MAX_EVENT_ROUNDS = 25;

export type AccountEvent = {
  transactionHash: string;
  blockNumber: number;
  /** The token that emitted the Transfer. */
  token: string;
  /** The account is the Transfer's `from` (it sent or paid) rather than only its `to`. */
  sent: boolean;
};

type Cursor = {
  filter: Record<string, unknown>;
  sent: boolean;
  token?: string;
  continuation?: string;
};

type EventsPage = {
  events?: { transaction_hash?: string; block_number?: number; from_address?: string }[];
  continuation_token?: string;
};

function segmentsOf(fromBlock: number, toBlock: number): [number, number][] {
  const blocks = toBlock - fromBlock + 1;
  const count = Math.max(1, Math.min(SEGMENTS, blocks));
  const size = Math.ceil(blocks / count);
  const segments: [number, number][] = [];
  for (let start = fromBlock; start <= toBlock; start += size) {
    segments.push([start, Math.min(toBlock, start + size - 1)]);
  }
  return segments;
}

function cursorsFor(
  account: string,
  fromBlock: number,
  toBlock: number,
  pageSize: number,
  spec: SpecSupport,
): Cursor[] {
  // 0.10 takes both tokens in one filter; 0.9 takes one address per filter.
  const tokenSets: (string | string[])[] = spec.eventAddressList
    ? [[...FEE_TOKENS]]
    : [...FEE_TOKENS];
  const cursors: Cursor[] = [];
  for (const [start, end] of segmentsOf(fromBlock, toBlock)) {
    for (const address of tokenSets) {
      for (const sent of [true, false]) {
        cursors.push({
          sent,
          token: typeof address === 'string' ? address : undefined,
          filter: {
            from_block: { block_number: start },
            to_block: { block_number: end },
            address,
            keys: sent ? [[TRANSFER_KEY], [account]] : [[TRANSFER_KEY], [], [account]],
            chunk_size: pageSize,
          },
        });
      }
    }
  }
  return cursors;
}

function pageCall(cursor: Cursor): RpcCall {
  const filter =
    cursor.continuation === undefined
      ? cursor.filter
      : { ...cursor.filter, continuation_token: cursor.continuation };
  return { method: 'starknet_getEvents', params: { filter } };
}

/** Every fee-token Transfer from or to `account` in [fromBlock, toBlock], one per transaction. */
export async function readAccountEvents(
  rpc: RpcClient,
  spec: SpecSupport,
  account: string,
  fromBlock: number,
  toBlock: number,
  pageSize: number,
): Promise<AccountEvent[]> {
  if (toBlock < fromBlock) {
    return [];
  }
  const byHash = new Map<string, AccountEvent>();
  let open = cursorsFor(account, fromBlock, toBlock, pageSize, spec);
  for (let round = 0; round < MAX_EVENT_ROUNDS && open.length > 0; round += 1) {
    const answers = await rpc.batch<EventsPage>(open.map(pageCall));
    const next: Cursor[] = [];
    answers.forEach((answer, index) => {
      if (!answer.ok) {
        throw toChainError(answer.error, 'Reading the account history');
      }
      const cursor = open[index];
      for (const event of answer.result.events ?? []) {
        if (typeof event.transaction_hash !== 'string' || typeof event.block_number !== 'number') {
          continue;
        }
        const key = BigInt(event.transaction_hash).toString(16);
        const known = byHash.get(key);
        if (!known || (cursor.sent && !known.sent)) {
          byHash.set(key, {
            transactionHash: `0x${key}`,
            blockNumber: event.block_number,
            token: event.from_address ?? cursor.token ?? STRK_TOKEN_ADDRESS,
            sent: cursor.sent,
          });
        }
      }
      if (answer.result.continuation_token) {
        next.push({ ...cursor, continuation: answer.result.continuation_token });
      }
    });
    open = next;
  }
  return [...byHash.values()];
}
