/**
 * What the paymaster remembers between a build and its execution, in memory: the outside
 * executions it built (so an executed one must be the one built: same calls, bounds, fee), and
 * the ones claimed by an execution in flight or submitted (so none is submitted twice).
 * Both are keyed by the account and its outside-execution nonce.
 */
import type { Deployment } from '../protocol/calls';
import { type Felt, toHex } from '../protocol/felt';
import type { OutsideExecution, Snip9Version } from '../protocol/outsideExecution';
import type { FeeMode } from '../protocol/params';

export interface BuiltExecution {
  user: Felt;
  version: Snip9Version;
  execution: OutsideExecution;
  feeMode: FeeMode;
  /** Default mode: the fee transfer built as the last call. */
  fee?: { token: Felt; amount: bigint };
  deployment?: Deployment;
}

export const executionKey = (user: Felt, nonce: Felt): string => `${toHex(user)}:${toHex(nonce)}`;

/** Builds, kept until their execute_before has passed (and at most `limit`, oldest out first). */
export class BuildRecords {
  private readonly builds = new Map<string, BuiltExecution>();

  constructor(private readonly limit = 100_000) {}

  add(build: BuiltExecution, chainNow: number): void {
    this.builds.set(executionKey(build.user, build.execution.nonce), build);
    if (this.builds.size > this.limit) this.prune(chainNow);
  }

  get(user: Felt, nonce: Felt): BuiltExecution | undefined {
    return this.builds.get(executionKey(user, nonce));
  }

  private prune(chainNow: number): void {
    for (const [key, build] of this.builds) {
      if (build.execution.executeBefore <= BigInt(chainNow)) this.builds.delete(key);
    }
    while (this.builds.size > this.limit)
      this.builds.delete(this.builds.keys().next().value as string);
  }
}

export interface Claim {
  /** Set once a relayer transaction carries the execution. */
  trackingId?: Felt;
  hash?: Felt;
}

/** Outside executions being executed or already submitted. */
export class Claims {
  private readonly claims = new Map<string, Claim>();
  private readonly byHash = new Map<Felt, string>();

  constructor(private readonly limit = 200_000) {}

  /** Takes the execution, or answers the claim that already holds it. */
  take(key: string): Claim | undefined {
    const held = this.claims.get(key);
    if (held) return held;
    this.claims.set(key, {});
    if (this.claims.size > this.limit) {
      const oldest = this.claims.keys().next().value as string;
      const claim = this.claims.get(oldest);
      if (claim?.hash !== undefined) this.byHash.delete(claim.hash);
      this.claims.delete(oldest);
    }
    return undefined;
  }

  submitted(key: string, trackingId: Felt, hash: Felt): void {
    this.claims.set(key, { trackingId, hash });
    this.byHash.set(hash, key);
  }

  release(key: string): void {
    const claim = this.claims.get(key);
    if (claim?.hash !== undefined) this.byHash.delete(claim.hash);
    this.claims.delete(key);
  }

  /** A relayer transaction that was never included frees the execution it carried. */
  releaseHash(hash: Felt): void {
    const key = this.byHash.get(hash);
    if (key !== undefined) this.release(key);
  }
}
