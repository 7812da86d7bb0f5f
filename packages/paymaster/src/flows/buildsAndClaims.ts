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

/** Builds waiting to be executed that one account may hold (more: -32005). */
/** Builds of one account kept at once (its oldest out first). */
export const MAX_BUILDS_PER_ACCOUNT = 16;

const feltsOf = (build: BuiltExecution) =>
  build.execution.calls.reduce((sum, call) => sum + call.calldata.length + 2, 0);

/**
 * Builds, at most `limit` of them, `feltLimit` felts of calls in all and MAX_BUILDS_PER_ACCOUNT
 * per account, the oldest out first, each in constant time: memory stays bounded under a flood
 * of builds, and one account's builds cannot push out another's beyond its share. Over a cap a
 * build is evicted, not refused: a dapp that estimates again and again (each estimate is a build)
 * is not locked out, and an evicted build loses nothing, as its execution is then checked as one
 * not built here (README, Execution checks).
 */
export class BuildRecords {
  private readonly builds = new Map<string, BuiltExecution>();
  /** Each account's build keys, oldest first. */
  private readonly perAccount = new Map<Felt, string[]>();
  private felts = 0;

  constructor(
    private readonly limit = 10_000,
    private readonly feltLimit = 1_000_000,
  ) {}

  get size(): number {
    return this.builds.size;
  }

  add(build: BuiltExecution): void {
    const key = executionKey(build.user, build.execution.nonce);
    for (;;) {
      const keys = this.perAccount.get(build.user) ?? [];
      if (keys.length < MAX_BUILDS_PER_ACCOUNT) break;
      this.remove(keys[0]);
    }
    this.builds.set(key, build);
    this.perAccount.set(build.user, [...(this.perAccount.get(build.user) ?? []), key]);
    this.felts += feltsOf(build);
    while (this.builds.size > this.limit || this.felts > this.feltLimit) {
      this.remove(this.builds.keys().next().value as string);
    }
  }

  get(user: Felt, nonce: Felt): BuiltExecution | undefined {
    return this.builds.get(executionKey(user, nonce));
  }

  private remove(key: string): void {
    const build = this.builds.get(key);
    if (!build) return;
    this.builds.delete(key);
    this.felts -= feltsOf(build);
    const left = (this.perAccount.get(build.user) ?? []).filter((k) => k !== key);
    if (left.length === 0) this.perAccount.delete(build.user);
    else this.perAccount.set(build.user, left);
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
