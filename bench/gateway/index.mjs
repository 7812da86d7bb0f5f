#!/usr/bin/env node
// Throughput and latency of packages/gateway (built dist, run as its own process by the
// l2-gateway CLI) against the same anvil: autocannon in-process, concurrency 64, 10 s per run,
// loopback only. Rows: anvil direct, a bare fastify + undici pass-through (the floor of this
// stack), the gateway on SQLite and on Redis, and eth_getBlockByHash uncached vs cached.
// Build first: npm run build -w packages/gateway
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

import { machine } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const { startAnvil, startRedis, spawnService, freePort, rpc } = require('@l2wallet/localstack');
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '../../packages/gateway/dist/cli.js');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

async function gateway(dir, name, ledger, upstream, extra = {}) {
  const config = join(dir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      listen: { host: '127.0.0.1', port: 1 },
      ledger,
      chains: [{ name: 'local', hosts: ['*'], upstreams: [upstream] }],
      ...extra,
    }),
  );
  const created = execFileSync(process.execPath, [
    cli,
    'keys',
    'create',
    '--config',
    config,
    '--plan',
    'team',
    '--daily-credits',
    String(1e15),
    '--credits-per-second',
    String(1e12),
  ]);
  const key = created.toString().trim().split('\n').at(-1);
  const port = await freePort();
  const service = await spawnService({
    name: `gateway-${name}`,
    command: process.execPath,
    args: [cli, 'serve', '--config', config, '--port', String(port)],
    readyLine: /listening on/,
  });
  return { service, url: `http://127.0.0.1:${port}/v3/${key}` };
}

function run(url, body, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections: CONNECTIONS,
        duration,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const anvil = await startAnvil();
const redis = await startRedis();
const dir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
const services = [];
try {
  // A contract whose every call stores 42 and emits a log, deployed by anvil's first account.
  const [from] = await rpc(anvil.url, 'eth_accounts');
  const deploy = await rpc(anvil.url, 'eth_sendTransaction', [
    { from, data: '0x600b600c600039600b6000f3602a60005560006000a000' },
  ]);
  let receipt = null;
  while (!receipt) receipt = await rpc(anvil.url, 'eth_getTransactionReceipt', [deploy]);
  const { contractAddress, blockHash } = receipt;
  const ethCall = {
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [{ to: contractAddress, data: '0x01' }, 'latest'],
  };
  const byHash = {
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_getBlockByHash',
    params: [blockHash, false],
  };

  const passPort = await freePort();
  const pass = await spawnService({
    name: 'passthrough',
    command: process.execPath,
    args: [join(here, 'passthrough.mjs'), String(passPort), anvil.url],
    readyLine: /listening on/,
  });
  services.push(pass);
  const sqlite = await gateway(dir, 'sqlite', { sqlite: 'sqlite.db' }, anvil.url);
  const onRedis = await gateway(dir, 'redis', { redis: redis.url }, anvil.url);
  const noCache = await gateway(dir, 'nocache', { sqlite: 'nocache.db' }, anvil.url, {
    cacheEntries: 0,
  });
  services.push(sqlite.service, onRedis.service, noCache.service);

  const rows = [
    ['anvil direct', anvil.url, ethCall],
    ['fastify + undici pass-through', `http://127.0.0.1:${passPort}/`, ethCall],
    ['gateway, SQLite ledger', sqlite.url, ethCall],
    ['gateway, Redis ledger', onRedis.url, ethCall],
    ['gateway eth_getBlockByHash, cache off', noCache.url, byHash],
    ['gateway eth_getBlockByHash, cached', sqlite.url, byHash],
  ];
  // Every row runs ROUNDS times, the rows taking turns, and the table shows the means: on a
  // shared 2-core machine one 10 s window can be much busier than the next.
  const runs = rows.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [label, url, body]] of rows.entries()) {
      await run(url, body, 2); // warm-up: connections open, JIT warm, cache filled
      const result = await run(url, body);
      runs[index].push(result);
      const bad = result.non2xx + result.errors + result.timeouts;
      console.error(
        `round ${round + 1} ${label}: ${Math.round(result.requests.average)} req/s (${bad} failed)`,
      );
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const results = rows.map(([label, , body], index) => ({
    label,
    method: body.method,
    rps: mean(runs[index].map((r) => r.requests.average)),
    p50: mean(runs[index].map((r) => r.latency.p50)),
    p99: mean(runs[index].map((r) => r.latency.p99)),
    bad: runs[index].reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  }));

  const [direct, floor, onSqlite, onRedisRow, uncached, cached] = results;
  const pad = (text, width) => String(text).padEnd(width);
  console.log(
    `Machine: ${machine()}, Node ${process.version}, load average ${loadavg()[0].toFixed(2)}; autocannon ${CONNECTIONS} connections, ${DURATION} s per row, means of ${ROUNDS} rounds.\n`,
  );
  console.log(
    `| ${pad('target', 38)} | ${pad('method', 18)} | req/s  | p50 ms | p99 ms | failed |`,
  );
  console.log(`| ${'-'.repeat(38)} | ${'-'.repeat(18)} | ------ | ------ | ------ | ------ |`);
  for (const r of results) {
    console.log(
      `| ${pad(r.label, 38)} | ${pad(r.method, 18)} | ${pad(Math.round(r.rps), 6)} | ${pad(r.p50.toFixed(1), 6)} | ${pad(r.p99.toFixed(1), 6)} | ${pad(r.bad, 6)} |`,
    );
  }
  const ratio = (a, b) => (a / b).toFixed(2);
  const check = (ok) => (ok ? 'ok' : 'MISSED');
  const sqliteShare = onSqlite.rps / floor.rps;
  const addedP50 = onSqlite.p50 - floor.p50;
  console.log('');
  console.log(`| ratio                                           | value  | target        |`);
  console.log(`| ----------------------------------------------- | ------ | ------------- |`);
  console.log(
    `| gateway SQLite / pass-through req/s (eth_call)  | ${pad(ratio(onSqlite.rps, floor.rps), 6)} | >= 0.90 ${check(sqliteShare >= 0.9)} |`,
  );
  console.log(
    `| gateway SQLite p50 - pass-through p50 (ms)      | ${pad(addedP50.toFixed(2), 6)} | <= 1 ${check(addedP50 <= 1)}    |`,
  );
  console.log(
    `| gateway Redis / pass-through req/s              | ${pad(ratio(onRedisRow.rps, floor.rps), 6)} |               |`,
  );
  console.log(
    `| pass-through / anvil direct req/s               | ${pad(ratio(floor.rps, direct.rps), 6)} |               |`,
  );
  console.log(
    `| cached / uncached eth_getBlockByHash req/s      | ${pad(ratio(cached.rps, uncached.rps), 6)} | >= 1.5 ${check(cached.rps / uncached.rps >= 1.5)}  |`,
  );
} finally {
  await Promise.all(services.map((s) => s.stop()));
  await redis.stop();
  await anvil.stop();
}
