#!/usr/bin/env node
// The floor of the gateway's stack: fastify 5 parsing the JSON body and forwarding it through an
// undici Pool (keep-alive), no auth, no ledger, no checks. Usage: passthrough.mjs PORT UPSTREAM
import Fastify from 'fastify';
import { Pool } from 'undici';

const [port, upstream] = process.argv.slice(2);
const pool = new Pool(upstream, { connections: 128 });
const app = Fastify({ logger: false });
app.post('/', async (request, reply) => {
  const response = await pool.request({
    path: '/',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request.body),
  });
  return reply.type('application/json').send(await response.body.text());
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
console.log(`passthrough listening on http://127.0.0.1:${port}`);
