/**
 * A WebSocket to an upstream node that comes back after a drop. Requests wait for the socket;
 * after every reconnect `onReconnect` runs once (the socket's `generation` tells which socket a
 * subscription was made on), so subscriptions can be made again upstream. One reconnect loop at a
 * time, and close() also ends a socket that is still opening: nothing outlives its owner. With
 * `onDrop` (Starknet chains) a drop is not repaired: the owner is told and the socket is closed.
 * Notifications of both protocols are recognised: `eth_subscription` {subscription, result}
 * and the Starknet `starknet_subscription*` methods {subscription_id, result}.
 */
import WebSocket from 'ws';

/** A JSON-RPC error the upstream answered (the node refused the call). */
export class UpstreamCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  onResult?: (result: unknown) => void;
}

export class UpstreamSocket {
  private ws: WebSocket | undefined;
  private opening: Promise<WebSocket> | undefined;
  private connecting: WebSocket | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** Bumped each time a socket opens; subscriptions made on an earlier one are gone. */
  generation = 0;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private retryMs = 100;

  constructor(
    private readonly url: string,
    private readonly onNotification: (
      subscription: string,
      result: unknown,
      method: string,
    ) => void,
    private readonly onReconnect: () => Promise<void>,
    private readonly timeoutMs = 5000,
    private readonly onDrop?: () => void,
  ) {}

  private open(): Promise<WebSocket> {
    if (this.closed) return Promise.reject(new Error('upstream websocket closed'));
    if (this.ws?.readyState === WebSocket.OPEN) return Promise.resolve(this.ws);
    if (this.opening) return this.opening;
    const ws = new WebSocket(this.url);
    this.connecting = ws;
    const opening = new Promise<WebSocket>((resolve, reject) => {
      ws.once('open', () => {
        if (this.opening === opening) this.opening = undefined;
        this.connecting = undefined;
        if (this.closed) {
          ws.terminate();
          reject(new Error('upstream websocket closed'));
          return;
        }
        this.ws = ws;
        this.retryMs = 100;
        this.generation += 1;
        resolve(ws);
        if (this.generation > 1) this.onReconnect().catch(() => ws.terminate());
      });
      ws.once('error', (error) => {
        if (this.opening === opening) this.opening = undefined;
        if (this.connecting === ws) this.connecting = undefined;
        reject(error);
      });
      ws.on('message', (data) => this.receive(data.toString()));
      ws.once('close', () => this.dropped(ws));
    });
    opening.catch(() => undefined); // a caller that gave up must not leave a rejection behind
    this.opening = opening;
    return opening;
  }

  private receive(text: string): void {
    let message: {
      id?: number;
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
      method?: string;
      params?: { subscription?: string; subscription_id?: string; result: unknown };
    };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.method && message.params) {
      const id = message.params.subscription ?? message.params.subscription_id;
      if (id !== undefined) this.onNotification(String(id), message.params.result, message.method);
      return;
    }
    const pending = message.id === undefined ? undefined : this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id!);
    clearTimeout(pending.timer);
    if (message.error) {
      const { code, message: text, data } = message.error;
      pending.reject(new UpstreamCallError(code, text, data));
    } else {
      pending.onResult?.(message.result);
      pending.resolve(message.result);
    }
  }

  /** The upstream went away: fail what is in flight, then reconnect and re-subscribe. */
  private dropped(ws: WebSocket): void {
    if (this.connecting === ws) this.connecting = undefined;
    if (this.ws === ws) {
      this.ws = undefined;
      this.failPending();
      if (this.onDrop && !this.closed) {
        this.close();
        this.onDrop();
        return;
      }
    }
    // A socket that failed to open also closes: either way one reconnect is scheduled (with
    // onDrop, none: the next request opens a socket again).
    if (!this.closed && !this.ws && !this.onDrop) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.opening) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 2000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      // A failure closes the attempt's socket, and that schedules the next try.
      if (!this.closed) this.open().catch(() => undefined);
    }, delay);
    this.reconnectTimer.unref();
  }

  /**
   * A call on the socket. `onResult` runs as the answer is read, before any later message is:
   * a subscription's id is known before its first notifications, sent right after it, arrive.
   */
  async request(
    method: string,
    params: unknown,
    onResult?: (result: unknown) => void,
  ): Promise<unknown> {
    const ws = await this.open();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('upstream websocket timeout'));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, onResult });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  private failPending(): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error('upstream websocket closed'));
      this.pending.delete(id);
    }
  }

  /**
   * Ends the socket (open or still opening): every upstream subscription on it ends too, and
   * requests in flight fail now (not at their timeout), so their callers refund at once.
   */
  close(): void {
    this.closed = true;
    this.failPending();
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.ws?.terminate();
    this.connecting?.terminate();
    this.ws = undefined;
    this.connecting = undefined;
  }
}
