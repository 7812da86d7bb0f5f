/**
 * Node 20 has no global WebSocket. starknet.js's WebSocketChannel reads `OPEN` from the
 * WebSocket class it found when it was loaded, even when given `websocket: WebSocket`, so
 * without a global one it never sees itself connected. Import this before starknet.
 */
import WebSocket from 'ws';

const g = globalThis as { WebSocket?: unknown };
g.WebSocket ??= WebSocket;
