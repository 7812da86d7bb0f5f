import WebSocket from 'ws';
import { notificationProblems } from './spec/schemas';

export interface WsMessage {
  jsonrpc: string;
  id?: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
  params?: { subscription_id: string; result: Record<string, unknown> };
}

/**
 * A raw `ws` client of the devnet's WebSocket API that checks every notification it receives
 * against starknet_ws_api.json (problems are collected, for the test to assert empty).
 */
export class WsClient {
  readonly messages: WsMessage[] = [];
  readonly problems: string[] = [];
  private nextId = 1;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as WsMessage;
      if (message.method && message.params) {
        for (const p of notificationProblems(message.method, message.params))
          this.problems.push(`${message.method}: ${p}`);
      }
      this.messages.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(url: string): Promise<WsClient> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new WsClient(ws)));
      ws.once('error', reject);
    });
  }

  /** Resolves once `predicate` holds for the messages received (fails after `ms`). */
  async until<T>(predicate: () => T | undefined | false, ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('timed out waiting for a WebSocket message');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async call(method: string, params?: unknown): Promise<WsMessage> {
    const id = this.nextId++;
    this.ws.send(
      JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) }),
    );
    return this.until(() => this.messages.find((m) => m.id === id && m.method === undefined));
  }

  /** Subscribes; throws the error when refused. */
  async subscribe(method: string, params?: unknown): Promise<string> {
    const reply = await this.call(method, params);
    if (reply.error) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
    return reply.result as string;
  }

  /** The notifications of one subscription, in order. */
  of(subscriptionId: string): WsMessage[] {
    return this.messages.filter((m) => m.params?.subscription_id === subscriptionId);
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
