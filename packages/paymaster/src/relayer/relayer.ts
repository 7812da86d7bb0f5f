/**
 * The relayer account's submissions, one at a time: each takes the next nonce, is signed, and is
 * sent. The nonce moves on only once the node has the transaction, so a refused submission leaves
 * it for the next one and concurrent users never collide on it.
 *
 * A submission whose answer is lost (timeout, dropped connection) is re-sent unchanged: the same
 * signed transaction has the same hash, so the node either takes it or says it already has it
 * (59); a nonce error (52) then means the status decides. If the node stays silent, the
 * transaction is "uncertain": nothing else is submitted until it is settled (found on the node:
 * accepted; not found: dropped, and its nonce is used again). Nothing is sent twice under two
 * nonces, and no nonce is skipped.
 */
import { NodeRpcError, NodeUnavailable, type StarknetNode } from '../node/client';
import type { Call } from '../protocol/calls';
import { type Felt, toHex } from '../protocol/felt';
import { boundsFor, maxFeeOf, type NodeFeeEstimate } from '../protocol/fees';
import {
  type PreparedInvoke,
  prepareInvoke,
  type SignedInvoke,
  signInvoke,
} from '../protocol/transaction';

/** The node refused the transaction: it was not received, and its nonce is still free. */
export class SubmissionRefused extends Error {
  constructor(readonly refusal: NodeRpcError) {
    super(refusal.message);
  }
}

/** The node never confirmed the transaction: it may still be included. */
export class SubmissionUncertain extends Error {
  constructor(readonly hash: Felt) {
    super(`the node did not confirm transaction ${toHex(hash)}`);
  }
}

export interface RelayerOptions {
  node: StarknetNode;
  address: Felt;
  privateKey: string;
  chainId: Felt;
  /** Sends of one signed transaction before it is left uncertain (default 3). */
  sendAttempts?: number;
  /** Wait before the n-th re-send: n x this (default 200 ms). */
  retryDelayMs?: number;
  /** Between attempts to settle an uncertain transaction while nothing else is submitted. */
  settleIntervalMs?: number;
  /** Told when an uncertain transaction turns out never to have been included. */
  onDropped?: (hash: Felt) => void;
}

export interface Submitted {
  hash: Felt;
  nonce: bigint;
  /** The most the transaction can cost the relayer, in FRI. */
  maxFee: bigint;
}

