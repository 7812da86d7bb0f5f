/**
 * HTTP transport on node:http: POST [/<chain>]/v3/<KEY> (JSON-RPC, one call or a batch),
 * GET [/<chain>]/v3/<KEY>/usage (free), GET /healthz, GET /metrics. CORS is open so the site's
 * Gateway page can call it from a browser; a key's origin allowlist still applies.
 *
 * No framework: every call goes through here, and the few routes need no router. The body is
 * read as bytes up to BODY_LIMIT, then handed to the transport-free gateway as text.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { KeyRecord } from '../auth/keys';
import { type Answer, type Gateway, ledgerError } from '../gateway';
import { BODY_LIMIT, errorResponse, errors, type RpcError } from '../jsonrpc/errors';
import { health } from '../upstream/health';
import { type FastConnection, type FastHeaders, type FastPathHandler, serveFast } from './fastPath';

/** The headers a request is judged by (node:http's; the hot path reads the same ones). */
export function requestHeaders(req: IncomingMessage): FastHeaders {
  const { host, authorization, origin } = req.headers;
  return { host, authorization, origin, userAgent: req.headers['user-agent'] };
}

// [/<chain name>]/v3[/<KEY>][/] and [/<chain name>]/v3/<KEY>/usage, with any query string.
const RPC_PATH = /^(?:\/([^/?#]+))?\/v3(?:\/([^/?#]*))?\/?(?:\?.*)?$/;
const USAGE_PATH = /^(?:\/([^/?#]+))?\/v3\/([^/?#]+)\/usage\/?(?:\?.*)?$/;

const JSON_TYPE = 'application/json';
const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-max-age': '86400',
} as const;
/** What an answer cost and what its key has left today, readable by a page's scripts. */
export const CREDIT_HEADERS = { cost: 'x-credits-cost', left: 'x-credits-remaining' } as const;
const EXPOSE = `${CREDIT_HEADERS.cost}, ${CREDIT_HEADERS.left}`;

export interface HttpOptions {
  /** A connection that makes no progress for this long (a client not reading) is dropped. */
  slowClientMs: number;
}

/** A path segment, percent-decoded (as sent when it does not decode); undefined when empty. */
function segment(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * One whole answer: headers and body in one write, with its length (never chunked), and what it
 * cost when a key was found (a refusal: 0).
 */
function send(
  res: ServerResponse,
  status: number,
  text: string,
  type = JSON_TYPE,
  credits?: Answer['credits'],
): void {
  // A flat list: Node takes it as is, without an object to build and walk per answer.
  const headers = [
    'content-type',
    type,
    'access-control-allow-origin',
    '*',
    'content-length',
    String(Buffer.byteLength(text)),
  ];
  if (credits) {
    headers.push(
      CREDIT_HEADERS.cost,
      String(credits.cost),
      'access-control-expose-headers',
      EXPOSE,
    );
    if (credits.left !== undefined) headers.push(CREDIT_HEADERS.left, String(credits.left));
  }
  res.writeHead(status, headers);
  res.end(text);
}

/** The answer refusing a whole request. */
function refusal(error: unknown): Answer {
  // Not an RpcError: the ledger (the only other thing these handlers wait on) failed.
  const rpcError = ledgerError(error);
  return { status: rpcError.httpStatus, text: errorResponse(null, rpcError), credits: { cost: 0 } };
}

function sendError(res: ServerResponse, error: unknown): void {
  const { status, text } = refusal(error);
  send(res, status, text);
}

/**
 * The request body as UTF-8 text, or an error once it passes BODY_LIMIT (413: the rest is read
 * and dropped, and the connection closed after the answer).
 */
function readBody(req: IncomingMessage, done: (text: string | RpcError) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  if (Number(req.headers['content-length']) > BODY_LIMIT) return tooLarge();
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > BODY_LIMIT) return tooLarge();
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (over) return;
    done(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks, size).toString());
  });
  req.on('error', () => undefined); // a client gone mid-body: nothing to answer
  function tooLarge(): void {
    over = true;
    req.resume();
    done(errors.bodyTooLarge());
  }
}

export interface HttpServer {
  server: Server;
  /** Stops accepting, closes idle keep-alive connections; resolves when all are closed. */
  close(): Promise<void>;
}

export function buildHttp(
  gateway: Gateway,
  options: HttpOptions = { slowClientMs: 30_000 },
): HttpServer {
  /**
   * Billed by delivery: an answer whose connection closes before it is written is refunded.
   * Node reports a write that a destroy cut short as finished, so an answer that finishes only
   * once its socket is gone counts as undelivered too (at worst, one answer is not charged).
   */
  const settleOnDelivery = (
    req: IncomingMessage,
    res: ServerResponse,
    answer: Answer & { key?: KeyRecord },
  ) => {
    const { key, charges } = answer;
    if (!key || !charges) return;
    // The request keeps its socket (a response is detached from it when it finishes).
    const socket = req.socket;
    let cutShort = false;
    res.once('finish', () => {
      cutShort = socket.destroyed;
    });
    res.once('close', () => {
      gateway.settle(key, charges, res.writableFinished && !cutShort);
    });
  };

  /** A JSON-RPC body's answer, whichever path read it; with the key when calls were charged. */
  const answerRpc = async (
    named: string | undefined,
    keyText: string | undefined,
    headers: FastHeaders,
    body: string,
  ): Promise<Answer & { key?: KeyRecord }> => {
    let chain;
    let granted;
    try {
      chain = gateway.chainFor(named, headers.host);
      granted = await gateway.authenticate(keyText, headers);
    } catch (error) {
      return refusal(error);
    }
    const answer: Answer & { key?: KeyRecord } = await gateway.handleBody(
      { chain, ws: false, ...granted },
      body,
    );
    if (answer.charges?.length) answer.key = granted.key;
    return answer;
  };

  const rpc = async (
    req: IncomingMessage,
    res: ServerResponse,
    named: string | undefined,
    keyText: string | undefined,
    body: string,
  ) => {
    const answer = await answerRpc(named, keyText, requestHeaders(req), body);
    settleOnDelivery(req, res, answer);
    send(res, answer.status, answer.text, JSON_TYPE, answer.credits);
  };

  const usage = async (req: IncomingMessage, res: ServerResponse, keyText: string | undefined) => {
    const { key } = await gateway.authenticate(keyText, requestHeaders(req));
    send(res, 200, JSON.stringify(await gateway.usageReport(key)));
  };

  const route = (req: IncomingMessage, res: ServerResponse): Promise<void> | void => {
    const url = req.url ?? '/';
    if (req.method === 'POST') {
      const match = RPC_PATH.exec(url);
      if (!match) return sendError(res, errors.notFound());
      return readBody(req, (body) => {
        if (typeof body !== 'string') {
          res.shouldKeepAlive = false;
          return sendError(res, body);
        }
        rpc(req, res, segment(match[1]), segment(match[2]), body).catch((error) =>
          fail(res, error),
        );
      });
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const path = url.split('?', 1)[0];
      if (path === '/healthz' || path === '/health') {
        const report = health(gateway.router);
        return send(res, report.status === 'ok' ? 200 : 503, JSON.stringify(report));
      }
      if (path === '/metrics') {
        return send(res, 200, gateway.metrics.render(), 'text/plain; version=0.0.4');
      }
      const match = USAGE_PATH.exec(url);
      if (match) return usage(req, res, segment(match[2])).catch((error) => sendError(res, error));
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, PREFLIGHT_HEADERS);
      return void res.end();
    }
    sendError(res, errors.notFound());
  };

  /** Our own failure while answering: a generic 500 (no stack or detail leaves the process). */
  const fail = (res: ServerResponse, _error: unknown) => {
    if (res.headersSent) return void res.destroy();
    sendError(res, errors.internal());
  };

  const server = createServer({ keepAliveTimeout: 72_000 }, (req, res) => {
    // A GET or OPTIONS body is not read for anything: drop it so the connection can be reused.
    if (req.method !== 'POST') req.resume();
    try {
      const pending = route(req, res);
      if (pending) pending.catch((error) => fail(res, error));
    } catch (error) {
      fail(res, error);
    }
  });
  // A connection that makes no progress for slowClientMs (a client that does not read) is
  // closed. Its unread input is read first: closing with unread input resets the connection,
  // and the reset loses what the kernel still held for the client.
  server.setTimeout(options.slowClientMs, (socket: Socket) => {
    socket.resume();
    setTimeout(() => socket.destroy(), 50).unref();
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && !socket.destroyed) {
      const status =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? '431 Request Header Fields Too Large'
          : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    } else socket.destroy();
  });

  // The hot path reads its connections itself (see fastPath.ts) and hands node:http's own
  // connection listener every connection it does not fully understand.
  const [nodeConnection, ...others] = server.listeners('connection') as ((s: Socket) => void)[];
  if (!nodeConnection || others.length > 0) throw new Error('node:http has changed its listeners');
  server.removeListener('connection', nodeConnection);
  const fastHandler: FastPathHandler<RegExpExecArray> = {
    route: (target) => RPC_PATH.exec(target) ?? undefined,
    async answer(match, headers, body) {
      const answer = await answerRpc(segment(match[1]), segment(match[2]), headers, body);
      const { key, charges } = answer;
      return {
        status: answer.status,
        text: answer.text,
        credits: answer.credits,
        settled:
          key && charges
            ? (delivered: boolean) => gateway.settle(key, charges, delivered)
            : undefined,
      };
    },
    handOff(socket, unread) {
      if (unread.length > 0) socket.unshift(unread);
      nodeConnection.call(server, socket);
      socket.resume();
    },
  };
  const fast = new Set<FastConnection>();
  server.on('connection', (socket: Socket) => {
    const connection = serveFast(socket, fastHandler, options.slowClientMs);
    fast.add(connection);
    socket.once('close', () => fast.delete(connection));
  });

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const connection of fast) connection.shutdown();
      }),
  };
}
