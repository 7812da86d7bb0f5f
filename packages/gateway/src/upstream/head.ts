/**
 * Follows a chain's head: an upstream `newHeads` subscription where a WebSocket upstream is
 * configured (then a 1 s poll only as a safety net), otherwise a short block-number poll. Each
 * change of head bumps `generation`, which keys merged calls and ends every `latest` answer.
 */
import { UpstreamSocket } from './socket';

export class HeadTracker {
  number: bigint | undefined;
  generation = 0;
  /** When the upstream last confirmed the head (a poll or a notification answered). */
  private confirmedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private socket: UpstreamSocket | undefined;
  private polling = false;

  constructor(
    private readonly poll: () => Promise<bigint>,
    private readonly onChange: () => void,
    private readonly pollMs: number,
    private readonly wsUrl?: string,
  ) {}

  start(): void {
    if (this.wsUrl) {
      this.socket = new UpstreamSocket(
        this.wsUrl,
        (_id, head) => {
          this.seen((head as { number?: string } | null)?.number);
          this.confirmedAt = Date.now();
        },
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

  private async tick(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      this.seen(await this.poll());
      this.confirmedAt = Date.now();
    } catch {
      // The upstream is down: a new head could go unseen, so `latest` answers stop (fresh()).
      this.confirmedAt = 0;
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

  /** A head seen by the subscription, the poll, or a write through the gateway. */
  seen(number: bigint | string | undefined): void {
    if (number === undefined) return;
    const head = typeof number === 'bigint' ? number : BigInt(number);
    if (head === this.number) return;
    this.number = head;
    this.bump();
  }

  /** A block number in an answer through the gateway: a newer head is taken at once. */
  advance(number: bigint): void {
    if (this.number === undefined || number > this.number) this.seen(number);
  }

  /** Ends every answer tied to the current head (after a new head, or a write). */
  bump(): void {
    this.generation += 1;
    this.onChange();
  }

  close(): void {
    clearInterval(this.timer);
    this.socket?.close();
  }
}
