/**
 * The subscriptions of one client connection: EVM eth_subscribe (newHeads, logs) and, on
 * Starknet chains, the spec's WebSocket API (starknet_subscribe*, starknet_unsubscribe). They
 * have their own upstream socket; the ids a client gets are the gateway's own. Each notification
 * is charged through the gateway before it is written, and only after the answer that made its
 * subscription was written (a node sends a subscription's replayed blocks right after its id).
 * Details: docs/architecture/gateway.md#subscriptions.
 */
import { randomBytes } from 'node:crypto';
import type { SubscriptionKind } from '../../credits/costs';
import type { Answer, CallContext, Gateway, LocalCall } from '../../gateway';
import { CODES, errors, RpcError } from '../../jsonrpc/errors';
import { STARKNET_SUBSCRIBE } from '../../jsonrpc/starknet';
import { UpstreamCallError, UpstreamSocket } from '../../upstream/socket';

/** Notifications a subscription holds until its answer is written (a node's replay). */
const MAX_HELD = 4096;

interface Subscription {
  /** The subscribe method and params, as the client sent them (made again after a reconnect). */
  method: string;
  params: unknown;
  kind: SubscriptionKind;
  upstreamId: string | undefined;
  /** The upstream socket generation `upstreamId` belongs to. */
  generation: number;
  /** Notifications waiting for the subscription's answer to be written; then undefined. */
  held: { result: unknown; method: string }[] | undefined;
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
  /** Closes the client's socket with a WebSocket close code and a short reason. */
  end(code: number, reason: string): void;
}

export class Subscriptions {
  private readonly byClientId = new Map<string, Subscription>();
  private readonly byUpstream = new Map<string, string>();
  private upstream: UpstreamSocket | undefined;
  /** Notifications are charged one after another, in the order the upstream sent them. */
  private charging: Promise<void> = Promise.resolve();
  private dropReportTimer: NodeJS.Timeout | undefined;
  private readonly starknet: boolean;

  constructor(
    private readonly ctx: CallContext,
    private readonly gateway: Gateway,
    private readonly host: SubscriptionHost,
  ) {
    this.starknet = ctx.chain.protocol === 'starknet';
  }

  /**
   * The calls of one client message served here (once the gateway has charged them), and what
   * releases the notifications of the subscriptions they made, once their answer is written.
   */
  message(): { local: LocalCall; written(): void } {
    const made: Subscription[] = [];
    return {
      local: (method, params) => this.serve(method, params, made),
      written: () => made.forEach((subscription) => this.release(subscription)),
    };
  }

  private serve(method: string, params: unknown, made: Subscription[]) {
    if (this.starknet) {
      if (STARKNET_SUBSCRIBE.has(method)) return this.subscribe(method, params, method, made);
      if (method === 'starknet_unsubscribe') return this.unsubscribeStarknet(params);
      return undefined;
    }
    const list = params as unknown[];
    if (method === 'eth_subscribe') return this.subscribe(method, list, list[0] as string, made);
    if (method === 'eth_unsubscribe') return this.unsubscribe(String(list[0]));
    return undefined;
  }

  /** The connection ended: its upstream socket (and every subscription on it) goes too. */
  close(): void {
    this.upstream?.close();
    this.upstream = undefined;
    clearTimeout(this.dropReportTimer);
    this.byClientId.clear();
    this.byUpstream.clear();
  }

  private socket(): UpstreamSocket {
    const { chain } = this.ctx;
    // A Starknet node serves its WebSocket API on its own path (the devnet's /ws): by default
    // the first upstream's origin with /ws.
    const url =
      chain.wsUpstream ??
      (this.starknet
        ? new URL('/ws', chain.upstreams[0].url.replace(/^http/, 'ws')).href
        : chain.upstreams[0].url.replace(/^http/, 'ws'));
    this.upstream ??= new UpstreamSocket(
      url,
      (upstreamId, result, method) => this.notify(upstreamId, result, method),
      () => this.resubscribe(),
      5000,
      this.starknet ? () => this.upstreamLost() : undefined,
    );
    return this.upstream;
  }

  /** A new subscription's client id; throws (the gateway refunds) when it cannot be made. */
  private async subscribe(
    method: string,
    params: unknown,
    kind: string,
    made: Subscription[],
  ): Promise<string> {
    if (this.host.closed()) throw errors.upstreamUnavailable();
    const upstream = this.socket();
    const clientId = '0x' + randomBytes(16).toString('hex');
    const subscription: Subscription = {
      method,
      params,
      kind: kind as SubscriptionKind,
      upstreamId: undefined,
      generation: 0,
      held: [],
      dropped: 0,
      droppedWhy: undefined,
    };
    try {
      // Registered as the answer is read: the node's replay right after it finds its subscription.
      await upstream.request(method, params, (result) => {
        const upstreamId = String(result);
        subscription.upstreamId = upstreamId;
        subscription.generation = upstream.generation;
        this.byClientId.set(clientId, subscription);
        this.byUpstream.set(upstreamId, clientId);
      });
    } catch (error) {
      // The node's own refusal (a block too far back, too many keys) is relayed on Starknet.
      if (this.starknet && error instanceof UpstreamCallError)
        throw new RpcError(error.code, error.message, 200, error.data);
      throw errors.upstreamUnavailable();
    }
    made.push(subscription);
    // The client left while the upstream answered: closing its upstream socket ended this
    // subscription too, and the answer (and its charge) is refunded as undelivered.
    return clientId;
  }