const ACCEPTED = new Set([
  'RECEIVED',
  'CANDIDATE',
  'PRE_CONFIRMED',
  'ACCEPTED_ON_L2',
  'ACCEPTED_ON_L1',
]);
const NONCE_RESYNCS = 2;
const SIMULATION_NONCE_HEADROOM = 1000n;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Relayer {
  private nonce: bigint | undefined;
  private uncertain: { tx: SignedInvoke; nonce: bigint } | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private settleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly sendAttempts: number;
  readonly retryDelayMs: number;

  constructor(private readonly options: RelayerOptions) {
    this.sendAttempts = options.sendAttempts ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 200;
  }

  get address(): Felt {
    return this.options.address;
  }

  /** Whether a transaction is still waiting for the node to confirm it. */
  isUncertain(hash: Felt): boolean {
    return this.uncertain?.tx.hash === hash;
  }

  get hasUncertain(): boolean {
    return this.uncertain !== undefined;
  }

  /** Reads the relayer's nonce from the node: the one the first submission takes. */
  async start(): Promise<void> {
    this.nonce = await this.options.node.nonce(toHex(this.options.address));
  }

  /**
   * The nonce simulations and estimates of the relayer's transactions carry. Nodes take any
   * nonce at or above the account's there (the nonce check of estimates is not strict), and a
   * simulation sent now may be run by the node after several more submissions of this relayer
   * have landed (seen under 9 concurrent users: two): so it carries a nonce well ahead.
   */
  get simulationNonce(): bigint {
    if (this.nonce === undefined) throw new Error('the relayer was not started');
    return this.nonce + SIMULATION_NONCE_HEADROOM;
  }

  /** Signs and sends the relayer's multicall, after every submission queued before it. */
  submit(calls: readonly Call[], estimate: NodeFeeEstimate, tip: bigint): Promise<Submitted> {
    // All but the nonce's part of the hash is computed before waiting for the turn.
    const prepared = prepareInvoke({
      sender: this.options.address,
      calls,
      bounds: boundsFor(estimate),
      tip,
      chainId: this.options.chainId,
    });
    return this.serialised(() => this.send(prepared));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.settleTimer);
  }

  private serialised<T>(job: () => Promise<T>): Promise<T> {
    const run = this.tail.then(job, job);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async send(prepared: PreparedInvoke): Promise<Submitted> {
    await this.settleUncertain();
    const node = this.options.node;
    let nonce = this.nonce ?? (await node.nonce(toHex(this.options.address)));
    let resyncs = 0;
    let tx = signInvoke(prepared, nonce, this.options.privateKey);
    let sends = 0;
    for (;;) {
      try {
        sends += 1;
        await node.addInvoke(tx.json);
        return this.accepted(tx, nonce, prepared);
      } catch (error) {
        if (error instanceof NodeRpcError) {
          // 59: the node already has this very transaction (an earlier send got through).
          if (error.code === 59) return this.accepted(tx, nonce, prepared);
          if (error.code === 52) {
            if (sends > 1 && (await this.isOnNode(tx.hash)))
              return this.accepted(tx, nonce, prepared);
            // The node's nonce moved (another client of this account?): take it, sign again.
            if (resyncs < NONCE_RESYNCS) {
              resyncs += 1;
              nonce = await node.nonce(toHex(this.options.address));
              this.nonce = nonce;
              tx = signInvoke(prepared, nonce, this.options.privateKey);
              sends = 0;
              continue;
            }
          }
          this.nonce = nonce;
          throw new SubmissionRefused(error);
        }
        if (!(error instanceof NodeUnavailable)) throw error;
        if (sends < this.sendAttempts) {
          await sleep(this.retryDelayMs * sends);
          continue;
        }
        // Last look before giving up on an answer: the node may have it after all.
        if (await this.isOnNode(tx.hash).catch(() => false))
          return this.accepted(tx, nonce, prepared);
        this.nonce = nonce;
        this.uncertain = { tx, nonce };
        this.scheduleSettle();
        throw new SubmissionUncertain(tx.hash);
      }
    }
  }

  private accepted(tx: SignedInvoke, nonce: bigint, prepared: PreparedInvoke): Submitted {
    this.nonce = nonce + 1n;
    return { hash: tx.hash, nonce, maxFee: maxFeeOf(prepared.bounds, prepared.tip) };
  }

  private async isOnNode(hash: Felt): Promise<boolean> {
    const status = await this.options.node.transactionStatus(toHex(hash));
    return status !== undefined && ACCEPTED.has(status.finality_status);
  }

  /**
   * An uncertain transaction is settled before anything else is sent: found on the node, its
   * nonce is spent; not found, it is dropped and its nonce is the next one's. A node that still
   * does not answer fails this submission too (nothing is sent).
   */
  private async settleUncertain(): Promise<void> {
    const pending = this.uncertain;
    if (!pending) return;
    const node = this.options.node;
    if (await this.isOnNode(pending.tx.hash)) {
      this.nonce = pending.nonce + 1n;
    } else {
      // Resending it would execute a request its user was told may have failed; drop it
      // instead, and let its nonce go to the next transaction (a late arrival is then refused).
      this.nonce = await node.nonce(toHex(this.options.address));
      this.options.onDropped?.(pending.tx.hash);
    }
    this.uncertain = undefined;
  }

  private scheduleSettle(): void {
    clearTimeout(this.settleTimer);
    if (this.closed) return;
    this.settleTimer = setTimeout(() => {
      // In turn with submissions, which settle it first themselves.
      this.serialised(() => this.settleUncertain()).catch(() => this.scheduleSettle());
    }, this.options.settleIntervalMs ?? 2000);
    this.settleTimer.unref();
  }
}
