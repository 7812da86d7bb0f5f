/**
 * What the paymaster remembers between a build and its execution, in memory: the outside
 * executions it built (so an executed one must be the one built: same calls, bounds, fee), and
 * the ones claimed by an execution in flight or submitted (so none is submitted twice).
 * Both are keyed by the account and its outside-execution nonce.
 */
import { errors } from '../errors';
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

/** Builds waiting to be executed that one account may hold (more: -32005). */
export const MAX_BUILDS_PER_ACCOUNT = 16;

const feltsOf = (build: BuiltExecution) =>
  build.execution.calls.reduce((sum, call) => sum + call.calldata.length + 2, 0);

/**
 * Builds, kept until their execute_before has passed, at most `limit` of them and `feltLimit`
 * felts of calls in all (oldest out first: memory stays bounded under a flood of builds, and an
 * evicted build is still executable, checked as one not built here), and at most
 * MAX_BUILDS_PER_ACCOUNT per account.
 */
export class BuildRecords {
  private readonly builds = new Map<string, BuiltExecution>();
  private readonly perAccount = new Map<Felt, number>();
  private felts = 0;

  constructor(
    private readonly limit = 10_000,
    private readonly feltLimit = 1_000_000,
  ) {}

  get size(): number {
    return this.builds.size;
  }

  add(build: BuiltExecution, chainNow: number): void {
    const held = this.perAccount.get(build.user) ?? 0;
    if (held >= MAX_BUILDS_PER_ACCOUNT) {
      this.pruneExpired(chainNow);
      if ((this.perAccount.get(build.user) ?? 0) >= MAX_BUILDS_PER_ACCOUNT) {
        throw errors.limitExceeded(
          `the account ${toHex(build.user)} already has ${MAX_BUILDS_PER_ACCOUNT} builds waiting to be executed; execute or let them expire first`,
        );
      }
    }
    this.builds.set(executionKey(build.user, build.execution.nonce), build);
    this.perAccount.set(build.user, (this.perAccount.get(build.user) ?? 0) + 1);
    this.felts += feltsOf(build);
    // Over a cap: the oldest out (FIFO, in constant time per build, so a flood stays cheap).
    while (this.builds.size > this.limit || this.felts > this.feltLimit) {
      const [key, oldest] = this.builds.entries().next().value as [string, BuiltExecution];
      this.remove(key, oldest);
    }
  }

  get(user: Felt, nonce: Felt): BuiltExecution | undefined {
    return this.builds.get(executionKey(user, nonce));
  }

  private remove(key: string, build: BuiltExecution): void {
    this.builds.delete(key);
    this.felts -= feltsOf(build);
    const left = (this.perAccount.get(build.user) ?? 1) - 1;
    if (left <= 0) this.perAccount.delete(build.user);
    else this.perAccount.set(build.user, left);
  }

  private pruneExpired(chainNow: number): void {
    for (const [key, build] of this.builds) {
      if (build.execution.executeBefore <= BigInt(chainNow)) this.remove(key, build);
    }
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
