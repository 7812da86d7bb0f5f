/**
 * WebSocket transport at /ws/v3/<KEY>: the same JSON messages and the same per-message errors
 * as HTTP, plus eth_subscribe (newHeads, logs). Each client connection has its own upstream
 * socket; the ids a client gets are the gateway's own, so they stay valid when the upstream
 * socket drops and its subscriptions are made again (once per reconnect). Each notification is
 * charged; when the balance runs out, every subscription ends with an error notification.
 *
 * Billed by delivery: an answer or notification that is not written to an open socket is
 * refunded. A client that does not read is paused (no new messages are read), then dropped.
 * Nothing here rejects unhandled: every message and notification path ends in an answer.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { NOTIFICATION_COSTS, type SubscriptionKind } from '../credits/costs';
import {
  type Answer,
  type Budget,
  type CallContext,
  type Charge,
  type Gateway,
  ledgerError,
} from '../gateway';
import { idOf } from '../jsonrpc/envelope';
import { BODY_LIMIT, errorResponse, errors, RpcError } from '../jsonrpc/errors';
import { UpstreamSocket } from '../upstream/socket';
import { hostName } from './http';

// [/<chain name>]/ws/v3[/<KEY>]: a chain prefix picks the chain by name, else the Host does.
const PATH = /^(?:\/([A-Za-z0-9._-]+))?\/ws\/v3(?:\/([^/?#]*))?\/?(?:\?.*)?$/;

/** Messages of one connection handled at once; more wait in the kernel (the socket is paused). */
const MAX_IN_FLIGHT = 32;

export interface WebSocketOptions {
  /** A connection paused for this long (its client does not read) is dropped. */
  slowClientMs: number;
}

interface Subscription {
  kind: SubscriptionKind;
  params: unknown[];
  upstreamId: string | undefined;
  /** The upstream socket generation `upstreamId` belongs to. */
  generation: number;
  /** Notifications dropped since the client was last told, and why. */
  dropped: number;
  droppedWhy: RpcError | undefined;
}

