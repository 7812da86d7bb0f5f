/**
 * The chain's clock, which outside executions are checked against (execute_after < block
 * timestamp < execute_before), read from the node at most every `maxAgeMs` and run on locally
 * in between. A devnet started in the past or moved with devnet_setTime has its own time.
 */
import type { StarknetNode } from './client';

export class ChainClock {
  private reading: { chainSeconds: number; localMs: number } | undefined;
  private inFlight: Promise<number> | undefined;

  constructor(
    private readonly node: StarknetNode,
    private readonly maxAgeMs = 2000,
  ) {}

  /** Seconds on the chain now. */
  async now(): Promise<number> {
    const reading = this.reading;
    const local = Date.now();
    if (reading && local - reading.localMs < this.maxAgeMs) {
      return reading.chainSeconds + Math.floor((local - reading.localMs) / 1000);
    }
    this.inFlight ??= this.node.blockTimestamp().then(
      (chainSeconds) => {
        this.reading = { chainSeconds, localMs: Date.now() };
        this.inFlight = undefined;
        return chainSeconds;
      },
      (error: unknown) => {
        this.inFlight = undefined;
        throw error;
      },
    );
    return this.inFlight;
  }
}
