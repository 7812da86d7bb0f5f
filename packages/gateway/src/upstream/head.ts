/**
 * A chain's head as (number, hash), followed across all its upstreams. Each upstream's latest
 * block is polled (every headPollMs, or at once on each `newHeads` notification of the
 * `wsUpstream`, with a 1 s poll as a safety net) and read from its health checks. Its number
 * never moves back, and a changed hash is a reorg that drops the answers it invalidates.
 * Details: docs/architecture/gateway.md#the-head-and-reorgs.
 */
import { UpstreamSocket } from './socket';
import type { BlockReport, Upstream } from './upstream';

/** Heights whose block hash is remembered, below the highest one seen. */
const RECORDED_HEIGHTS = 512;
/** Blocks fetched at most to find a fork point; past it, the fork is taken as deep as that. */
const MAX_WALK = 64;

export interface HeadEvents {
  /** A new head or a write: every `latest` answer is stale. */
  newHead(): void;
  /** A reorg was seen: answers tied to a block number must not be served until reorged(). */
  reorgStarted(): void;
  /** The reorg's fork point: every answer tied to a block above it is stale. */
  reorged(forkPoint: bigint): void;
}

export class HeadTracker {
  number: bigint | undefined;
  hash: string | undefined;
  generation = 0;
  /** Reorgs seen; an answer tied to a block and fetched before the last one is not kept. */
  reorgs = 0;
  /** When an upstream last confirmed its head (a poll or a health check answered). */
  private confirmedAt = 0;
  private readonly hashes = new Map<bigint, string>();
  private timer: NodeJS.Timeout | undefined;
  private socket: UpstreamSocket | undefined;
  private polling = false;
  private pollAgain = false;
  /** Reports are applied one at a time: a reorg's walk finishes before the next is judged. */
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private readonly upstreams: Upstream[],
    private readonly events: HeadEvents,
    private readonly pollMs: number,
    private readonly wsUrl?: string,
  ) {
    for (const upstream of upstreams) {
      upstream.onHead = (report) => {
        this.confirmedAt = Date.now();
        this.applying = this.applying
          .then(() => this.apply(upstream, report))
          .catch(() => undefined);
      };
    }
  }

  start(): void {
    if (this.wsUrl) {
      // newHeads only says "now": the upstreams' own blocks are read at once.
      this.socket = new UpstreamSocket(
        this.wsUrl,
        () => void this.tick(),
        () => this.subscribe(),
      );
      this.subscribe().catch(() => undefined); // the poll covers until the socket is back
    }
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.wsUrl ? 1000 : this.pollMs);
    this.timer.unref();
  }

  private async subscribe(): Promise<void> {
    await this.socket?.request('eth_subscribe', ['newHeads']);
  }

  /** Polls every upstream not in backoff (its poll is a probe once the backoff is over). */
  private async tick(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      do {
        this.pollAgain = false;
        const polled = await Promise.allSettled(
          this.upstreams.filter((u) => u.probable).map((u) => u.pollHead()),
        );
        // No upstream answered: a new head could go unseen, so `latest` answers stop (fresh()).
        if (!polled.some((p) => p.status === 'fulfilled')) this.confirmedAt = 0;
        await this.applying;
      } while (this.pollAgain);
    } finally {
      this.polling = false;
    }
  }

  /**
   * Whether the head is known to be current: confirmed within a few polls. A `latest` answer is
   * served from memory only then, so an unreachable upstream cannot make one outlive its head.
   */
  fresh(): boolean {
    return Date.now() - this.confirmedAt <= Math.max(1000, 3 * (this.wsUrl ? 1000 : this.pollMs));
  }

  /** Whether `upstream` has reached the head (or nothing is known yet). */
  atHead(upstream: Upstream): boolean {
    return this.number === undefined || (upstream.head?.number ?? -1n) >= this.number;
  }

  /**
   * A block number answered by `upstream` (eth_blockNumber through the gateway): a newer head is
   * taken at once (its hash comes with the next poll).
   */
  advance(upstream: Upstream, number: bigint): void {
    if (upstream.head === undefined || number > upstream.head.number) upstream.head = { number };
    if (this.number === undefined || number > this.number) {
      this.number = number;
      this.hash = undefined;
      this.bump();
    }
  }

  /** Ends every answer tied to the current head (after a new head, or a write). */
  bump(): void {
    this.generation += 1;
    this.events.newHead();
  }

  private async apply(upstream: Upstream, report: BlockReport): Promise<void> {
    upstream.head = report;
    const { number, hash, parentHash } = report;
    if (hash !== undefined) {
      const known = this.hashes.get(number);
      const knownParent = this.hashes.get(number - 1n);
      if (known !== undefined && known !== hash) {
        await this.reorg(upstream, number);
      } else if (
        parentHash !== undefined &&
        knownParent !== undefined &&
        knownParent !== parentHash
      ) {
        await this.reorg(upstream, number - 1n);
      }
      await this.fillGap(upstream, number, parentHash !== undefined);
      this.record(number, hash);
      if (parentHash !== undefined && number > 0n) this.record(number - 1n, parentHash);
    }
    if (this.number === undefined || number > this.number) {
      this.number = number;
      this.hash = hash;
      this.bump();
    } else if (number === this.number && hash !== undefined && this.hash !== hash) {
      // The head's block changed at the same height, or its hash was not known (the height came
      // from an answered block number): the `latest` answers kept since may be of another
      // block at this height (a same-height reorg the hashes could not show), so they end.
      this.hash = hash;
      this.bump();
    }
  }

  /**
   * The chain changed at `changed` or below. Latest answers end now; answers tied to a block
   * are held until the fork point is known, then those above it are dropped.
   */
  private async reorg(upstream: Upstream, changed: bigint): Promise<void> {
    this.reorgs += 1;
    this.bump();
    this.events.reorgStarted();
    let fork = changed - 1n;
    try {
      fork = await this.forkPoint(upstream, changed);
    } finally {
      for (const height of [...this.hashes.keys()]) if (height > fork) this.hashes.delete(height);
      if (this.number !== undefined && this.number > fork) this.hash = undefined;
      this.events.reorged(fork);
    }
  }

  /**
   * The highest recorded height below `changed` whose hash `upstream` still has; heights without
   * a record are passed over. With no such height (or after MAX_WALK blocks), everything
   * above the lowest height looked at is taken as changed.
   */
  private async forkPoint(upstream: Upstream, changed: bigint): Promise<bigint> {
    const heights = [...this.hashes.keys()]
      .filter((h) => h < changed)
      .sort((a, b) => (a > b ? -1 : 1));
    let lowest = changed;
    for (const height of heights.slice(0, MAX_WALK)) {
      lowest = height;
      let now: string | undefined;
      try {
        now = await upstream.hashAt(height);
      } catch {
        return -1n; // cannot tell: everything tied to a block goes
      }
      if (now === this.hashes.get(height)) return height;
    }
    return heights.length > 0 ? lowest - 1n : changed - 1n;
  }

  /**
   * Records the hashes of the heights between the highest one recorded below `number` and
   * `number` itself (at most MAX_WALK of them, read from `upstream`), so that every height a
   * later report names can be compared: a block that skipped several heights at once would
   * otherwise leave a reorg of those heights unseen.
   */
  private async fillGap(upstream: Upstream, number: bigint, parentKnown: boolean): Promise<void> {
    let below: bigint | undefined;
    for (const height of this.hashes.keys()) {
      if (height < number && (below === undefined || height > below)) below = height;
    }
    if (below === undefined) return; // nothing recorded yet: nothing to link to
    const top = parentKnown ? number - 2n : number - 1n;
    const from =
      below + 1n > top - BigInt(MAX_WALK) + 1n ? below + 1n : top - BigInt(MAX_WALK) + 1n;
    for (let height = from; height <= top; height++) {
      try {
        const hash = await upstream.hashAt(height);
        if (hash !== undefined) this.record(height, hash);
      } catch {
        return; // the next report fills it
      }
    }
  }

  private record(number: bigint, hash: string): void {
    this.hashes.set(number, hash);
    if (this.hashes.size > RECORDED_HEIGHTS * 2) {
      const keep = [...this.hashes.keys()]
        .sort((a, b) => (a > b ? -1 : 1))
        .slice(0, RECORDED_HEIGHTS);
      const kept = new Set(keep);
      for (const height of this.hashes.keys()) if (!kept.has(height)) this.hashes.delete(height);
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.socket?.close();
  }
}
