/**
 * The first block of a time window (`txnsInLastNumOfDays`), found by a search on block
 * timestamps. A block's timestamp never changes, so every header read is kept per network for
 * the life of the snap's execution: the next search starts between the nearest known blocks.
 * Each round is one JSON-RPC batch of probes, half spread evenly over the open interval and half
 * around the block that interpolating the known timestamps points at (one round on a chain with
 * steady block times).
 */
import type { RpcClient } from './client';
import { toChainError } from './errors';

export const PROBES_PER_ROUND = 64;
export const MAX_SEARCH_ROUNDS = 8;

export type BlockStamp = { number: number; timestamp: number };

const timestampsByChain = new Map<string, Map<number, number>>();

/** The known timestamps of a network's blocks (block number -> Unix seconds). */
export function knownTimestamps(chainId: string): Map<number, number> {
  let known = timestampsByChain.get(chainId);
  if (!known) {
    known = new Map();
    timestampsByChain.set(chainId, known);
  }
  return known;
}

export function headerCall(blockNumber: number | 'latest') {
  return {
    method: 'starknet_getBlockWithTxHashes',
    params: { block_id: blockNumber === 'latest' ? 'latest' : { block_number: blockNumber } },
  };
}

export function stampOf(header: unknown): BlockStamp | undefined {
  const value = header as { block_number?: unknown; timestamp?: unknown } | null;
  return typeof value?.block_number === 'number' && typeof value.timestamp === 'number'
    ? { number: value.block_number, timestamp: value.timestamp }
    : undefined;
}

/** The nearest known blocks around `since`: the last before it and the first at or after it. */
function bracket(known: Map<number, number>, since: number, latest: BlockStamp) {
  let below: BlockStamp | undefined;
  let above: BlockStamp = latest;
  for (const [number, timestamp] of known) {
    if (number > latest.number) {
      continue;
    }
    if (timestamp < since) {
      if (!below || number > below.number) {
        below = { number, timestamp };
      }
    } else if (number < above.number) {
      above = { number, timestamp };
    }
  }
  return { below, above };
}

function probesBetween(below: BlockStamp | undefined, above: BlockStamp, since: number): number[] {
  const low = below ? below.number + 1 : 0;
  const high = above.number - 1;
  const span = high - low + 1;
  if (span <= PROBES_PER_ROUND) {
    return Array.from({ length: span }, (_, index) => low + index);
  }
  const picks = new Set<number>([low]);
  const even = PROBES_PER_ROUND / 2;
  for (let index = 1; index < even; index += 1) {
    picks.add(low + Math.floor((index * span) / even));
  }
  if (below) {
    const fraction = (since - below.timestamp) / Math.max(1, above.timestamp - below.timestamp);
    const guess = below.number + Math.round(fraction * (above.number - below.number));
    const first = Math.min(Math.max(low, guess - even / 2), high - even + 1);
    for (let index = 0; index < even; index += 1) {
      picks.add(first + index);
    }
  }
  return [...picks].sort((a, b) => a - b);
}

/**
 * The number of the first block whose timestamp is at or after `since` (latest + 1 when the
 * latest block is older). Round trips: none when the known blocks already pin it down.
 */
export async function firstBlockSince(
  rpc: RpcClient,
  chainId: string,
  since: number,
  latest: BlockStamp,
): Promise<number> {
  const known = knownTimestamps(chainId);
  known.set(latest.number, latest.timestamp);
  if (latest.timestamp < since) {
    return latest.number + 1;
  }
  for (let round = 0; round < MAX_SEARCH_ROUNDS; round += 1) {
    const { below, above } = bracket(known, since, latest);
    if ((below ? below.number + 1 : 0) === above.number) {
      return above.number;
    }
    const probes = probesBetween(below, above, since);
    const answers = await rpc.batch(probes.map(headerCall));
    for (const answer of answers) {
      if (!answer.ok) {
        throw toChainError(answer.error, 'Reading block timestamps');
      }
      const stamp = stampOf(answer.result);
      if (stamp) {
        known.set(stamp.number, stamp.timestamp);
      }
    }
  }
  // A chain whose timestamps go back and forth: start from the best bound found.
  const { below } = bracket(known, since, latest);
  return below ? below.number + 1 : 0;
}
