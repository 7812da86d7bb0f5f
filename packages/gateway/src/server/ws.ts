/** WebSocket transport (placeholder until subscriptions land). */
import type { Server } from 'node:http';
import type { Gateway } from '../gateway';

export function attachWebSocket(_server: Server, _gateway: Gateway): { close(): Promise<void> } {
  return { close: async () => undefined };
}
