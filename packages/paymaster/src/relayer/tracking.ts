/**
 * Tracking ids (SNIP-29): one per executed request, naming the latest relayer transaction that
 * carries it. Kept in the paymaster's SQLite state, so a restart loses none.
 */
import { randomBytes } from 'node:crypto';

import type { Felt } from '../protocol/felt';
import type { PaymasterState } from '../store/state';

export interface TrackedRequest {
  id: Felt;
  /** The latest relayer transaction for this request. */
  hash: Felt;
  createdAt: number;
}

/** A random felt of 248 bits (below the field prime). */
export const randomFelt = (): Felt => BigInt(`0x${randomBytes(31).toString('hex')}`);

export class TrackingStore {
  constructor(private readonly state: PaymasterState) {}

  create(hash: Felt): TrackedRequest {
    const request = { id: randomFelt(), hash, createdAt: Date.now() };
    this.state.putTracking(request.id, hash, request.createdAt);
    return request;
  }

  get(id: Felt): TrackedRequest | undefined {
    const row = this.state.getTracking(id);
    return row && { id, ...row };
  }
}
