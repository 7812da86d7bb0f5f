/**
 * One client WebSocket: the same JSON messages and the same per-message errors as HTTP (every
 * message goes through the gateway), its subscriptions (subscriptions.ts), and its output.
 *
 * Billed by delivery: an answer or notification that is not written to an open socket is
 * refunded. A client that does not read is paused (no new messages are read), then dropped.
 * Nothing here rejects unhandled: every message and notification path ends in an answer.
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import { type Answer, type CallContext, type Gateway, ledgerError } from '../../gateway';
import { idOf } from '../../jsonrpc/envelope';
import { errorResponse, errors } from '../../jsonrpc/errors';
import { Subscriptions } from './subscriptions';

/** Messages of one connection handled at once; more wait in the kernel (the socket is paused). */
const MAX_IN_FLIGHT = 32;
/** A dropped client's input is read until a check finds none new, at most this many checks. */
const DRAIN_CHECKS = 20;
const DRAIN_CHECK_MS = 50;

export interface WebSocketOptions {
  /** A connection paused for this long (its client does not read) is dropped. */
  slowClientMs: number;
}

export class Connection {
  private readonly subscriptions: Subscriptions;
  private closed = false;
  private inFlight = 0;
  private pausedSince: number | undefined;
  private pressureTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly client: Duplex,
    private readonly ctx: CallContext,
    private readonly gateway: Gateway,
    private readonly options: WebSocketOptions,
  ) {
    this.subscriptions = new Subscriptions(ctx, gateway, {
      deliver: (answer) => this.deliver(answer),
      reading: () => this.ws.readyState === WebSocket.OPEN && this.ws.bufferedAmount <= this.limit,
      keyStillValid: () => this.keyStillValid(),
      closed: () => this.closed,
      end: (code, reason) => {
        this.shutDown();
        this.ws.close(code, reason);
      },
    });
    ws.on('message', (data, isBinary) => {
      if (this.closed) return; // a dropped client's last messages are read, not answered
      if (isBinary) return this.deliver({ status: 400, text: errorResponse(null, errors.parse()) });
      this.inFlight += 1;
      this.checkPressure();
      this.onMessage(data.toString())
        .catch(() => this.deliver({ status: 500, text: errorResponse(null, errors.internal()) }))
        .finally(() => {
          this.inFlight -= 1;
          this.checkPressure();
        });
    });
    ws.on('close', () => this.shutDown());
    ws.on('error', () => this.shutDown());
  }

  private get limit(): number {
    return this.gateway.responseLimit;
  }

  private shutDown(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscriptions.close();
    clearInterval(this.pressureTimer);
  }

  /** A revoke reaches open connections too: the key is checked again (cached) per message. */
  private async keyStillValid(): Promise<boolean> {
    if (await this.gateway.current(this.ctx.key.hash)) return true;
    await this.subscriptions.endAll(errors.keyInvalid());
    this.ws.close(1008, 'invalid project id');
    return false;
  }

  private async onMessage(text: string): Promise<void> {
    try {
      if (!(await this.keyStillValid())) return;
    } catch (error) {
      // The ledger is down: this message gets the error (with its id); the socket stays open.
      let id = null;
      try {
        id = idOf(JSON.parse(text));
      } catch {
        // not JSON: null id
      }
      const rpcError = ledgerError(error);
      return this.deliver({ status: rpcError.httpStatus, text: errorResponse(id, rpcError) });
    }
    const message = this.subscriptions.message();
    try {
      this.deliver(await this.gateway.handleBody(this.ctx, text, message.local));
    } finally {
      message.written();
    }
  }

  /** Writes an answer; its charges are given back if it never reaches an open socket. */
  private deliver(answer: Answer): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) {
      this.gateway.settle(this.ctx.key, answer.charges, false);
      return;
    }
    // Node reports a write that a destroy cut short as a success: a write that completes only
    // after the socket is gone counts as undelivered (at worst, one answer is not charged).
    this.ws.send(answer.text, (error) => {
      this.gateway.settle(this.ctx.key, answer.charges, !error && !this.client.destroyed);
    });
    this.checkPressure();
  }

  /**
   * Output the client has not read is bounded: above the limit the connection stops reading
   * new messages; if it stays there for slowClientMs, or grows past twice the limit, the
   * connection is dropped and what it held is freed (undelivered answers are refunded).
   */
  private checkPressure(): void {
    if (this.closed) return;
    const buffered = this.ws.bufferedAmount;
    if (buffered > 2 * this.limit) return this.dropSlowClient();
    const pressed = buffered > this.limit || this.inFlight >= MAX_IN_FLIGHT;
    if (pressed && this.pausedSince === undefined) {
      this.pausedSince = Date.now();
      this.ws.pause();
      this.pressureTimer = setInterval(() => this.checkPressure(), 100);
      this.pressureTimer.unref();
    } else if (!pressed && this.pausedSince !== undefined && buffered <= this.limit / 2) {
      this.pausedSince = undefined;
      clearInterval(this.pressureTimer);
      this.ws.resume();
    } else if (
      this.pausedSince !== undefined &&
      buffered > this.limit / 2 &&
      Date.now() - this.pausedSince > this.options.slowClientMs
    ) {
      this.dropSlowClient();
    }
  }

  /**
   * Drops a client that does not read: what the kernel already holds for it is still delivered
   * (and stays charged); what is buffered here is freed and refunded. Its unread input is read
   * (and ignored) first, since closing a socket with unread input resets the connection and
   * loses what the kernel held.
   */
  private dropSlowClient(): void {
    if (this.closed) return;
    this.shutDown();
    this.ws.resume();
    this.terminateOnceRead();
  }

  /**
   * Terminates once a read of the socket finds no new input (at most DRAIN_CHECKS checks, for a
   * client that never stops sending). A timer that fired late in a busy process runs before the
   * event loop reads the socket, so each check waits for that read (setImmediate): a fixed delay
   * alone closed sockets with unread input under load, and the reset lost answers charged.
   */
  private terminateOnceRead(checks = 0, seen = -1): void {
    setTimeout(() => {
      setImmediate(() => {
        const read = (this.client as Socket).bytesRead ?? 0;
        if (read === seen || checks + 1 >= DRAIN_CHECKS) this.ws.terminate();
        else this.terminateOnceRead(checks + 1, read);
      }).unref();
    }, DRAIN_CHECK_MS).unref();
  }
}
