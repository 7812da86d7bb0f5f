#!/usr/bin/env node
// What a key's access controls cost the gateway: one gateway process (built dist, SQLite
// ledger) in front of one anvil, two keys with room for the runs, A/B'd in one run, rounds
// taking turns:
// - "none": a key with no control;
// - "allowlists + JWT": origin, User-Agent, contract and method allowlists, and an ES256 JWT
//   required (a token made with jose, sent as Authorization: Bearer on every request).
// Both send a page's Origin and User-Agent; the JWT key's requests carry the token too. Rows:
// eth_call with distinct calldata on every request (the hot path itself: the contract allowlist
// reads each call's `to`), and the hot read mix (one call per request: eth_blockNumber,
// eth_chainId, the latest block, 8 balances, 8 eth_calls). autocannon in-process, 64 connections,
// loopback only; CPU per request is the gateway's own. Build first: npm run build -w
// packages/gateway. `node bench/gateway/access.mjs`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createGatewayKey,
  ensureGatewayBuilt,
  gatewayCli,
  gatewayConfig,
  rpc,
  runCommand,
  serveGateway,
  startAnvil,
  writeGatewayConfig,
} from '@l2wallet/testkit';
import autocannon from 'autocannon';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';

import { machine } from '../lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TICK_US = 1e6 / Number((await runCommand('getconf', ['CLK_TCK'])).trim() || 100);

function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

