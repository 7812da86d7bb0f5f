/**
 * WebSocket upgrades at [/<chain>]/ws/v3/<KEY>: the chain and the key are checked before the
 * upgrade (a refusal is a real HTTP status with a JSON-RPC body), then the socket is a Connection.
 */
import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Gateway } from '../../gateway';
import { BODY_LIMIT, errorResponse, errors, RpcError } from '../../jsonrpc/errors';
import { requestHeaders } from '../http';
import { Connection, type WebSocketOptions } from './connection';

// [/<chain name>]/ws/v3[/<KEY>]: a chain prefix picks the chain by name, else the Host does.
const PATH = /^(?:\/([A-Za-z0-9._-]+))?\/ws\/v3(?:\/([^/?#]*))?\/?(?:\?.*)?$/;

function refuseUpgrade(socket: Duplex, error: RpcError): void {
  const body = errorResponse(null, error);
  const status = error.httpStatus;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function attachWebSocket(
  server: Server,
  gateway: Gateway,
  options: WebSocketOptions = { slowClientMs: 30_000 },
): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: BODY_LIMIT });
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
      // A key with no credit left is refused here too: a socket it could not pay for.
      .then(async (granted) => {
        await gateway.assertCreditLeft(granted.key);
        return granted;
      })
      .then(
        (granted) =>
          wss.handleUpgrade(request, socket, head, (ws) => {
            new Connection(ws, socket, { chain, ws: true, ...granted }, gateway, options);
          }),
        (error: unknown) =>
          refuseUpgrade(socket, error instanceof RpcError ? error : errors.internal()),
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
