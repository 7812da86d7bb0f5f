import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { readRequestBody } from '@l2wallet/jsonrpc';

import { Devnet } from './core/devnet';
import type { PredeployedAccount } from './core/predeployed';
import { ExplorerQueryError, listTransactions } from './explorer/txns';
import { handleRpcBody, RpcMetrics } from './rpc/dispatcher';
import { DevnetHost } from './rpc/methods';
import { WebSocketApi, WebSocketApiOptions } from './ws/api';

export interface DevnetServerOptions {
  host?: string;
  /** 0 picks a free port. Default 5050. */
  port?: number;
  seed?: number;
  accounts?: number;
  /** Milliseconds between blocks; 0 (default) closes a block per transaction. */
  blockTime?: number;
  /**
   * With a block time: milliseconds a submitted transaction stays RECEIVED (queued) before it is
   * executed into the pre-confirmed block. Default min(250, blockTime / 4); 0 executes it at once.
   */
  preconfirmDelayMs?: number;
  chainId?: string;
  initialBalance?: bigint;
  /** What starknet_specVersion answers (default 0.10.0); a 0.9.x version takes 0.9's getEvents. */
  rpcVersion?: string;
  /** Unix seconds of the genesis block; the clock runs on from it (default: now). */
  startTime?: number;
  /** The Starknet version blocks report (default 0.14.1); before 0.14.1, Poseidon CASM hashes. */
  starknetVersion?: string;
  /** The WebSocket API's bounds (a slow consumer's unsent output). */
  webSocket?: WebSocketApiOptions;
}

export interface DevnetServer {
  url: string;
  rpcUrl: string;
  /** The WebSocket API: ws://host:port/ws. */
  wsUrl: string;
  /** Open WebSocket connections and their subscriptions, and slow consumers dropped. */
  readonly webSocket: { connections: number; subscriptions: number; dropped: number };
  port: number;
  host: string;
  readonly predeployedAccounts: PredeployedAccount[];
  metrics: RpcMetrics;
  resetMetrics(): void;
  /** The devnet currently served (devnet_load and devnet_restart replace it). */
  readonly devnet: Devnet;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<string> {
  const body = await readRequestBody(req, MAX_BODY_BYTES);
  if (body === undefined) throw new Error('request body too large');
  return body;
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    // The demo dapp and the snap call the node from a browser origin.
    'access-control-allow-origin': '*',
  });
  res.end(body);
}

/**
 * Starts the devnet behind a small HTTP server: JSON-RPC on POST / and /rpc, the WebSocket API
 * on /ws, explorer on GET /api/txns.
 */
export async function startDevnetServer(options: DevnetServerOptions = {}): Promise<DevnetServer> {
  const blockTime = options.blockTime ?? 0;
  const preconfirmDelay = options.preconfirmDelayMs ?? Math.min(250, Math.floor(blockTime / 4));
  const host: DevnetHost = {
    devnet: new Devnet({
      seed: options.seed,
      accounts: options.accounts,
      chainId: options.chainId,
      initialBalance: options.initialBalance,
      blockPerTransaction: blockTime === 0,
      startTime: options.startTime,
      starknetVersion: options.starknetVersion,
    }),
    rpcVersion: options.rpcVersion,
  };
  const metrics: RpcMetrics = { httpRequests: 0, rpcCalls: {} };

  let timer: NodeJS.Timeout | undefined;
  // Executes the queued (RECEIVED) transactions once the first of them has waited the delay.
  let preconfirmTimer: NodeJS.Timeout | undefined;
  const clearPreconfirmTimer = (): void => {
    if (preconfirmTimer) clearTimeout(preconfirmTimer);
    preconfirmTimer = undefined;
  };
  const schedulePreconfirm = (): void => {
    if (host.devnet.queuedCount === 0 || preconfirmTimer) return;
    if (preconfirmDelay === 0) {
      host.devnet.executeQueued();
      return;
    }
    preconfirmTimer = setTimeout(() => {
      preconfirmTimer = undefined;
      host.devnet.executeQueued();
    }, preconfirmDelay);
  };
  const armBlockTimer = (): void => {
    if (timer) clearInterval(timer);
    timer = undefined;
    clearPreconfirmTimer();
    host.devnet.blockPerTransaction = blockTime === 0;
    if (blockTime > 0) timer = setInterval(() => host.devnet.closeBlock(), blockTime);
  };
  armBlockTimer();
  const webSocket = new WebSocketApi(host, metrics, () => schedulePreconfirm(), options.webSocket);
  host.onReplaced = () => {
    armBlockTimer();
    webSocket.listen();
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://devnet');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'content-type',
        });
        res.end();
        return;
      }
      if (req.method === 'POST' && (url.pathname === '/' || url.pathname === '/rpc')) {
        const body = await readBody(req);
        metrics.httpRequests += 1;
        const response = handleRpcBody(host, metrics, body);
        schedulePreconfirm();
        if (response === '') {
          res.writeHead(204);
          res.end();
        } else send(res, 200, response);
        return;
      }
      if (req.method === 'GET' && url.pathname === '/api/txns') {
        try {
          send(res, 200, JSON.stringify(listTransactions(host.devnet, url.searchParams)));
        } catch (error) {
          if (error instanceof ExplorerQueryError)
            send(res, 400, JSON.stringify({ error: error.message }));
          else throw error;
        }
        return;
      }
      if (req.method === 'GET' && url.pathname === '/is_alive') {
        send(res, 200, 'Alive!!!', 'text/plain');
        return;
      }
      send(res, 404, JSON.stringify({ error: `no route for ${req.method} ${url.pathname}` }));
    } catch (error) {
      send(
        res,
        500,
        JSON.stringify({ error: error instanceof Error ? error.message : 'internal error' }),
      );
    }
  });
  // Clients (and benchmarks) may pause between requests; close() ends idle sockets itself.
  server.keepAliveTimeout = 60_000;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined); // a client gone mid-handshake is not our failure
    if (new URL(req.url ?? '/', 'http://devnet').pathname === '/ws') {
      webSocket.handleUpgrade(req, socket, head);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });

  const bindHost = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 5050, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const url = `http://${urlHost}:${port}`;

  return {
    url,
    rpcUrl: `${url}/rpc`,
    wsUrl: `ws://${urlHost}:${port}/ws`,
    webSocket,
    port,
    host: bindHost,
    // Getters: devnet_load and devnet_restart swap the devnet being served.
    get predeployedAccounts() {
      return host.devnet.predeployedAccounts;
    },
    metrics,
    resetMetrics() {
      metrics.httpRequests = 0;
      for (const key of Object.keys(metrics.rpcCalls)) delete metrics.rpcCalls[key];
    },
    get devnet() {
      return host.devnet;
    },
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      clearPreconfirmTimer();
      const closed = new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return webSocket.close().then(() => closed);
    },
  };
}
