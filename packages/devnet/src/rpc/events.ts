import type { Block, TransactionRecord } from '../core/blocks';
import type { BlockId, Devnet } from '../core/devnet';
import { rpcErrors } from '../core/errors';
import { Felt, parseFelt, toHex } from '../core/felt';
import { InvalidParamError } from '../core/transactions';
import { parseBlockId } from './params';

const MAX_CHUNK_SIZE = 1000;
export const MAX_KEYS = 100;

interface EventFilter {
  fromBlock: number;
  toBlock: number;
  address?: Felt[];
  keys: Felt[][];
  chunkSize: number;
  continuation?: { block: number; offset: number };
}

function blockNumberOf(devnet: Devnet, value: unknown, name: string, fallback: BlockId): number {
  return devnet.resolveBlock(value === undefined ? fallback : parseBlockId(value, name)).number;
}

function parseFilter(devnet: Devnet, raw: unknown, addressList: boolean): EventFilter {
  if (!raw || typeof raw !== 'object') throw new InvalidParamError('filter', 'expected an object');
  const f = raw as Record<string, unknown>;
  const chunkSize = f.chunk_size;
  if (typeof chunkSize !== 'number' || !Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new InvalidParamError('filter.chunk_size', 'expected a positive integer');
  }
  if (chunkSize > MAX_CHUNK_SIZE) throw rpcErrors.pageSizeTooBig();
  let keys: Felt[][] = [];
  if (f.keys !== undefined) {
    if (!Array.isArray(f.keys))
      throw new InvalidParamError('filter.keys', 'expected an array of arrays');
    keys = f.keys.map((alternatives, i) => {
      if (!Array.isArray(alternatives))
        throw new InvalidParamError(`filter.keys[${i}]`, 'expected an array');
      return alternatives.map((k, j) => {
        try {
          return parseFelt(k);
        } catch (error) {
          throw new InvalidParamError(`filter.keys[${i}][${j}]`, (error as Error).message);
        }
      });
    });
    if (keys.flat().length > MAX_KEYS) {
      throw rpcErrors.tooManyKeysInFilter();
    }
  }
  let continuation: EventFilter['continuation'];
  if (f.continuation_token !== undefined) {
    const match =
      typeof f.continuation_token === 'string' && /^(\d+)-(\d+)$/.exec(f.continuation_token);
    if (!match) throw rpcErrors.invalidContinuationToken();
    continuation = { block: Number(match[1]), offset: Number(match[2]) };
  }
  // RPC 0.10: ADDRESS | ADDRESS[]; an event matches when it comes from any of them. An empty
  // list filters nothing, as an empty key position does.
  let address: Felt[] | undefined;
  if (f.address !== undefined) {
    if (Array.isArray(f.address) && !addressList)
      throw new InvalidParamError('filter.address', 'expected one address (JSON-RPC 0.9)');
    const list = Array.isArray(f.address) ? f.address : [f.address];
    address = list.map((a, i) => {
      try {
        return parseFelt(a);
      } catch (error) {
        const field = Array.isArray(f.address) ? `filter.address[${i}]` : 'filter.address';
        throw new InvalidParamError(field, (error as Error).message);
      }
    });
    if (address.length === 0) address = undefined;
  }
  return {
    fromBlock: blockNumberOf(devnet, f.from_block, 'filter.from_block', { block_number: 0 }),
    toBlock: blockNumberOf(devnet, f.to_block, 'filter.to_block', 'latest'),
    address,
    keys,
    chunkSize,
    continuation,
  };
}

export function keysMatch(eventKeys: Felt[], filter: Felt[][]): boolean {
  for (let i = 0; i < filter.length; i += 1) {
    if (filter[i].length === 0) continue;
    if (i >= eventKeys.length || !filter[i].includes(eventKeys[i])) return false;
  }
  return true;
}

/** starknet_getEvents: filtered events in block order, paged by a "block-offset" token. */
export function getEvents(
  devnet: Devnet,
  rawFilter: unknown,
  { addressList = true }: { addressList?: boolean } = {},
): Record<string, unknown> {
  const filter = parseFilter(devnet, rawFilter, addressList);
  const start = filter.continuation ?? { block: filter.fromBlock, offset: 0 };
  if (start.block < filter.fromBlock || start.block > filter.toBlock + 1)
    throw rpcErrors.invalidContinuationToken();
  const events: Record<string, unknown>[] = [];
  for (let number = start.block; number <= filter.toBlock; number += 1) {
    const block: Block = number === devnet.pending.number ? devnet.pending : devnet.blocks[number];
    let offset = 0;
    for (const record of block.transactions) {
      for (let eventIndex = 0; eventIndex < record.events.length; eventIndex += 1, offset += 1) {
        if (number === start.block && offset < start.offset) continue;
        const event = record.events[eventIndex];
        if (filter.address !== undefined && !filter.address.includes(event.fromAddress)) continue;
        if (!keysMatch(event.keys, filter.keys)) continue;
        if (events.length === filter.chunkSize) {
          return { events, continuation_token: `${number}-${offset}` };
        }
        events.push(emittedEventJson(block, record, eventIndex));
      }
    }
  }
  return { events };
}

/** EMITTED_EVENT: an event with where it was emitted; a pre-confirmed block has no hash yet. */
export function emittedEventJson(
  block: Block,
  record: TransactionRecord,
  index: number,
): Record<string, unknown> {
  const event = record.events[index];
  return {
    from_address: toHex(event.fromAddress),
    keys: event.keys.map((k) => toHex(k)),
    data: event.data.map((d) => toHex(d)),
    ...(block.hash !== undefined ? { block_hash: toHex(block.hash) } : {}),
    block_number: block.number,
    transaction_hash: toHex(record.hash),
    transaction_index: record.index,
    event_index: index,
  };
}