function refuseUpgrade(socket: Duplex, error: RpcError): void {
  const body = errorResponse(null, error);
  const status = error.httpStatus;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function attachWebSocket(
  server: Server,
  gateway: Gateway,
  options: WebSocketOptions = { slowClientMs: 30_000 },
): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: BODY_LIMIT });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined); // a client gone mid-handshake is not our failure
    const match = PATH.exec(request.url ?? '');
    if (!match) return refuseUpgrade(socket, errors.notFound());
    const chain = match[1]
      ? gateway.router.byName(match[1])
      : gateway.router.chainFor(request.headers.host);
    if (!chain) {
      return refuseUpgrade(
        socket,
        match[1]
          ? errors.unknownChainName(match[1])
          : errors.unknownChain(hostName(request.headers.host)),
      );
    }
    gateway
      .authenticate(match[2] || undefined, request.headers.authorization, request.headers.origin)
      .then(
        (key) =>
          wss.handleUpgrade(request, socket, head, (ws) => {
            new Connection(ws, socket, { chain, key, ws: true }, gateway, options);
          }),
        (error: unknown) =>
          refuseUpgrade(socket, error instanceof RpcError ? error : errors.internal()),
      )
      .catch(() => socket.destroy());
  });
  return {
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

class Connection {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly byUpstream = new Map<string, string>();
  private upstream: UpstreamSocket | undefined;
  /** Notifications are charged one after another, in the order the upstream sent them. */
  private charging: Promise<void> = Promise.resolve();
  private closed = false;
  private inFlight = 0;
  private pausedSince: number | undefined;
  private pressureTimer: NodeJS.Timeout | undefined;
  private dropReportTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly client: Duplex,
    private readonly ctx: CallContext,
    private readonly gateway: Gateway,
    private readonly options: WebSocketOptions,
  ) {
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
    this.upstream?.close();
    this.upstream = undefined;
    clearInterval(this.pressureTimer);
    clearTimeout(this.dropReportTimer);
    this.subscriptions.clear();
    this.byUpstream.clear();
  }

  /** A revoke reaches open connections too: the key is checked again (cached) per message. */
  private async keyStillValid(): Promise<boolean> {
    if (await this.gateway.current(this.ctx.key.hash)) return true;
    await this.endAll(errors.keyInvalid());
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
    const answer = await this.gateway.handleBody(this.ctx, text, (ctx, call, budget) =>
      this.handle(ctx, call, budget),
    );
    this.deliver(answer);
  }

  /** Writes an answer; its charges are given back if it never reaches an open socket. */
  private deliver(answer: Answer): void {
    const charges = answer.charges;
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) {
      this.refund(charges);
      return;
    }
    // Node reports a write that a destroy cut short as a success: a write that completes only
    // after the socket is gone counts as undelivered (at worst, one answer is not charged).
    this.ws.send(answer.text, (error) => {
      if (error || this.client.destroyed) this.refund(charges);
    });
    this.checkPressure();
  }

  private refund(charges: Charge[] | undefined): void {
    for (const { method, cost, at } of charges ?? []) {
      void this.gateway.refund(this.ctx.key, method, cost, at);
    }
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
    setTimeout(() => this.ws.terminate(), 50).unref();
  }

  private async handle(ctx: CallContext, call: unknown, budget: Budget): Promise<Answer> {
    const method = (call as { method?: unknown } | null)?.method;
    if (method !== 'eth_subscribe' && method !== 'eth_unsubscribe') {
      return this.gateway.handleCall(ctx, call, budget);
    }
    const id = idOf(call);
    try {
      const admitted = await this.gateway.admit(ctx, call);
      const cost = admitted.spec.cost;
      let result: string | boolean;
      try {
        result =
          method === 'eth_subscribe'
            ? await this.subscribe(admitted.params)
            : await this.unsubscribe(String(admitted.params[0]));
      } catch (error) {
        // Charged at admission, not served (the client left, or the upstream failed).
        await this.gateway.refund(ctx.key, method, cost, admitted.at);
        throw error;
      }
      try {
        await admitted.durable();
      } catch (error) {
        throw ledgerError(error);
      }
      this.gateway.metrics.request(method, 200);
      return {
        status: 200,
        text: JSON.stringify({ jsonrpc: '2.0', id: admitted.id, result }),
        charges: [{ method, cost, at: admitted.at }],
      };
    } catch (error) {
      const rpcError = error instanceof RpcError ? error : errors.internal();
      this.gateway.metrics.request(String(method), rpcError.httpStatus);
      return { status: rpcError.httpStatus, text: errorResponse(id, rpcError) };
    }
  }

  private socket(): UpstreamSocket {
    const url = this.ctx.chain.wsUpstream ?? this.ctx.chain.upstreams[0].url.replace(/^http/, 'ws');
    this.upstream ??= new UpstreamSocket(
      url,
      (upstreamId, result) => this.notify(upstreamId, result),
      () => this.resubscribe(),
    );
    return this.upstream;
  }

  /** A new subscription's client id; throws (the caller refunds) when it cannot be made. */
  private async subscribe(params: unknown[]): Promise<string> {
    if (this.closed) throw errors.upstreamUnavailable();
    const upstream = this.socket();
    let upstreamId: string;
    try {
      upstreamId = String(await upstream.request('eth_subscribe', params));
    } catch {
      throw errors.upstreamUnavailable();
    }
    // The client left while the upstream answered: closing its upstream socket ended this
    // subscription too, and the answer (and its charge) is refunded as undelivered.
    if (this.closed) return upstreamId;
    const clientId = '0x' + randomBytes(16).toString('hex');
    this.subscriptions.set(clientId, {
      kind: params[0] as SubscriptionKind,
      params,
      upstreamId,
      generation: upstream.generation,
      dropped: 0,
      droppedWhy: undefined,
    });
    this.byUpstream.set(upstreamId, clientId);
    return clientId;
  }

  private async unsubscribe(clientId: string): Promise<boolean> {
    const subscription = this.subscriptions.get(clientId);
    if (!subscription) return false;
    this.subscriptions.delete(clientId);
    if (subscription.upstreamId) {
      this.byUpstream.delete(subscription.upstreamId);
      await this.upstream?.request('eth_unsubscribe', [subscription.upstreamId]).catch(() => false);
    }
    return true;
  }

  /**
   * After an upstream reconnect (once per new socket): every subscription made on an earlier
   * socket is made again, under the same client id. A drop in the middle leaves the rest to the
   * next reconnect; ids from earlier sockets are forgotten first, so nothing is delivered twice.
   */
  private async resubscribe(): Promise<void> {
    const upstream = this.upstream;
    if (!upstream || this.closed) return;
    const generation = upstream.generation;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.generation !== generation && subscription.upstreamId !== undefined) {
        this.byUpstream.delete(subscription.upstreamId);
        subscription.upstreamId = undefined;
      }
    }
    for (const [clientId, subscription] of this.subscriptions) {
      if (subscription.generation === generation) continue;
      const upstreamId = String(await upstream.request('eth_subscribe', subscription.params));
      if (this.closed || upstream.generation !== generation) return;
      if (this.subscriptions.get(clientId) !== subscription) {
        void upstream.request('eth_unsubscribe', [upstreamId]).catch(() => false);
        continue;
      }
      subscription.upstreamId = upstreamId;
      subscription.generation = generation;
      this.byUpstream.set(upstreamId, clientId);
    }
  }

  private notify(upstreamId: string, result: unknown): void {
    const clientId = this.byUpstream.get(upstreamId);
    const subscription = clientId ? this.subscriptions.get(clientId) : undefined;
    if (!clientId || !subscription) return;
    this.charging = this.charging
      .then(() => this.notifyOne(clientId, subscription, result))
      .catch(() => undefined);
  }

  /** Charges one notification and writes it, or drops it (not charged) and counts it. */
  private async notifyOne(
    clientId: string,
    subscription: Subscription,
    result: unknown,
  ): Promise<void> {
    if (this.closed || this.subscriptions.get(clientId) !== subscription) return;
    if (this.ws.readyState !== WebSocket.OPEN || this.ws.bufferedAmount > this.limit) {
      return this.drop(subscription, errors.clientNotReading());
    }
    const cost = NOTIFICATION_COSTS[subscription.kind];
    let outcome;
    const at = this.gateway.now();
    try {
      if (!(await this.keyStillValid())) return;
      outcome = await this.gateway.store.debit(this.ctx.key, 'eth_subscription', cost, at);
      if (outcome === 'ok') await this.gateway.store.durable()(); // right after the debit
    } catch (error) {
      return this.drop(subscription, ledgerError(error));
    }
    if (outcome === 'daily') return this.endAll(errors.balanceExhausted(this.ctx.key.dailyCredits));
    if (outcome === 'rate') {
      return this.drop(subscription, errors.rateLimit(this.ctx.key.creditsPerSecond));
    }
    this.gateway.metrics.charged('eth_subscription', cost);
    this.deliver({
      status: 200,
      text: JSON.stringify({
        jsonrpc: '2.0',
        method: 'eth_subscription',
        params: { subscription: clientId, result },
      }),
      charges: [{ method: 'eth_subscription', cost, at }],
    });
  }

  /** Counts a dropped notification; the client is told how many, at the next second. */
  private drop(subscription: Subscription, why: RpcError): void {
    subscription.dropped += 1;
    subscription.droppedWhy = why;
    if (this.dropReportTimer || this.closed) return;
    this.dropReportTimer = setTimeout(
      () => {
        this.dropReportTimer = undefined;
        for (const [id, sub] of this.subscriptions) {
          if (sub.dropped === 0 || !sub.droppedWhy) continue;
          const error = errors.notificationsDropped(sub.dropped, sub.droppedWhy);
          sub.dropped = 0;
          sub.droppedWhy = undefined;
          this.deliver({ status: 200, text: subscriptionError(id, error) });
        }
      },
      1000 - (Date.now() % 1000),
    );
    this.dropReportTimer.unref();
  }

  private async endAll(error: RpcError): Promise<void> {
    for (const clientId of [...this.subscriptions.keys()]) {
      this.deliver({ status: 200, text: subscriptionError(clientId, error) });
      await this.unsubscribe(clientId);
    }
  }
}

function subscriptionError(clientId: string, error: RpcError): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'eth_subscription',
    params: { subscription: clientId, error: error.toJSON() },
  });
}
