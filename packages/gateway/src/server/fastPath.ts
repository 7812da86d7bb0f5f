/**
 * The hot path's own HTTP/1.1 reader. The requests every JSON-RPC client sends (a keep-alive
 * `POST [/<chain>]/v3/<KEY>` with a content-length, and no transfer-encoding, expect or upgrade)
 * are read here straight off the socket, and each answer is written as one buffer. node:http
 * builds a request stream, a response object and their events for each of them: on the hot read
 * mix that was a third of the gateway's CPU per call. Anything this reader does not fully
 * understand goes to node:http from that request's first byte, so two parsers never disagree
 * about where a request ends. Details: docs/architecture/gateway.md#the-hot-path.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BODY_LIMIT, errorResponse, errors } from '../jsonrpc/errors';

/** A request head longer than this goes to node:http (which answers 431). */
const HEAD_LIMIT = 16 * 1024;
/** A request not whole this long after its first byte is dropped (node:http's headersTimeout). */
const REQUEST_TIMEOUT_MS = 60_000;

// Strict RFC 9110 field syntax: a token name, then visible ASCII, obs-text, spaces and tabs.
// The value is greedy up to its last visible character (a lazy value re-tried the end at each
// character, slow on a long header such as a JWT's).
const HEADER_LINE =
  /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*((?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)[ \t]*$/;
const REQUEST_LINE = /^POST (\/[!-~]*) HTTP\/1\.1$/;
const DIGITS = /^\d{1,10}$/;

/** The headers the hot path answers by. */
export interface FastHeaders {
  host?: string;
  authorization?: string;
  origin?: string;
  userAgent?: string;
}

/** An answer to write: its status and JSON text, and what to do once it was (not) delivered. */
export interface FastAnswer {
  status: number;
  text: string;
  /** Called once the answer is written (true) or its connection was lost first (false). */
  settled?: (delivered: boolean) => void;
  /** What it cost and what its key has left today (headers). */
  credits?: { cost: number; left?: number };
}

export interface FastPathHandler<Route> {
  /** The route of a request target, if it is the hot path's (else node:http takes over). */
  route(target: string): Route | undefined;
  answer(route: Route, headers: FastHeaders, body: string): Promise<FastAnswer>;
  /** Takes over a connection, with the bytes already read from it put back first. */
  handOff(socket: Socket, unread: Buffer): void;
}

/** The head of one request, parsed; `undefined` means hand the connection over. */
interface Head extends FastHeaders {
  target: string;
  length: number;
  close: boolean;
}

function parseHead(text: string): Head | undefined {
  const lines = text.split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0]);
  if (!requestLine) return undefined;
  const head: Head = { target: requestLine[1], length: -1, close: false };
  for (let i = 1; i < lines.length; i++) {
    const field = HEADER_LINE.exec(lines[i]);
    if (!field) return undefined;
    const value = field[2];
    switch (field[1].toLowerCase()) {
      case 'content-length':
        if (head.length !== -1 || !DIGITS.test(value)) return undefined;
        head.length = Number(value);
        break;
      case 'host':
        if (head.host !== undefined) return undefined;
        head.host = value;
        break;
      case 'authorization':
        if (head.authorization !== undefined) return undefined;
        head.authorization = value;
        break;
      case 'origin':
        if (head.origin !== undefined) return undefined;
        head.origin = value;
        break;
      case 'user-agent':
        if (head.userAgent !== undefined) return undefined;
        head.userAgent = value;
        break;
      case 'connection': {
        const options = value.toLowerCase();
        if (options.includes('upgrade')) return undefined;
        if (options.includes('close')) head.close = true;
        break;
      }
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
      default:
    }
  }
  if (head.length < 0 || head.length > BODY_LIMIT) return undefined;
  return head;
}

