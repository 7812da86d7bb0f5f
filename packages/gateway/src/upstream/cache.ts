/**
 * Answers that cannot change, kept in memory (still charged): a block by hash, a transaction by
 * block hash and index, and a receipt whose block is at or below `finalized`. `null` is never
 * cached (the block or transaction may yet appear). Least recently inserted entries go first.
 */
export class AnswerCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  static key(method: string, params: unknown[]): string | undefined {
    if (
      method === 'eth_getBlockByHash' ||
      method === 'eth_getTransactionByBlockHashAndIndex' ||
      method === 'eth_getTransactionReceipt'
    ) {
      return `${method}:${JSON.stringify(params).toLowerCase()}`;
    }
    return undefined;
  }

  /** Whether this result may be kept; receipts only once their block is final. */
  static immutable(method: string, result: unknown, finalized: bigint | undefined): boolean {
    if (result === null || result === undefined) return false;
    if (method !== 'eth_getTransactionReceipt') return true;
    const blockNumber = (result as { blockNumber?: string }).blockNumber;
    return (
      finalized !== undefined && typeof blockNumber === 'string' && BigInt(blockNumber) <= finalized
    );
  }

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, resultJson: string): void {
    if (this.capacity <= 0) return;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, resultJson);
  }

  get size(): number {
    return this.entries.size;
  }
}
