/**
 * One execution per account at a time, from its simulation until its transaction is in a block
 * (or a time limit passes): a later execution of the same account is simulated on the state the
 * earlier one leaves, so executions that each pass alone cannot be sent together to revert.
 */
import { errors } from '../errors';

export class AccountLocks {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly depth = new Map<string, number>();

  /** At most `maxQueued` executions of one account wait or run at once (more: -32005). */
  constructor(private readonly maxQueued = 8) {}

  /** Waits for the account's turn; the answer releases it (once; later calls do nothing). */
  async acquire(account: string): Promise<() => void> {
    const queued = this.depth.get(account) ?? 0;
    if (queued >= this.maxQueued) {
      throw errors.limitExceeded(
        `the account ${account} already has ${queued} executions waiting for their turn`,
      );
    }
    this.depth.set(account, queued + 1);
    const previous = this.tails.get(account) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(account, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.depth.get(account) ?? 1) - 1;
      if (left <= 0) this.depth.delete(account);
      else this.depth.set(account, left);
      release();
      if (this.tails.get(account) === tail) this.tails.delete(account);
    };
  }

  /** Accounts with an execution in progress or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