function answerHead(
  status: number,
  bytes: number,
  close: boolean,
  credits: FastAnswer['credits'],
): string {
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n` +
    'content-type: application/json\r\naccess-control-allow-origin: *\r\n' +
    (credits
      ? `x-credits-cost: ${credits.cost}\r\n` +
        (credits.left === undefined ? '' : `x-credits-remaining: ${credits.left}\r\n`) +
        'access-control-expose-headers: x-credits-cost, x-credits-remaining\r\n'
      : '') +
    `content-length: ${bytes}\r\n${close ? 'connection: close\r\n' : ''}\r\n`
  );
}

export interface FastConnection {
  /** Closes the connection now if it is idle, else after the answer being made. */
  shutdown(): void;
}

/** Serves one connection on the hot path until it closes or is handed over. */
export function serveFast<Route>(
  socket: Socket,
  handler: FastPathHandler<Route>,
  slowClientMs: number,
): FastConnection {
  let unread: Buffer | undefined;
  let busy = false; // an answer is being made or written
  let ended = false; // handed over, or closing
  let closing = false; // the server is shutting down: answer what is in hand, then close
  let partialSince = 0; // when the incomplete request at the front began to arrive

  /** Answers what is whole in `unread`; our own failure drops the connection, not the process. */
  const pump = () => {
    try {
      next();
    } catch {
      socket.destroy();
    }
  };
  const onData = (chunk: Buffer) => {
    if (ended) return; // closing: what the client sends now is never answered
    unread = unread ? Buffer.concat([unread, chunk]) : chunk;
    if (!busy) pump();
    // Pipelined input beyond one whole request waits in the kernel, not here.
    else if (unread.length > HEAD_LIMIT + BODY_LIMIT) socket.pause();
  };
  const onTimeout = () => {
    // As on the node:http path: read what is left first (closing with unread input resets the
    // connection, and the reset loses what the kernel still held for the client).
    socket.resume();
    setTimeout(() => socket.destroy(), 50).unref();
  };
  const onError = () => undefined; // 'close' follows
  socket.setTimeout(slowClientMs);
  socket.on('data', onData);
  socket.on('timeout', onTimeout);
  socket.on('error', onError);

  const handOff = () => {
    ended = true;
    socket.off('data', onData);
    socket.off('timeout', onTimeout);
    socket.off('error', onError);
    socket.setTimeout(0);
    const rest = unread ?? Buffer.alloc(0);
    unread = undefined;
    // Paused, so that nothing is read between here and node:http's listener.
    socket.pause();
    handler.handOff(socket, rest);
  };

  /** Reads the request at the front of `unread`, if it is whole, and answers it. */
  const next = (): void => {
    if (ended || !unread || unread.length === 0) return;
    const headEnd = unread.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      if (unread.length > HEAD_LIMIT) return handOff();
      return waitForMore();
    }
    const head =
      headEnd <= HEAD_LIMIT ? parseHead(unread.toString('latin1', 0, headEnd)) : undefined;
    const route = head && handler.route(head.target);
    if (!head || route === undefined) return handOff();
    const end = headEnd + 4 + head.length;
    if (unread.length < end) return waitForMore();
    partialSince = 0;
    const body = unread.toString('utf8', headEnd + 4, end);
    unread = end === unread.length ? undefined : unread.subarray(end);
    busy = true;
    handler
      .answer(route, head, body)
      .then(
        (answer) => write(answer, head.close || closing),
        () => write({ status: 500, text: errorResponse(null, errors.internal()) }, true),
      )
      .catch(() => socket.destroy());
  };

  /** A request only partly here: wait for the rest, unless it has trickled in for too long. */
  const waitForMore = () => {
    const now = Date.now();
    if (partialSince === 0) partialSince = now;
    else if (now - partialSince > REQUEST_TIMEOUT_MS) socket.destroy();
  };

  const write = (answer: FastAnswer, close: boolean) => {
    if (socket.destroyed) {
      answer.settled?.(false);
      return;
    }
    const bytes = Buffer.byteLength(answer.text);
    const headText = answerHead(answer.status, bytes, close, answer.credits);
    // One write: a small answer as one string, a large one as head and body in one writev.
    let flushed: boolean;
    const done = answer.settled
      ? (error?: Error | null) => answer.settled!(!error && !socket.destroyed)
      : undefined;
    if (bytes < 64 * 1024) {
      flushed = socket.write(headText + answer.text, done);
    } else {
      socket.cork();
      socket.write(headText, 'latin1');
      flushed = socket.write(answer.text, done);
      socket.uncork();
    }
    if (close) {
      ended = true;
      socket.end();
      return;
    }
    if (flushed) return afterWrite();
    // The client is not reading: read no more of its requests until it does.
    socket.pause();
    socket.once('drain', afterWrite);
  };

  const afterWrite = () => {
    busy = false;
    socket.resume(); // if reading waited for this answer
    if (closing) {
      ended = true;
      socket.end();
      return;
    }
    pump();
  };

  return {
    shutdown() {
      closing = true;
      if (!busy && !ended) {
        ended = true;
        socket.destroy();
      }
    },
  };
}