function run(url, requests, headers, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: 'POST',
        connections: CONNECTIONS,
        duration,
        headers: { 'content-type': 'application/json', ...headers },
        requests,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

ensureGatewayBuilt();
const anvil = await startAnvil();
const dir = mkdtempSync(join(tmpdir(), 'bench-gateway-access-'));
let service;
try {
  const [from, ...accounts] = await rpc(anvil.url, 'eth_accounts');
  const deploy = await rpc(anvil.url, 'eth_sendTransaction', [
    { from, data: '0x600b600c600039600b6000f3602a60005560006000a000' },
  ]);
  let receipt = null;
  while (!receipt) receipt = await rpc(anvil.url, 'eth_getTransactionReceipt', [deploy]);
  const contract = receipt.contractAddress;

  const configFile = writeGatewayConfig(
    dir,
    gatewayConfig(anvil.url, { ledger: { sqlite: 'g.db' } }),
  );
  const roomy = [
    '--plan',
    'team',
    '--daily-credits',
    String(1e15),
    '--credits-per-second',
    String(1e12),
  ];
  const plain = await createGatewayKey(configFile, roomy);
  const guarded = await createGatewayKey(configFile, roomy);
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const pem = join(dir, 'jwt.pem');
  writeFileSync(pem, await exportSPKI(publicKey));
  const methods = [
    'eth_blockNumber',
    'eth_chainId',
    'eth_getBlockByNumber',
    'eth_getBalance',
    'eth_call',
  ];
  await gatewayCli(
    [
      'keys',
      'allow',
      '-',
      '--config',
      configFile,
      '--origin',
      '*.example.com',
      '--origin',
      'https://bench.example.com',
      '--user-agent',
      'bench/',
      '--contract',
      contract,
      ...methods.flatMap((m) => ['--method', m]),
    ],
    { input: guarded },
  );
  await gatewayCli(
    ['keys', 'jwt', '-', '--config', configFile, '--add-public-key', 'bench', pem, '--require'],
    { input: guarded },
  );
  const token = await new SignJWT({ aud: guarded })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench' })
    .setExpirationTime('1h')
    .sign(privateKey);
  service = await serveGateway(configFile, {
    name: 'gateway-access',
    nodeArgs: process.env.BENCH_PROFILE
      ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE]
      : [],
  });
  // A browser page's headers; the key with a JWT gets its token too (a key without JWT public
  // keys refuses a token it cannot verify).
  const page = { origin: 'https://app.example.com', 'user-agent': 'bench/1.0' };
  const withToken = { ...page, authorization: `Bearer ${token}` };

  const body = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
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
  const hotMix = [
    body('eth_blockNumber', []),
    body('eth_chainId', []),
    body('eth_getBlockByNumber', ['latest', false]),
    ...accounts.slice(0, 8).map((a) => body('eth_getBalance', [a, 'latest'])),
    ...Array.from({ length: 8 }, (_, i) =>
      body('eth_call', [{ to: contract, data: `0x0${i + 1}` }, 'latest']),
    ),
  ].map((text) => ({ method: 'POST', body: text }));

  const url = (key) => `${service.url}/v3/${key}`;
  const rows = [
    ['none', 'eth_call, distinct', url(plain), distinctCall, page],
    ['allowlists + JWT', 'eth_call, distinct', url(guarded), distinctCall, withToken],
    ['none', 'hot read mix', url(plain), hotMix, page],
    ['allowlists + JWT', 'hot read mix', url(guarded), hotMix, withToken],
  ];
  const runs = rows.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // A and B alternate within each round, B first in odd rounds: neither always runs warmer.
    const order = round % 2 === 0 ? [0, 1, 2, 3] : [1, 0, 3, 2];
    for (const index of order) {
      const [label, what, target, requests, headers] = rows[index];
      await run(target, requests, headers, 2);
      const before = cpuMicros(service.pid);
      const result = await run(target, requests, headers);
      const answered = Math.max(1, result.requests.total);
      const bad = result.non2xx + result.errors + result.timeouts;
      runs[index].push({ result, cpu: (cpuMicros(service.pid) - before) / answered, bad });
      console.error(
        `round ${round + 1} ${label} (${what}): ${Math.round(result.requests.average)} req/s (${bad} failed)`,
      );
    }
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const results = rows.map(([label, what], index) => ({
    label,
    what,
    rps: mean(runs[index].map((r) => r.result.requests.average)),
    each: runs[index].map((r) => Math.round(r.result.requests.average)),
    p50: mean(runs[index].map((r) => r.result.latency.p50)),
    p99: mean(runs[index].map((r) => r.result.latency.p99)),
    cpu: mean(runs[index].map((r) => r.cpu)),
    bad: runs[index].reduce((sum, r) => sum + r.bad, 0),
  }));
  const commit = await runCommand('git', ['rev-parse', '--short', 'HEAD'], { cwd: here }).then(
    (output) => output.trim(),
    () => 'unknown',
  );
  const pad = (text, width) => String(text).padEnd(width);
  console.log(
    `Machine: ${machine()}, Node ${process.version}. Run: ${new Date().toISOString()} at commit ${commit}, load average ${loadavg()[0].toFixed(2)} at the end; autocannon ${CONNECTIONS} connections, ${DURATION} s per row after a 2 s warm-up, means of ${ROUNDS} rounds.\n`,
  );
  console.log(
    `| ${pad('key controls', 16)} | ${pad('requests', 18)} | req/s  | rounds              | p50 ms | p99 ms | CPU us/req | failed |`,
  );
  console.log(
    `| ${'-'.repeat(16)} | ${'-'.repeat(18)} | ------ | ------------------- | ------ | ------ | ---------- | ------ |`,
  );
  for (const r of results) {
    console.log(
      `| ${pad(r.label, 16)} | ${pad(r.what, 18)} | ${pad(Math.round(r.rps), 6)} | ${pad(r.each.join(' / '), 19)} | ${pad(r.p50.toFixed(1), 6)} | ${pad(r.p99.toFixed(1), 6)} | ${pad(r.cpu.toFixed(0), 10)} | ${pad(r.bad, 6)} |`,
    );
  }
  const [callNone, callGuarded, mixNone, mixGuarded] = results;
  console.log('');
  console.log(
    `controls / none, req/s: eth_call distinct ${(callGuarded.rps / callNone.rps).toFixed(3)}, hot read mix ${(mixGuarded.rps / mixNone.rps).toFixed(3)}; CPU us/req: eth_call ${(callGuarded.cpu / callNone.cpu).toFixed(3)}, mix ${(mixGuarded.cpu / mixNone.cpu).toFixed(3)}`,
  );
} finally {
  await service?.stop();
  await anvil.stop();
}
