/**
 * HTTP transport: POST /v3/<KEY> (JSON-RPC, one call or a batch), GET /v3/<KEY>/usage (free),
 * GET /healthz, GET /metrics. CORS is open so the site's Gateway page can call it from a browser;
 * a key's origin allowlist still applies.
 */
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { KeyRecord } from '../auth/keys';
import { type Charge, type Gateway, ledgerError } from '../gateway';
import { BODY_LIMIT, errorResponse, errors } from '../jsonrpc/errors';
import { health } from '../metrics/health';

const JSON_TYPE = 'application/json';

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  // Not an RpcError: the ledger (the only other thing these handlers wait on) failed.
  const rpcError = ledgerError(error);
  return reply.code(rpcError.httpStatus).type(JSON_TYPE).send(errorResponse(null, rpcError));
}

export interface HttpOptions {
  /** A connection that makes no progress for this long (a client not reading) is dropped. */
  slowClientMs: number;
}

export function buildHttp(
  gateway: Gateway,
  options: HttpOptions = { slowClientMs: 30_000 },
): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: false,
    connectionTimeout: options.slowClientMs,
  });

  // A connection that makes no progress for slowClientMs (a client that does not read) is
  // closed. Its unread input is read first: closing with unread input resets the connection,
  // and the reset loses what the kernel still held for the client.
  app.server.on('timeout', (socket: Socket) => {
    socket.resume();
    setTimeout(() => socket.destroy(), 50).unref();
  });

  /**
   * Billed by delivery: an answer whose connection closes before it is written is refunded.
   * Node reports a write that a destroy cut short as finished, so an answer that finishes only
   * once its socket is gone counts as undelivered too (at worst, one answer is not charged).
   */
  const refundIfUndelivered = (reply: FastifyReply, key: KeyRecord, charges: Charge[]) => {
    // The request keeps its socket (a response is detached from it when it finishes).
    const socket = reply.request.raw.socket;
    let cutShort = false;
    reply.raw.once('finish', () => {
      cutShort = socket?.destroyed ?? false;
    });
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished && !cutShort) return;
      for (const { method, cost } of charges) void gateway.refund(key, method, cost);
    });
  };

  // Bodies reach the handler as text whatever the content type: the gateway parses JSON itself,
  // after the key check, so malformed JSON is a JSON-RPC -32700 and not a fastify 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  // CORS on every answer; set through a synchronous onRequest hook (cheaper than onSend).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('access-control-allow-origin', '*');
    done();
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string }, _request, reply) => {
    if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, errors.bodyTooLarge());
    }
    return sendError(reply, errors.internal());
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, errors.notFound()));

  app.options('/*', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'content-type, authorization')
      .header('access-control-max-age', '86400')
      .send(),
  );

  const rpc = async (
    request: FastifyRequest<{ Params: { key?: string; chain?: string } }>,
    reply: FastifyReply,
  ) => {
    const named = request.params.chain;
    const chain = named
      ? gateway.router.byName(named)
      : gateway.router.chainFor(request.headers.host);
    if (!chain) {
      return sendError(
        reply,
        named
          ? errors.unknownChainName(named)
          : errors.unknownChain(hostName(request.headers.host)),
      );
    }
    let key;
    try {
      key = await gateway.authenticate(
        request.params.key,
        request.headers.authorization,
        request.headers.origin,
      );
    } catch (error) {
      return sendError(reply, error);
    }
    const body = typeof request.body === 'string' ? request.body : '';
    const answer = await gateway.handleBody({ chain, key, ws: false }, body);
    if (answer.charges?.length) refundIfUndelivered(reply, key, answer.charges);
    return reply.code(answer.status).type(JSON_TYPE).send(answer.text);
  };
  app.post('/v3/:key', rpc);
  app.post('/v3', rpc);
  app.post('/v3/', rpc);
  // A chain picked by name: /<chain>/v3/<KEY> (Host routing still serves the plain /v3/<KEY>).
  app.post('/:chain/v3/:key', rpc);
  app.post('/:chain/v3', rpc);
  app.post('/:chain/v3/', rpc);

  const usage = async (
    request: FastifyRequest<{ Params: { key: string } }>,
    reply: FastifyReply,
  ) => {
    try {
      const key = await gateway.authenticate(
        request.params.key,
        request.headers.authorization,
        request.headers.origin,
      );
      const now = gateway.now();
      const usage = await gateway.store.usage(key.hash, now);
      const currentMinute = Math.floor(now / 60_000);
      return reply.type(JSON_TYPE).send({
        total: usage.total,
        limit: key.dailyCredits,
        left: Math.max(0, key.dailyCredits - usage.total),
        creditsPerSecond: key.creditsPerSecond,
        plan: key.plan,
        methods: usage.methods,
        lastHour: usage.lastHour.map((credits, i) => ({
          minute: new Date((currentMinute - 59 + i) * 60_000).toISOString(),
          credits,
        })),
        resetsAt: new Date((Math.floor(now / 86_400_000) + 1) * 86_400_000).toISOString(),
      });
    } catch (error) {
      return sendError(reply, error);
    }
  };
  // A key's usage covers every chain; under a chain prefix too, so one base URL serves both.
  app.get('/v3/:key/usage', usage);
  app.get('/:chain/v3/:key/usage', usage);

  app.get('/healthz', async (_request, reply) => {
    const report = health(gateway.router);
    return reply.code(report.status === 'ok' ? 200 : 503).send(report);
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4').send(gateway.metrics.render()),
  );

  return app;
}

export function hostName(host: string | undefined): string {
  return (host ?? '').replace(/:\d+$/, '');
}
