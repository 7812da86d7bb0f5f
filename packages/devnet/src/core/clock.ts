/**
 * The chain's clock, in unix seconds: a source (injectable, so replays and tests are
 * deterministic) plus the offset that a start time, devnet_setTime and devnet_increaseTime add.
 */
export class Clock {
  private offset = 0;

  constructor(
    private readonly source: () => number = () => Math.floor(Date.now() / 1000),
    startTime?: number,
  ) {
    if (startTime !== undefined) this.offset = startTime - source();
  }

  now(): number {
    return this.source() + this.offset;
  }

  /** The clock reads `time` from now on, and runs on from there. */
  set(time: number): void {
    this.offset = time - this.source();
  }

  advance(seconds: number): void {
    this.offset += seconds;
  }
}
