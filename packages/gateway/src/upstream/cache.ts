/**
 * Answers kept in memory, bounded in entries and in bytes (both shown in /metrics). Two kinds:
 * - immutable answers (by hash, below finality, chain id): kept until evicted, or until a reorg
 *   forks the chain below the block an answer is tied to (an answer at a block number, a receipt);
 * - head answers (`latest` reads): kept only until the chain's next head, when they are dropped.
 * A cached answer is still charged as any other. Only result texts are kept: never `null`,
 * never an error. Least recently inserted entries are evicted first.
 */
/** Answers larger than this are never kept. */
export const MAX_ENTRY_BYTES = 1 << 20;

export class AnswerCache {
  private readonly immutable = new Map<string, string>();
  private readonly head = new Map<string, string>();
  /** The block each answer tied to a block number is about. */
  private readonly blocks = new Map<string, bigint>();
  /** A reorg's fork point is being found: answers tied to a block are not served meanwhile. */
  private holding = false;
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string): string | undefined {
    if (this.holding && this.blocks.has(key)) return undefined;
    return this.head.get(key) ?? this.immutable.get(key);
  }

  /** Keeps `result`; `block` ties it to a block number (a reorg above it drops it). */
  set(key: string, result: string, untilNextHead: boolean, block?: bigint): void {
    const size = key.length + result.length;
    // A large answer (a block with its transactions, say) is not worth the memory it would hold.
    if (this.maxEntries <= 0 || size > Math.min(MAX_ENTRY_BYTES, this.maxBytes / 4)) return;
    const into = untilNextHead ? this.head : this.immutable;
    const previous = into.get(key);
    if (previous !== undefined) this.bytes -= key.length + previous.length;
    into.set(key, result);
    if (block !== undefined) this.blocks.set(key, block);
    else if (previous !== undefined) this.blocks.delete(key);
    this.bytes += size;
    if (this.size > this.maxEntries || this.bytes > this.maxBytes) this.evict(into);
  }

  /**
   * Drops the oldest entries, from the map just written to first, until both bounds have a
   * sixteenth to spare. In bulk, since a Map keeps the holes of deleted entries until it is
   * rebuilt: finding the oldest entry after each single delete walks every hole before it (the
   * cost per insert: bench/RESULTS.md, bench/gateway).
   */
  private evict(written: Map<string, string>): void {
    const entries = this.maxEntries - Math.max(1, this.maxEntries >> 4);
    const bytes = this.maxBytes - (this.maxBytes >> 4);
    const other = written === this.head ? this.immutable : this.head;
    for (const from of [written, other]) {
      for (const [key, value] of from) {
        if (this.size <= entries && this.bytes <= bytes) return;
        if (from === written && from.size === 1) break; // keep the entry just written
        this.bytes -= key.length + value.length;
        from.delete(key);
        this.blocks.delete(key);
      }
    }
  }

  /** A new head: every `latest` answer is now stale. */
  newHead(): void {
    for (const [key, value] of this.head) this.bytes -= key.length + value.length;
    this.head.clear();
  }

  /** A reorg was seen: answers tied to a block are held back until dropAbove(). */
  hold(): void {
    this.holding = true;
  }

  /** The reorg's fork point is known: answers tied to a block above it go, the rest are served. */
  dropAbove(forkPoint: bigint): void {
    for (const [key, block] of this.blocks) {
      if (block <= forkPoint) continue;
      const value = this.immutable.get(key) ?? this.head.get(key);
      if (value !== undefined) this.bytes -= key.length + value.length;
      this.immutable.delete(key);
      this.head.delete(key);
      this.blocks.delete(key);
    }
    this.holding = false;
  }

  get size(): number {
    return this.immutable.size + this.head.size;
  }

  /** Approximate bytes held (UTF-16 code units of keys and results). */
  get byteSize(): number {
    return this.bytes;
  }
}
