#!/usr/bin/env node
// Throughput, latency and CPU per request of packages/gateway (built dist, run as its own process
// by the l2-gateway CLI) against the same anvil: autocannon in-process, 64 connections, loopback
// only. Rows: eth_call with distinct params (the hot path itself), the hot read mix one call per
// request and as one batch, each beside anvil direct and bare Node servers that bound what any
// Node HTTP server can do here. CPU per request is the server process's own (from /proc), so it
// does not depend on what else shares the machine. The rows and columns: bench/RESULTS.md,
// "bench/gateway". Build first: npm run build -w packages/gateway
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ensureGatewayBuilt,
  freePort,
  rpc,
  runCommand,
  spawnService,
  startAnvil,
  startGatewayWithKey,
  startRedis,
  startRedisCluster,
} from '@l2wallet/testkit';
import autocannon from 'autocannon';

import { machine } from '../lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TICK_US = 1e6 / Number((await runCommand('getconf', ['CLK_TCK'])).trim() || 100);

/** CPU time (user + system) a process has used so far, in microseconds. */
function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
}

/** CPU time all cores have spent busy so far (every process and the kernel), in microseconds. */
function machineBusyMicros() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number); // not idle, iowait
  return (user + nice + system + irq + softirq + steal) * TICK_US;
}

/** The gateway CLI in front of `upstream` with `ledger`, and one key with room for the runs. */
async function gateway(dir, name, ledger, upstream) {
  const { gateway: service, rpcUrl } = await startGatewayWithKey({
    upstream,
    dir,
    name: `gateway-${name}`,
    config: { ledger },
    keyOptions: [
      '--plan',
      'team',
      '--daily-credits',
      String(1e15),
      '--credits-per-second',
      String(1e12),
    ],
  });
  return { service, pid: service.pid, url: rpcUrl };
}

