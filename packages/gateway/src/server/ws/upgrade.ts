/**
 * WebSocket upgrades at [/<chain>]/ws/v3/<KEY>: the chain and the key are checked before the
 * upgrade (a refusal is a real HTTP status with a JSON-RPC body), then the socket is a Connection.
 * The upgrade is the one answer over a socket with headers: its 101 carries the credit headers
 * (cost 0, and what the key has left), a refusal of the key carries its cost, 0.
 */
import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Gateway } from '../../gateway';
import { BODY_LIMIT, errorResponse, errors, RpcError } from '../../jsonrpc/errors';
import { CREDIT_HEADERS, requestHeaders } from '../http';
import { Connection, type WebSocketOptions } from './connection';

// [/<chain name>]/ws/v3[/<KEY>]: a chain prefix picks the chain by name, else the Host does.
const PATH = /^(?:\/([A-Za-z0-9._-]+))?\/ws\/v3(?:\/([^/?#]*))?\/?(?:\?.*)?$/;

/** `keyed`: the refusal judged a key (its cost, 0, is said, as on HTTP). */
function refuseUpgrade(socket: Duplex, error: RpcError, keyed = false): void {
  const body = errorResponse(null, error);
  const status = error.httpStatus;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      (keyed ? `${CREDIT_HEADERS.cost}: 0\r\n` : '') +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function attachWebSocket(
  server: Server,
  gateway: Gateway,
  options: WebSocketOptions = { slowClientMs: 30_000 },
): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: BODY_LIMIT });
  // What each accepted upgrade's key has left, for its 101's headers (ws builds them).
  const leftOf = new WeakMap<IncomingMessage, number>();
  wss.on('headers', (headers: string[], request: IncomingMessage) => {
    const left = leftOf.get(request);
    if (left === undefined) return;
    headers.push(`${CREDIT_HEADERS.cost}: 0`, `${CREDIT_HEADERS.left}: ${left}`);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined); // a client gone mid-handshake is not our failure
    const match = PATH.exec(request.url ?? '');
    if (!match) return refuseUpgrade(socket, errors.notFound());
    let chain;
    try {
      chain = gateway.chainFor(match[1], request.headers.host);
    } catch (error) {
      return refuseUpgrade(socket, error instanceof RpcError ? error : errors.internal());
    }
    // The key's controls are judged here for the upgrade, and again for each message.
    gateway
      .authenticate(match[2] || undefined, requestHeaders(request))
      // A key with no credit left is refused here too (402, nothing charged): a socket it could
      // not pay for. What it has left is its 101's header.
      .then(async (granted) => {
        const { left } = await gateway.usageReport(granted.key);
        if (left <= 0) throw errors.dailyLimit(granted.key.dailyCredits);
        leftOf.set(request, left);
        return granted;
      })
      .then(
        (granted) =>
          wss.handleUpgrade(request, socket, head, (ws) => {
            new Connection(ws, socket, { chain, ws: true, ...granted }, gateway, options);
          }),
        (error: unknown) =>
          refuseUpgrade(socket, error instanceof RpcError ? error : errors.internal(), true),
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
