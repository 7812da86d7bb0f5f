/**
 * A WebSocket to an upstream node that comes back after a drop. Requests wait for the socket;
 * after every reconnect `onReconnect` runs, so subscriptions can be made again upstream.
 */
import WebSocket from 'ws';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class UpstreamSocket {
  private ws: WebSocket | undefined;
  private opening: Promise<WebSocket> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private retryMs = 100;

  constructor(
    private readonly url: string,
    private readonly onNotification: (subscription: string, result: unknown) => void,
    private readonly onReconnect: () => Promise<void>,
    private readonly timeoutMs = 5000,
  ) {}

  private open(): Promise<WebSocket> {
    if (this.ws?.readyState === WebSocket.OPEN) return Promise.resolve(this.ws);
    this.opening ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.once('open', () => {
        this.ws = ws;
        this.opening = undefined;
        this.retryMs = 100;
        resolve(ws);
      });
      ws.once('error', (error) => {
        this.opening = undefined;
        reject(error);
      });
      ws.on('message', (data) => this.receive(data.toString()));
      ws.once('close', () => this.dropped(ws));
    });
    return this.opening;
  }

  private receive(text: string): void {
    let message: {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: { subscription: string; result: unknown };
    };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.method === 'eth_subscription' && message.params) {
      this.onNotification(message.params.subscription, message.params.result);
      return;
    }
    const pending = message.id === undefined ? undefined : this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id!);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  }

  /** The upstream went away: fail what is in flight, then reconnect and re-subscribe. */
  private dropped(ws: WebSocket): void {
    if (this.ws === ws) this.ws = undefined;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error('upstream websocket closed'));
      this.pending.delete(id);
    }
    if (!this.closed) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 2000);
    setTimeout(() => {
      if (this.closed) return;
      this.open().then(
        () => this.onReconnect().catch(() => this.ws?.terminate()),
        () => this.scheduleReconnect(),
      );
    }, delay).unref();
  }

  async request(method: string, params: unknown[]): Promise<unknown> {
    const ws = await this.open();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('upstream websocket timeout'));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  close(): void {
    this.closed = true;
    this.ws?.close();
    this.ws = undefined;
  }
}
