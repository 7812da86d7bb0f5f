/**
 * Tracking ids (SNIP-29): one per executed request, naming the latest relayer transaction that
 * carries it. Kept in the paymaster's state (SQLite or Redis), so a restart loses none.
 *
 * An outside execution's id is pedersen(account, its SNIP-9 nonce): a wallet knows it before it
 * sends, so when the answer is lost (a 502, a dropped connection) it can still follow what it
 * sent. A deployment alone (no outside execution) gets a random id.
 */
import { randomBytes } from 'node:crypto';

import { hash } from 'starknet';

import type { Felt } from '../protocol/felt';
import type { StateStore } from '../store/store';

export interface TrackedRequest {
  id: Felt;
  /** The latest relayer transaction for this request. */
  hash: Felt;
  createdAt: number;
}

/** A random felt of 248 bits (below the field prime). */
export const randomFelt = (): Felt => BigInt(`0x${randomBytes(31).toString('hex')}`);

/** The tracking id of `account`'s outside execution with SNIP-9 nonce `nonce`. */
export const executionTrackingId = (account: Felt, nonce: Felt): Felt =>
  BigInt(hash.computePedersenHash(account, nonce));

export class TrackingStore {
  /** `onLost`: the state could not store an id (Redis away); the request is answered still. */
  constructor(
    private readonly state: StateStore,
    private readonly onLost: (request: TrackedRequest, error: Error) => void = () => undefined,
  ) {}

  /**
   * Names `transactionHash` as the request's latest (`id`: a random one when not given). Called
   * once the relayer has sent it, so it never throws: the answer must still say what was sent.
   */
  async create(transactionHash: Felt, id: Felt = randomFelt()): Promise<TrackedRequest> {
    const request = { id, hash: transactionHash, createdAt: Date.now() };
    try {
      await this.state.putTracking(request.id, transactionHash, request.createdAt);
    } catch (error) {
      this.onLost(request, error as Error);
    }
    return request;
  }

  async get(id: Felt): Promise<TrackedRequest | undefined> {
    const row = await this.state.getTracking(id);
    return row && { id, ...row };
  }
}
