/**
 * The WebSocket API at /ws (the HTTP port): the spec's subscriptions and starknet_unsubscribe,
 * and every other method as one-time requests, as starknet-devnet serves them. It listens to
 * the served devnet's chain events and writes each matching notification to its socket.
 *
 * Memory is bounded: a socket holds at most MAX_SUBSCRIPTIONS subscriptions, and a client
 * that does not read (its unsent output passes `maxBufferedBytes`) is dropped, so a slow
 * consumer cannot make the devnet buffer without end. A client that leaves takes its
 * subscriptions with it; close() ends every socket (1001) and stops listening.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { ChainEvent } from '../core/devnet';
import { StarknetRpcError } from '../core/errors';
import { InvalidParamError } from '../core/transactions';
import { handleRpcBody, RpcMetrics, toJsonRpcError } from '../rpc/dispatcher';
import type { DevnetHost } from '../rpc/methods';
import { catchUp, Note, notesFor } from './notifications';
import {
  isSubscribeMethod,
  namedParams,
  parseSubscription,
  Subscription,
  wsErrors,
} from './subscriptions';

/** Subscriptions one socket may hold. */
export const MAX_SUBSCRIPTIONS = 1024;
const MAX_MESSAGE_BYTES = 50 * 1024 * 1024;

export interface WebSocketApiOptions {
  /** Unsent output past which a client is dropped as a slow consumer (default 16 MB). */
  maxBufferedBytes?: number;
}

interface Client {
  ws: WebSocket;
  subscriptions: Map<string, Subscription>;
}

type Id = string | number | null;

const subscriptionId = (): string => randomBytes(8).readBigUInt64BE().toString();

export class WebSocketApi {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly clients = new Set<Client>();
  private readonly maxBuffered: number;
  private subscriptionCount = 0;
  private stopListening: () => void = () => undefined;
  /** Slow consumers dropped so far. */
  dropped = 0;

  constructor(
    private readonly host: DevnetHost,
    private readonly metrics: RpcMetrics,
    /** Runs after a one-time request (the server's pre-confirmation timer). */
    private readonly afterCall: () => void,
    options: WebSocketApiOptions = {},
  ) {
    this.maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024;
    this.listen();
  }

  /**
   * Follows the devnet being served. devnet_load and devnet_restart replace it: every
   * subscription ends then (their chain is gone), as starknet-devnet clears them; sockets stay.
   */
  listen(): void {
    this.stopListening();
    for (const client of this.clients) client.subscriptions.clear();
    this.subscriptionCount = 0;
    this.stopListening = this.host.devnet.events.on((event) => this.dispatch(event));
  }

  get subscriptions(): number {
    return this.subscriptionCount;
  }

  get connections(): number {
    return this.clients.size;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const client: Client = { ws, subscriptions: new Map() };
      this.clients.add(client);
      ws.on('message', (data) => this.onMessage(client, data.toString()));
      ws.on('close', () => this.forget(client));
      ws.on('error', () => this.forget(client));
    });
  }

  /** Ends every socket with 1001 (going away); what a client does not close is cut. */
  async close(): Promise<void> {
    this.stopListening();
    const closing = [...this.clients].map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.ws.readyState === WebSocket.CLOSED) return resolve();
          client.ws.once('close', () => resolve());
          client.ws.close(1001, 'devnet shutting down');
          setTimeout(() => client.ws.terminate(), 500).unref();
        }),
    );
    await Promise.all(closing);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private forget(client: Client): void {
    if (!this.clients.delete(client)) return;
    this.subscriptionCount -= client.subscriptions.size;
    client.subscriptions.clear();
  }

  private dispatch(event: ChainEvent): void {
    if (this.subscriptionCount === 0) return;
    const notes = notesFor(this.host.devnet, event);
    for (const client of this.clients) {
      if (client.subscriptions.size === 0) continue;
      for (const note of notes) {
        for (const [id, subscription] of client.subscriptions) {
          if (note.matches(subscription)) this.notify(client, id, note);
        }
      }
    }
  }

  private notify(client: Client, id: string, note: Note): void {
    this.send(
      client,
      `{"jsonrpc":"2.0","method":"${note.method}","params":{"subscription_id":"${id}","result":${note.result()}}}`,
    );
  }

  /** Writes to a socket; a client whose unsent output passes the bound is dropped. */
  private send(client: Client, text: string): void {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    client.ws.send(text);
    if (client.ws.bufferedAmount > this.maxBuffered) {
      this.dropped += 1;
      this.forget(client);
      client.ws.terminate();
    }
  }

  private reply(client: Client, id: Id, result: unknown): void {
    this.send(client, JSON.stringify({ jsonrpc: '2.0', id, result }));
  }

  private fail(client: Client, id: Id, error: unknown): void {
    this.send(client, JSON.stringify({ jsonrpc: '2.0', id, error: toJsonRpcError(error) }));
  }

  private onMessage(client: Client, text: string): void {
    if (!this.clients.has(client)) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.fail(client, null, new StarknetRpcError(-32700, 'Parse error'));
    }
    const call = message as Record<string, unknown> | null;
    const method =
      call && typeof call === 'object' && !Array.isArray(call) ? call.method : undefined;
    if (
      typeof method !== 'string' ||
      (!isSubscribeMethod(method) && method !== 'starknet_unsubscribe')
    ) {
      // Batches and every other method: the HTTP API's answers, over this socket.
      const response = handleRpcBody(this.host, this.metrics, text);
      this.afterCall();
      if (response !== '') this.send(client, response);
      return;
    }
    const id = call!.id;
    if (call!.jsonrpc !== '2.0' || !(typeof id === 'string' || typeof id === 'number')) {
      const validId = typeof id === 'string' || typeof id === 'number' || id === null;
      return this.fail(
        client,
        validId ? (id as Id) : null,
        new StarknetRpcError(-32600, 'Invalid Request'),
      );
    }
    this.metrics.rpcCalls[method] = (this.metrics.rpcCalls[method] ?? 0) + 1;
    try {
      if (method === 'starknet_unsubscribe') return this.unsubscribe(client, id, call!.params);
      if (client.subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new StarknetRpcError(
          -32000,
          `Too many subscriptions on this connection (at most ${MAX_SUBSCRIPTIONS})`,
        );
      }
      const subscription = parseSubscription(this.host.devnet, method, call!.params);
      let subId = subscriptionId();
      while (client.subscriptions.has(subId)) subId = subscriptionId();
      client.subscriptions.set(subId, subscription);
      this.subscriptionCount += 1;
      this.reply(client, id, subId);
      for (const note of catchUp(this.host.devnet, subscription)) this.notify(client, subId, note);
    } catch (error) {
      this.fail(client, id, error);
    }
  }

  private unsubscribe(client: Client, id: Id, raw: unknown): void {
    const params = namedParams(raw, ['subscription_id']);
    const subId = params.subscription_id;
    if (typeof subId !== 'string') {
      throw new InvalidParamError('subscription_id', 'expected a subscription id (a string)');
    }
    if (!client.subscriptions.delete(subId)) throw wsErrors.invalidSubscriptionId();
    this.subscriptionCount -= 1;
    this.reply(client, id, true);
  }
}
