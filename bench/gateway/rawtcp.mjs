#!/usr/bin/env node
// Below the ceiling: a node:net server with no HTTP parser that finds each request's end (the
// blank line, then content-length bytes) and writes one canned HTTP/1.1 answer. Not a server
// anyone should run: it shows what a Node process costs per request here for the socket alone
// (read, write, event loop), so that the gateway's row can be read against it.
// Usage: rawtcp.mjs PORT
import net from 'node:net';

const [port] = process.argv.slice(2);
const body = '{"jsonrpc":"2.0","id":1,"result":"0x1"}';
const answer = Buffer.from(
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
);
const CONTENT_LENGTH = /content-length:\s*(\d+)/i;

// The server under measurement (a row of the table), not test plumbing: written by hand.
// eslint-disable-next-line no-restricted-syntax
net
  .createServer((socket) => {
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let answers = 0;
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) break;
        const length = Number(
          CONTENT_LENGTH.exec(pending.toString('latin1', 0, headEnd))?.[1] ?? 0,
        );
        if (pending.length < headEnd + 4 + length) break;
        pending = pending.subarray(headEnd + 4 + length);
        answers += 1;
      }
      if (answers === 1) socket.write(answer);
      else if (answers > 1) socket.write(Buffer.concat(Array(answers).fill(answer)));
    });
  })
  .listen(Number(port), '127.0.0.1', () =>
    console.log(`raw tcp answer listening on http://127.0.0.1:${port}`),
  );