  /** The subscription's answer was written: what it held is charged and delivered, in order. */
  private release(subscription: Subscription): void {
    const held = subscription.held ?? [];
    subscription.held = undefined;
    for (const { result, method } of held) this.enqueue(subscription, result, method);
  }

  private async unsubscribe(clientId: string): Promise<boolean> {
    const subscription = this.byClientId.get(clientId);
    if (!subscription) return false;
    this.byClientId.delete(clientId);
    if (subscription.upstreamId) {
      this.byUpstream.delete(subscription.upstreamId);
      const params = this.starknet
        ? { subscription_id: subscription.upstreamId }
        : [subscription.upstreamId];
      const method = this.starknet ? 'starknet_unsubscribe' : 'eth_unsubscribe';
      await this.upstream?.request(method, params).catch(() => false);
    }
    return true;
  }

  /** starknet_unsubscribe: an id this connection does not hold is the spec's 66. */
  private async unsubscribeStarknet(params: unknown): Promise<boolean> {
    const id = Array.isArray(params)
      ? params[0]
      : (params as { subscription_id?: unknown }).subscription_id;
    if (!(await this.unsubscribe(String(id)))) throw new RpcError(66, 'Invalid subscription id');
    return true;
  }

  /** Starknet: the upstream socket is gone, and with it every stream (see the top). */
  private upstreamLost(): void {
    this.upstream = undefined;
    this.byClientId.clear();
    this.byUpstream.clear();
    this.host.end(1012, 'upstream node connection lost; reconnect and subscribe again');
  }

  /**
   * After an upstream reconnect (EVM, once per new socket): every subscription made on an
   * earlier socket is made again, under the same client id. A drop in the middle leaves the rest
   * to the next reconnect; ids from earlier sockets are forgotten first, so nothing is delivered
   * twice.
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
      const upstreamId = String(await upstream.request(subscription.method, subscription.params));
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

  private notify(upstreamId: string, result: unknown, method: string): void {
    const clientId = this.byUpstream.get(upstreamId);
    const subscription = clientId ? this.byClientId.get(clientId) : undefined;
    if (!subscription) return;
    if (subscription.held) {
      if (subscription.held.length < MAX_HELD) subscription.held.push({ result, method });
      else this.drop(subscription, errors.clientNotReading());
      return;
    }
    this.enqueue(subscription, result, method);
  }

  private enqueue(subscription: Subscription, result: unknown, method: string): void {
    this.charging = this.charging
      .then(() => this.notifyOne(subscription, result, method))
      .catch(() => undefined);
  }

  /** Charges one notification and writes it, or drops it (not charged) and counts it. */
  private async notifyOne(
    subscription: Subscription,
    result: unknown,
    method: string,
  ): Promise<void> {
    const clientId = this.clientIdOf(subscription);
    if (this.host.closed() || !clientId) return;
    if (!this.host.reading()) return this.drop(subscription, errors.clientNotReading());
    // EVM notifications are charged by subscription kind, Starknet ones by method.
    const kind = this.starknet ? (method as SubscriptionKind) : subscription.kind;
    let charge;
    try {
      if (!(await this.host.keyStillValid())) return;
      charge = await this.gateway.chargeNotification(this.ctx.key, kind);
    } catch (error) {
      const rpcError = error instanceof RpcError ? error : errors.internal();
      // Out of balance: every subscription ends. Over the rate, or the ledger away: dropped.
      if (rpcError.code === CODES.dailyLimit) return this.endAll(rpcError);
      return this.drop(subscription, rpcError);
    }
    const text = this.starknet
      ? JSON.stringify({ jsonrpc: '2.0', method, params: { subscription_id: clientId, result } })
      : JSON.stringify({
          jsonrpc: '2.0',
          method: 'eth_subscription',
          params: { subscription: clientId, result },
        });
    this.host.deliver({ status: 200, text, charges: charge.cost > 0 ? [charge] : [] });
  }

  private clientIdOf(subscription: Subscription): string | undefined {
    const id = subscription.upstreamId && this.byUpstream.get(subscription.upstreamId);
    return id && this.byClientId.get(id) === subscription ? id : undefined;
  }

  /** Counts a dropped notification; the client is told how many, at the next second. */
  private drop(subscription: Subscription, why: RpcError): void {
    if (this.starknet) {
      const reason = `notifications dropped: ${why.message}`.slice(0, 120);
      return this.host.end(1013, reason);
    }
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
    if (this.starknet) {
      for (const clientId of [...this.byClientId.keys()]) await this.unsubscribe(clientId);
      return this.host.end(1008, error.message.slice(0, 120));
    }
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