function run(url, requests, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections: CONNECTIONS,
        duration,
        headers: { 'content-type': 'application/json' },
        requests,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

ensureGatewayBuilt();
const anvil = await startAnvil();
const redis = await startRedis();
// Without append-only files, as the single Redis above: the rows compare the ledgers' work.
const cluster = await startRedisCluster({ masters: 3, persist: false });
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
  const contract = receipt.contractAddress;
  const body = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

  // eth_call whose calldata differs on every request (the contract ignores it).
  let counter = 0;
  const distinctCall = [
    {
      method: 'POST',
      setupRequest: (request) => {
        counter += 1;
        const data = `0x01${counter.toString(16).padStart(16, '0')}`;
        request.body = body('eth_call', [{ to: contract, data }, 'latest']);
        return request;
      },
    },
  ];
  const accounts = await rpc(anvil.url, 'eth_accounts');
  const hotMix = [
    body('eth_blockNumber', []),
    body('eth_chainId', []),
    body('eth_getBlockByNumber', ['latest', false]),
    ...accounts.slice(0, 8).map((a) => body('eth_getBalance', [a, 'latest'])),
    ...Array.from({ length: 8 }, (_, i) =>
      body('eth_call', [{ to: contract, data: `0x0${i + 1}` }, 'latest']),
    ),
  ].map((text) => ({ method: 'POST', body: text }));
  const hotMixBatched = [{ method: 'POST', body: `[${hotMix.map((r) => r.body).join(',')}]` }];

  /** One of this folder's reference servers (`file PORT [...args]`) as its own process. */
  const reference = async (file, ...args) => {
    const port = await freePort();
    const service = await spawnService({
      name: file.replace('.mjs', ''),
      command: process.execPath,
      args: [join(here, file), String(port), ...args],
      readyLine: /listening on/,
    });
    services.push(service);
    return { pid: service.pid, url: `http://127.0.0.1:${port}/` };
  };
  const pass = await reference('passthrough.mjs', anvil.url);
  const fixed = await reference('fixed.mjs');
  const raw = await reference('rawtcp.mjs');
  const sqlite = await gateway(dir, 'sqlite', { sqlite: 'sqlite.db' }, anvil.url);
  const onRedis = await gateway(dir, 'redis', { redis: redis.url }, anvil.url);
  const onCluster = await gateway(dir, 'cluster', { redisCluster: cluster.urls }, anvil.url);
  services.push(sqlite.service, onRedis.service, onCluster.service);

  const rows = [
    ['anvil direct', 'eth_call, distinct', anvil.url, anvil.pid, distinctCall],
    ['node:http pass-through', 'eth_call, distinct', pass.url, pass.pid, distinctCall],
    ['gateway, SQLite ledger', 'eth_call, distinct', sqlite.url, sqlite.pid, distinctCall],
    ['gateway, Redis ledger', 'eth_call, distinct', onRedis.url, onRedis.pid, distinctCall],
    ['gateway, Redis Cluster', 'eth_call, distinct', onCluster.url, onCluster.pid, distinctCall],
    ['anvil direct', 'hot read mix', anvil.url, anvil.pid, hotMix],
    ['gateway, SQLite ledger', 'hot read mix', sqlite.url, sqlite.pid, hotMix],
    ['node:http fixed answer', 'hot read mix', fixed.url, fixed.pid, hotMix],
    ['node:net canned answer', 'hot read mix', raw.url, raw.pid, hotMix],
    ['anvil direct', 'mix, batch of 19', anvil.url, anvil.pid, hotMixBatched],
    ['gateway, SQLite ledger', 'mix, batch of 19', sqlite.url, sqlite.pid, hotMixBatched],
  ];
  // Every row runs ROUNDS times, the rows taking turns, and the table shows the means: on a
  // shared 2-core machine one window can be much busier than the next.
  const runs = rows.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, [label, what, url, pid, requests]] of rows.entries()) {
      await run(url, requests, 2); // warm-up: connections open, JIT warm, caches filled
      const cpuBefore = cpuMicros(pid);
      const ownBefore = process.cpuUsage();
      const machineBefore = machineBusyMicros();
      const result = await run(url, requests);
      const answered = Math.max(1, result.requests.total);
      const cpu = (cpuMicros(pid) - cpuBefore) / answered;
      const own = process.cpuUsage(ownBefore);
      const machineCpu = (machineBusyMicros() - machineBefore) / answered;
      runs[index].push({ result, cpu, loadCpu: (own.user + own.system) / answered, machineCpu });
      const bad = result.non2xx + result.errors + result.timeouts;
      console.error(
        `round ${round + 1} ${label} (${what}): ${Math.round(result.requests.average)} req/s, ${cpu.toFixed(0)} us CPU/req (${bad} failed)`,
      );
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const results = rows.map(([label, what], index) => ({
    label,
    what,
    rps: mean(runs[index].map((r) => r.result.requests.average)),
    p50: mean(runs[index].map((r) => r.result.latency.p50)),
    p99: mean(runs[index].map((r) => r.result.latency.p99)),
    cpu: mean(runs[index].map((r) => r.cpu)),
    loadCpu: mean(runs[index].map((r) => r.loadCpu)),
    machineCpu: mean(runs[index].map((r) => r.machineCpu)),
    bad: runs[index].reduce(
      (sum, r) => sum + r.result.non2xx + r.result.errors + r.result.timeouts,
      0,
    ),
  }));

  const [
    ,
    floor,
    onSqlite,
    onRedisRow,
    onClusterRow,
    mixDirect,
    mixGateway,
    mixCeiling,
    mixRaw,
    batchDirect,
    batchGateway,
  ] = results;
  const commit = await runCommand('git', ['rev-parse', '--short', 'HEAD'], { cwd: here }).then(
    (output) => output.trim(),
    () => 'unknown',
  );
  const pad = (text, width) => String(text).padEnd(width);
  console.log(
    `Machine: ${machine()}, Node ${process.version}. Run: ${new Date().toISOString()} at commit ${commit}, load average ${loadavg()[0].toFixed(2)} at the end; autocannon ${CONNECTIONS} connections, ${DURATION} s per row after a 2 s warm-up, means of ${ROUNDS} rounds.\n`,
  );
  console.log(
    `| ${pad('target', 24)} | ${pad('requests', 18)} | req/s  | p50 ms | p99 ms | CPU us/req | load gen us/req | machine us/req | failed |`,
  );
  console.log(
    `| ${'-'.repeat(24)} | ${'-'.repeat(18)} | ------ | ------ | ------ | ---------- | --------------- | -------------- | ------ |`,
  );
  for (const r of results) {
    console.log(
      `| ${pad(r.label, 24)} | ${pad(r.what, 18)} | ${pad(Math.round(r.rps), 6)} | ${pad(r.p50.toFixed(1), 6)} | ${pad(r.p99.toFixed(1), 6)} | ${pad(r.cpu.toFixed(0), 10)} | ${pad(r.loadCpu.toFixed(0), 15)} | ${pad(r.machineCpu.toFixed(0), 14)} | ${pad(r.bad, 6)} |`,
    );
  }
  const ratio = (a, b) => (a / b).toFixed(2);
  const check = (ok) => (ok ? 'ok' : 'MISSED');
  const share = onSqlite.rps / floor.rps;
  const addedP50 = onSqlite.p50 - floor.p50;
  const redisShare = onRedisRow.rps / onSqlite.rps;
  const clusterShare = onClusterRow.rps / onSqlite.rps;
  const mixShare = mixGateway.rps / mixDirect.rps;
  // The hot mix must not fall below the last run recorded in bench/RESULTS.md (same machine).
  const recorded = /\| gateway \/ anvil direct req\/s, hot read mix\s*\| ([\d.]+)/.exec(
    readFileSync(join(here, '..', 'RESULTS.md'), 'utf8'),
  )?.[1];
  console.log('');
  console.log(
    `| ratio                                                   | value  | target           |`,
  );
  console.log(
    `| ------------------------------------------------------- | ------ | ---------------- |`,
  );
  console.log(
    `| gateway (SQLite) / node:http pass-through req/s, eth_call | ${pad(ratio(onSqlite.rps, floor.rps), 6)} | >= 0.95 ${pad(check(share >= 0.95), 8)} |`,
  );
  console.log(
    `| gateway p50 - pass-through p50 (ms), eth_call            | ${pad(addedP50.toFixed(2), 6)} | <= 1 ${pad(check(addedP50 <= 1), 11)} |`,
  );
  console.log(
    `| gateway / pass-through CPU us per request, eth_call      | ${pad(ratio(onSqlite.cpu, floor.cpu), 6)} | (load-independent) |`,
  );
  console.log(
    `| Redis ledger / SQLite ledger req/s, eth_call             | ${pad(ratio(onRedisRow.rps, onSqlite.rps), 6)} | >= 0.90 ${pad(check(redisShare >= 0.9), 8)} |`,
  );
  console.log(
    `| Redis Cluster ledger / SQLite ledger req/s, eth_call     | ${pad(ratio(onClusterRow.rps, onSqlite.rps), 6)} | (beside Redis: ${ratio(clusterShare, redisShare)}x its rate) |`,
  );
  console.log(
    `| gateway / anvil direct req/s, hot read mix               | ${pad(ratio(mixGateway.rps, mixDirect.rps), 6)} | >= 1.50 ${pad(check(mixShare >= 1.5), 8)} |`,
  );
  console.log(
    `| hot read mix against the last recorded run               | ${pad(ratio(mixGateway.rps, mixDirect.rps), 6)} | >= ${recorded ?? '?'} ${pad(recorded === undefined ? '(none)' : check(mixShare >= Number(recorded)), 11)} |`,
  );
  console.log(
    `| node:http fixed answer / anvil direct req/s, hot read mix | ${pad(ratio(mixCeiling.rps, mixDirect.rps), 6)} | (the ceiling)    |`,
  );
  console.log(
    `| node:net canned answer / anvil direct req/s, hot read mix | ${pad(ratio(mixRaw.rps, mixDirect.rps), 6)} | (no HTTP parser) |`,
  );
  console.log(
    `| gateway / node:http fixed answer CPU us per request, mix | ${pad(ratio(mixGateway.cpu, mixCeiling.cpu), 6)} | (load-independent) |`,
  );
  console.log(
    `| gateway / anvil direct req/s, mix in batches of 19      | ${pad(ratio(batchGateway.rps, batchDirect.rps), 6)} | >= 1.50 ${pad(check(batchGateway.rps / batchDirect.rps >= 1.5), 8)} |`,
  );
  // What 1.5x anvil's mix rate asks of the machine: every core's busy time per request (the
  // server, the load generator, the kernel's network work) at most anvil direct's over 1.5.
  console.log('');
  console.log(
    `Whole machine, busy CPU per request on the hot read mix (all processes and the kernel's network work): anvil direct ${mixDirect.machineCpu.toFixed(1)} us, so 1.5x its rate needs at most ${(mixDirect.machineCpu / 1.5).toFixed(1)} us; gateway ${mixGateway.machineCpu.toFixed(1)}, node:http fixed answer ${mixCeiling.machineCpu.toFixed(1)}, node:net canned answer ${mixRaw.machineCpu.toFixed(1)}. Of those, the load generator's own: ${mixCeiling.loadCpu.toFixed(1)} us per request.`,
  );
} finally {
  await Promise.all(services.map((s) => s.stop()));
  await cluster.stop();
  await redis.stop();
  await anvil.stop();
}
