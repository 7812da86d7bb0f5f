/**
 * The subscriptions of one client connection (eth_subscribe newHeads and logs). They have their
 * own upstream socket; the ids a client gets are the gateway's own, so they stay valid when the
 * upstream socket drops and its subscriptions are made again (once per reconnect). Each
 * notification is charged through the gateway before it is written; when the balance runs out,
 * every subscription ends with an error notification, and notifications dropped by the
 * per-second limit (or while the ledger is down) are counted and reported at the next second.
 */
import { randomBytes } from 'node:crypto';
import type { SubscriptionKind } from '../../credits/costs';
import type { Answer, CallContext, Gateway, LocalCall } from '../../gateway';
import { CODES, errors, RpcError } from '../../jsonrpc/errors';
import { UpstreamSocket } from '../../upstream/socket';

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

/** What the subscriptions need of their connection. */
export interface SubscriptionHost {
  /** Writes to the client (refunded by the gateway if it is not delivered). */
  deliver(answer: Answer): void;
  /** The client is connected and reading what it is sent. */
  reading(): boolean;
  /** The key is still valid (else the connection ends its subscriptions and closes). */
  keyStillValid(): Promise<boolean>;
  closed(): boolean;
}

export class Subscriptions {
  private readonly byClientId = new Map<string, Subscription>();
  private readonly byUpstream = new Map<string, string>();
  private upstream: UpstreamSocket | undefined;
  /** Notifications are charged one after another, in the order the upstream sent them. */
  private charging: Promise<void> = Promise.resolve();
  private dropReportTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: CallContext,
    private readonly gateway: Gateway,
    private readonly host: SubscriptionHost,
  ) {}

  /** eth_subscribe and eth_unsubscribe, served here once the gateway has charged them. */
  readonly local: LocalCall = (method, params) => {
    if (method === 'eth_subscribe') return this.subscribe(params);
    if (method === 'eth_unsubscribe') return this.unsubscribe(String(params[0]));
    return undefined;
  };

  /** The connection ended: its upstream socket (and every subscription on it) goes too. */
  close(): void {
    this.upstream?.close();
    this.upstream = undefined;
    clearTimeout(this.dropReportTimer);
    this.byClientId.clear();
    this.byUpstream.clear();
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

  /** A new subscription's client id; throws (the gateway refunds) when it cannot be made. */
  private async subscribe(params: unknown[]): Promise<string> {
    if (this.host.closed()) throw errors.upstreamUnavailable();
    const upstream = this.socket();
    let upstreamId: string;
    try {
      upstreamId = String(await upstream.request('eth_subscribe', params));
    } catch {
      throw errors.upstreamUnavailable();
    }
    // The client left while the upstream answered: closing its upstream socket ended this
    // subscription too, and the answer (and its charge) is refunded as undelivered.
    if (this.host.closed()) return upstreamId;
    const clientId = '0x' + randomBytes(16).toString('hex');
    this.byClientId.set(clientId, {
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
    const subscription = this.byClientId.get(clientId);
    if (!subscription) return false;
    this.byClientId.delete(clientId);
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
    if (!upstream || this.host.closed()) return;
    const generation = upstream.generation;
    for (const subscription of this.byClientId.values()) {
      if (subscription.generation !== generation && subscription.upstreamId !== undefined) {
        this.byUpstream.delete(subscription.upstreamId);
        subscription.upstreamId = undefined;
      }
    }
    for (const [clientId, subscription] of this.byClientId) {
      if (subscription.generation === generation) continue;
      const upstreamId = String(await upstream.request('eth_subscribe', subscription.params));
      if (this.host.closed() || upstream.generation !== generation) return;
      if (this.byClientId.get(clientId) !== subscription) {
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
    const subscription = clientId ? this.byClientId.get(clientId) : undefined;
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
    if (this.host.closed() || this.byClientId.get(clientId) !== subscription) return;
    if (!this.host.reading()) return this.drop(subscription, errors.clientNotReading());
    let charge;
    try {
      if (!(await this.host.keyStillValid())) return;
      charge = await this.gateway.chargeNotification(this.ctx.key, subscription.kind);
    } catch (error) {
      const rpcError = error instanceof RpcError ? error : errors.internal();
      // Out of balance: every subscription ends. Over the rate, or the ledger away: dropped.
      if (rpcError.code === CODES.dailyLimit) return this.endAll(rpcError);
      return this.drop(subscription, rpcError);
    }
    this.host.deliver({
      status: 200,
      text: JSON.stringify({
        jsonrpc: '2.0',
        method: 'eth_subscription',
        params: { subscription: clientId, result },
      }),
      charges: [charge],
    });
  }

  /** Counts a dropped notification; the client is told how many, at the next second. */
  private drop(subscription: Subscription, why: RpcError): void {
    subscription.dropped += 1;
    subscription.droppedWhy = why;
    if (this.dropReportTimer || this.host.closed()) return;
    this.dropReportTimer = setTimeout(
      () => {
        this.dropReportTimer = undefined;
        for (const [id, sub] of this.byClientId) {
          if (sub.dropped === 0 || !sub.droppedWhy) continue;
          const error = errors.notificationsDropped(sub.dropped, sub.droppedWhy);
          sub.dropped = 0;
          sub.droppedWhy = undefined;
          this.host.deliver({ status: 200, text: subscriptionError(id, error) });
        }
      },
      1000 - (Date.now() % 1000),
    );
    this.dropReportTimer.unref();
  }

  /** Ends every subscription with an error notification (the balance ran out, a revoke). */
  async endAll(error: RpcError): Promise<void> {
    for (const clientId of [...this.byClientId.keys()]) {
      this.host.deliver({ status: 200, text: subscriptionError(clientId, error) });
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
