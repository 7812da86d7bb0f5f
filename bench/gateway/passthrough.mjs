#!/usr/bin/env node
// The floor the gateway is measured against: a bare node:http server that forwards each body
// to the upstream over a keep-alive http.Agent and sends the answer's bytes back. No framework,
// no JSON parsing, no auth, no ledger. Usage: passthrough.mjs PORT UPSTREAM
import http from 'node:http';

const [port, upstream] = process.argv.slice(2);
const target = new URL(upstream);
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

// The server under measurement (the floor of the table), not test plumbing: written by hand.
// eslint-disable-next-line no-restricted-syntax
http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const out = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (answer) => {
          const parts = [];
          answer.on('data', (chunk) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            res.writeHead(answer.statusCode ?? 502, {
              'content-type': 'application/json',
              'content-length': text.length,
            });
            res.end(text);
          });
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(body);
    });
  })
  .listen(Number(port), '127.0.0.1', () =>
    console.log(`passthrough listening on http://127.0.0.1:${port}`),
  );
