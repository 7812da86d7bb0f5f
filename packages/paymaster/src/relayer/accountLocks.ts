/**
 * One execution per account at a time, from its simulation until its transaction is in a block
 * (or a time limit passes): a later execution of the same account is simulated on the state the
 * earlier one leaves, so executions that each pass alone cannot be sent together to revert.
 */
import { randomBytes } from 'node:crypto';

import { errors } from '../errors';
import type { StateStore } from '../store/store';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AccountLocks {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly depth = new Map<string, number>();

  private readonly process = randomBytes(8).toString('hex');
  private turns = 0;

  /**
   * At most `maxQueued` executions of one account wait or run at once (more: -32005). With a
   * `state`, the turn is also a lease in it (SQLite or Redis) (of at most `leaseMs`), so paymasters
   * sharing the state take turns too.
   */
  constructor(
    private readonly maxQueued = 8,
    private readonly state?: StateStore,
    private readonly leaseMs = 150_000,
  ) {}

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
    const holder = `${this.process}:${(this.turns += 1)}`;
    if (this.state) {
      try {
        // Another paymaster on the same file may hold it: wait, up to a lease.
        const deadline = Date.now() + this.leaseMs;
        while (!(await this.state.takeTurn(account, holder, Date.now(), this.leaseMs))) {
          if (Date.now() > deadline) {
            throw errors.limitExceeded(`the account ${account} is busy on another paymaster`);
          }
          await sleep(25);
        }
      } catch (error) {
        this.finish(account, tail);
        release();
        throw error;
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const done = () => {
        this.finish(account, tail);
        release();
      };
      if (!this.state) return done();
      // When the state is closed or away (shutting down), the lease runs out by itself.
      void Promise.resolve()
        .then(() => this.state?.releaseTurn(account, holder))
        .catch(() => undefined)
        .finally(done);
    };
  }

  private finish(account: string, tail: Promise<void>): void {
    const left = (this.depth.get(account) ?? 1) - 1;
    if (left <= 0) this.depth.delete(account);
    else this.depth.set(account, left);
    if (this.tails.get(account) === tail) this.tails.delete(account);
  }

  /** Accounts with an execution in progress or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
