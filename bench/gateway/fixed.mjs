#!/usr/bin/env node
// The ceiling for the hot read mix: a bare node:http server that reads each body and answers a
// fixed JSON-RPC result from memory. No parsing, no auth, no ledger, no cache lookup: what any
// Node gateway answering from memory costs at the least, on the same machine and load
// generator. Usage: fixed.mjs PORT
import http from 'node:http';

const [port] = process.argv.slice(2);
const answer = Buffer.from('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
const headers = { 'content-type': 'application/json', 'content-length': answer.length };

// The server under measurement (a row of the table), not test plumbing: written by hand.
// eslint-disable-next-line no-restricted-syntax
http
  .createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(200, headers);
      res.end(answer);
    });
  })
  .listen(Number(port), '127.0.0.1', () =>
    console.log(`fixed answer listening on http://127.0.0.1:${port}`),
  );
