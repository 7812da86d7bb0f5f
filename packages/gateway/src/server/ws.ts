/**
 * WebSocket transport at /ws/v3/<KEY>: the same JSON messages and the same per-message errors
 * as HTTP, plus eth_subscribe (newHeads, logs). Each client connection has its own upstream
 * socket; the ids a client gets are the gateway's own, so they stay valid when the upstream
 * socket drops and its subscriptions are made again. Each notification is charged; when the
 * balance runs out, every subscription ends with an error notification.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { NOTIFICATION_COSTS, type SubscriptionKind } from '../credits/costs';
import type { Answer, CallContext, Gateway } from '../gateway';
import { BODY_LIMIT, errorResponse, errors, RpcError } from '../jsonrpc/errors';
import { UpstreamSocket } from '../upstream/socket';
import { hostName } from './http';

// [/<chain name>]/ws/v3[/<KEY>]: a chain prefix picks the chain by name, else the Host does.
const PATH = /^(?:\/([A-Za-z0-9._-]+))?\/ws\/v3(?:\/([^/?#]*))?\/?(?:\?.*)?$/;

interface Subscription {
  kind: SubscriptionKind;
  params: unknown[];
  upstreamId: string | undefined;
}

function refuseUpgrade(socket: Duplex, error: RpcError): void {
  const body = errorResponse(null, error);
  socket.end(
    `HTTP/1.1 ${error.httpStatus} ${error.httpStatus === 404 ? 'Not Found' : error.httpStatus === 403 ? 'Forbidden' : 'Unauthorized'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function attachWebSocket(server: Server, gateway: Gateway): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: BODY_LIMIT });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
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
            new Connection(ws, { chain, key, ws: true }, gateway);
          }),
        (error: RpcError) => refuseUpgrade(socket, error),
      );
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

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: CallContext,
    private readonly gateway: Gateway,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return void this.send(errorResponse(null, errors.parse()));
      void this.onMessage(data.toString());
    });
    ws.on('close', () => this.upstream?.close());
    ws.on('error', () => this.upstream?.close());
  }

  /** A revoke reaches open connections too: the key is checked again (cached) per message. */
  private async keyStillValid(): Promise<boolean> {
    if (await this.gateway.current(this.ctx.key.hash)) return true;
    await this.endAll(errors.keyInvalid());
    this.ws.close(1008, 'invalid project id');
    return false;
  }

  private async onMessage(text: string): Promise<void> {
    if (!(await this.keyStillValid())) return;
    const answer = await this.gateway.handleBody(this.ctx, text, (ctx, call) =>
      this.handle(ctx, call),
    );
    this.send(answer.text);
  }

  private send(text: string): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  private async handle(ctx: CallContext, call: unknown): Promise<Answer> {
    const method = (call as { method?: unknown } | null)?.method;
    if (method !== 'eth_subscribe' && method !== 'eth_unsubscribe') {
      return this.gateway.handleCall(ctx, call);
    }
    let id: string | number | null = null;
    try {
      const admitted = await this.gateway.admit(ctx, call);
      id = admitted.id;
      const result =
        method === 'eth_subscribe'
          ? await this.subscribe(admitted.params, admitted.spec.cost)
          : await this.unsubscribe(String(admitted.params[0]));
      await admitted.durable;
      this.gateway.metrics.request(method, 200);
      return { status: 200, text: JSON.stringify({ jsonrpc: '2.0', id, result }) };
    } catch (error) {
      const rpcError = error instanceof RpcError ? error : errors.upstreamUnavailable();
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

  private async subscribe(params: unknown[], cost: number): Promise<string> {
    let upstreamId: string;
    try {
      upstreamId = String(await this.socket().request('eth_subscribe', params));
    } catch {
      await this.gateway.refund(this.ctx.key, 'eth_subscribe', cost);
      throw errors.upstreamUnavailable();
    }
    const clientId = '0x' + randomBytes(16).toString('hex');
    this.subscriptions.set(clientId, { kind: params[0] as SubscriptionKind, params, upstreamId });
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

  /** After an upstream reconnect: the same subscriptions again, under the same client ids. */
  private async resubscribe(): Promise<void> {
    this.byUpstream.clear();
    for (const [clientId, subscription] of this.subscriptions) {
      subscription.upstreamId = undefined;
      const upstreamId = String(await this.socket().request('eth_subscribe', subscription.params));
      subscription.upstreamId = upstreamId;
      this.byUpstream.set(upstreamId, clientId);
    }
  }

  private notify(upstreamId: string, result: unknown): void {
    const clientId = this.byUpstream.get(upstreamId);
    const subscription = clientId ? this.subscriptions.get(clientId) : undefined;
    if (!clientId || !subscription) return;
    const cost = NOTIFICATION_COSTS[subscription.kind];
    this.charging = this.charging.then(async () => {
      if (!this.subscriptions.has(clientId) || !(await this.keyStillValid())) return;
      const outcome = await this.gateway.store.debit(
        this.ctx.key,
        'eth_subscription',
        cost,
        this.gateway.now(),
      );
      if (outcome === 'ok') {
        await this.gateway.store.durable(); // right after the debit: its own batch
        this.gateway.metrics.charged('eth_subscription', cost);
        this.send(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'eth_subscription',
            params: { subscription: clientId, result },
          }),
        );
      } else if (outcome === 'daily') {
        await this.endAll(errors.balanceExhausted(this.ctx.key.dailyCredits));
      }
      // Over the per-second limit: this notification is skipped and not charged.
    });
  }

  private async endAll(error: RpcError): Promise<void> {
    for (const clientId of [...this.subscriptions.keys()]) {
      this.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'eth_subscription',
          params: { subscription: clientId, error: error.toJSON() },
        }),
      );
      await this.unsubscribe(clientId);
    }
  }
}
