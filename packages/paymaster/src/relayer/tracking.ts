/**
 * Tracking ids (SNIP-29): one per executed request, naming the latest relayer transaction that
 * carries it. Kept in memory, the oldest forgotten beyond `limit`.
 */
import { randomBytes } from 'node:crypto';

import type { Felt } from '../protocol/felt';

export interface TrackedRequest {
  id: Felt;
  /** The latest relayer transaction for this request. */
  hash: Felt;
  createdAt: number;
}

/** A random felt of 248 bits (below the field prime). */
export const randomFelt = (): Felt => BigInt(`0x${randomBytes(31).toString('hex')}`);

export class TrackingStore {
  private readonly requests = new Map<Felt, TrackedRequest>();

  constructor(private readonly limit = 100_000) {}

  create(hash: Felt): TrackedRequest {
    const request = { id: randomFelt(), hash, createdAt: Date.now() };
    this.requests.set(request.id, request);
    if (this.requests.size > this.limit) {
      this.requests.delete(this.requests.keys().next().value as Felt);
    }
    return request;
  }

  get(id: Felt): TrackedRequest | undefined {
    return this.requests.get(id);
  }
}
