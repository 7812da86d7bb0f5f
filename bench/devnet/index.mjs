#!/usr/bin/env node
// Throughput and latency of the devnet (packages/devnet, built dist) under signed ERC-20 transfers.
// The node runs as its own process (the l2-devnet CLI), the client here signs with starknet.js.
// Build first: npm run build -w packages/devnet
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnService } from '@l2wallet/testkit';
import { Account, CallData, RpcProvider, config, uint256 } from 'starknet';
import WebSocket from 'ws';

import { latency, machine, percentile, processCpuSeconds } from '../lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '../../packages/devnet/dist/cli.js');
const { STRK_TOKEN_ADDRESS } = await import('@l2wallet/devnet').then((m) => m.default ?? m);

const SEQUENTIAL_TXS = Number(process.env.BENCH_SEQUENTIAL_TXS ?? 600);
const CONCURRENT_CLIENTS = 8;
const TXS_PER_CLIENT = Number(process.env.BENCH_TXS_PER_CLIENT ?? 100);
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const HEAD_BLOCKS = Number(process.env.BENCH_HEAD_BLOCKS ?? 2000);
const WATCHED_TXS = Number(process.env.BENCH_WATCHED_TXS ?? 200);
const BOUNDS = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 200_000_000_000n },
  l2_gas: { max_amount: 2_000_000n, max_price_per_unit: 2_000_000n },
  l1_data_gas: { max_amount: 2_000n, max_price_per_unit: 200_000n },
};

config.set('logLevel', 'ERROR');

/** The devnet CLI as its own process, ready once it prints the URL it listens on. */
async function startNode() {
  const child = await spawnService({
    name: 'l2-devnet',
    command: process.execPath,
    args: [cli, '--port', '0', '--accounts', String(CONCURRENT_CLIENTS + 1)],
    readyLine: /listening on http:\/\/\S+\s/,
  });
  return { child, url: /listening on (http:\/\/\S+)/.exec(child.output())[1] };
}

let requestId = 0;
// A keep-alive node:http client: lighter per request than fetch, so the table measures the node.
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
function post(url, body) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function rpc(url, method, params) {
  const text = await post(url, JSON.stringify({ jsonrpc: '2.0', id: ++requestId, method, params }));
  const reply = JSON.parse(text);
  if (reply.error)
    throw new Error(
      `${method}: ${reply.error.code} ${reply.error.message} ${JSON.stringify(reply.error.data)}`,
    );
  return reply.result;
}

const ms = (value) => value.toFixed(2);

/**
 * `count` WebSocket clients of the devnet's /ws, one socket each, each subscribed with `method`.
 * Messages are counted, not parsed (the bench process must not be the bottleneck), except the
 * last one each client expects, checked when it is waited for.
 */
async function subscribers(wsUrl, count, method, params) {
  const clients = await Promise.all(
    Array.from({ length: count }, async () => {
      const ws = new WebSocket(wsUrl);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const client = { ws, received: 0, last: '', waiter: undefined };
      const subscribed = new Promise((resolve) => ws.once('message', resolve));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
      const reply = JSON.parse(String(await subscribed));
      if (typeof reply.result !== 'string') throw new Error(`${method}: ${JSON.stringify(reply)}`);
      ws.on('message', (data) => {
        client.received += 1;
        client.last = data;
        if (client.waiter && client.received >= client.waiter.n) client.waiter.resolve();
      });
      return client;
    }),
  );
  return {
    /** Resolves once every client has `n` notifications; returns the last one of the first. */
    async each(n) {
      await Promise.all(
        clients.map((c) =>
          c.received >= n ? undefined : new Promise((resolve) => (c.waiter = { n, resolve })),
        ),
      );
      return JSON.parse(String(clients[0].last));
    },
    reset() {
      for (const c of clients) c.received = 0;
    },
    close() {
      for (const c of clients) c.ws.terminate();
    },
  };
}

/** Signs `count` transfers from one account with consecutive nonces, as a wallet would. */
async function signTransfers(account, recipient, count, firstNonce) {
  const signed = [];
  for (let i = 0; i < count; i += 1) {
    signed.push(
      await account.getSignedTransaction(
        {
          contractAddress: STRK_TOKEN_ADDRESS,
          entrypoint: 'transfer',
          calldata: CallData.compile({ recipient, amount: uint256.bnToUint256(1n) }),
        },
        { nonce: firstNonce + i, resourceBounds: BOUNDS, tip: 0 },
      ),
    );
  }
  return signed;
}

async function submitAll(url, signed, latencies) {
  for (const tx of signed) {
    const start = performance.now();
    await rpc(url, 'starknet_addInvokeTransaction', { invoke_transaction: tx });
    latencies?.push(performance.now() - start);
  }
}

const { child, url: baseUrl } = await startNode();
const url = `${baseUrl}/rpc`;
try {
  const provider = new RpcProvider({ nodeUrl: url });
  const predeployed = await rpc(url, 'devnet_getPredeployedAccounts', {});
  const accounts = predeployed.map(
    (a) => new Account({ provider, address: a.address, signer: a.private_key, cairoVersion: '1' }),
  );
  // A fresh address: its balance counts the transfers that were accepted.
  const recipient = '0x5ea1ed';

  // Warm-up: JIT, key precomputation, storage slot caches.
  await submitAll(url, await signTransfers(accounts[0], recipient, 20, 0));

  // 1. One client, sequential, pre-signed: what the node accepts per second.
  const sequential = await signTransfers(accounts[0], recipient, SEQUENTIAL_TXS, 20);
  const invokeLatencies = [];
  const cpuBefore = processCpuSeconds(child.pid);
  let start = performance.now();
  await submitAll(url, sequential, invokeLatencies);
  const sequentialSeconds = (performance.now() - start) / 1000;
  // Server CPU per transfer: unlike wall time, not inflated by other processes on the machine.
  const cpuPerTransfer = (processCpuSeconds(child.pid) - cpuBefore) / SEQUENTIAL_TXS;

  // 2. One client that also signs each transfer right before sending it (wallet-like, end to end).
  start = performance.now();
  const signAndSendCount = 200;
  for (let i = 0; i < signAndSendCount; i += 1) {
    const [tx] = await signTransfers(accounts[0], recipient, 1, 20 + SEQUENTIAL_TXS + i);
    await rpc(url, 'starknet_addInvokeTransaction', { invoke_transaction: tx });
  }
  const signAndSendSeconds = (performance.now() - start) / 1000;

  // 3. Eight clients (eight accounts) at once, each sending its pre-signed transfers in order.
  const batches = await Promise.all(
    accounts
      .slice(1, CONCURRENT_CLIENTS + 1)
      .map((account) => signTransfers(account, recipient, TXS_PER_CLIENT, 0)),
  );
  start = performance.now();
  await Promise.all(batches.map((signed) => submitAll(url, signed)));
  const concurrentSeconds = (performance.now() - start) / 1000;

  // 4. starknet_call latency (ERC-20 balance_of on latest).
  const request = {
    contract_address: STRK_TOKEN_ADDRESS,
    entry_point_selector: '0x35a73cd311a05d46deda634c5ee045db92f811b4e74bca4437fcb5302b7af33',
    calldata: [recipient],
  };
  const callLatency = await latency(
    () => ({ request, block_id: 'latest' }),
    (params) => rpc(url, 'starknet_call', params),
    { calls: CALLS },
  );

  // 5. A long chain: one batch of 20,000 devnet_increaseTime calls, one block each.
  const LONG_CHAIN_BLOCKS = 20_000;
  const batch = Array.from({ length: LONG_CHAIN_BLOCKS }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'devnet_increaseTime',
    params: { time: 60 },
  }));
  start = performance.now();
  const batchReplies = JSON.parse(await post(url, JSON.stringify(batch)));
  const longChainSeconds = (performance.now() - start) / 1000;
  if (batchReplies.some((reply) => reply.error)) throw new Error('devnet_increaseTime refused');

  // 6. WebSocket: SUBSCRIBERS sockets with starknet_subscribeNewHeads; one batch of
  // HEAD_BLOCKS devnet_createBlock calls; timed until every subscriber has every header.
  const wsUrl = `${baseUrl.replace('http', 'ws')}/ws`;
  const heads = await subscribers(wsUrl, SUBSCRIBERS, 'starknet_subscribeNewHeads', {});
  const blockBatch = Array.from({ length: HEAD_BLOCKS }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'devnet_createBlock',
  }));
  const headCpuBefore = processCpuSeconds(child.pid);
  start = performance.now();
  await post(url, JSON.stringify(blockBatch));
  const lastHead = await heads.each(HEAD_BLOCKS);
  const headSeconds = (performance.now() - start) / 1000;
  const headCpu = processCpuSeconds(child.pid) - headCpuBefore;
  const latestNumber = await rpc(url, 'starknet_blockNumber', []);
  if (lastHead.params.result.block_number !== latestNumber)
    throw new Error(`last header ${lastHead.params.result.block_number}, latest ${latestNumber}`);
  heads.close();

  // 7. Sequential pre-signed transfers while SUBSCRIBERS sockets follow every receipt.
  const receipts = await subscribers(
    wsUrl,
    SUBSCRIBERS,
    'starknet_subscribeNewTransactionReceipts',
    {},
  );
  const watchedFirstNonce = 20 + SEQUENTIAL_TXS + 200;
  const watched = await signTransfers(accounts[0], recipient, WATCHED_TXS, watchedFirstNonce);
  const watchedCpuBefore = processCpuSeconds(child.pid);
  start = performance.now();
  await submitAll(url, watched);
  await receipts.each(WATCHED_TXS);
  const watchedSeconds = (performance.now() - start) / 1000;
  const watchedCpu = (processCpuSeconds(child.pid) - watchedCpuBefore) / WATCHED_TXS;
  receipts.close();

  const received = uint256.uint256ToBN({
    low: (await rpc(url, 'starknet_call', { request, block_id: 'latest' }))[0],
    high: 0,
  });
  const expectedTransfers =
    20 + SEQUENTIAL_TXS + signAndSendCount + CONCURRENT_CLIENTS * TXS_PER_CLIENT + WATCHED_TXS;
  if (received !== BigInt(expectedTransfers)) {
    throw new Error(`recipient received ${received} transfers, expected ${expectedTransfers}`);
  }

  invokeLatencies.sort((a, b) => a - b);
  const rows = [
    [
      'signed ERC-20 transfers/s, 1 client sequential (pre-signed)',
      (SEQUENTIAL_TXS / sequentialSeconds).toFixed(0),
    ],
    [
      'signed ERC-20 transfers/s, 1 client signing each before sending',
      (signAndSendCount / signAndSendSeconds).toFixed(0),
    ],
    [
      `signed ERC-20 transfers/s, ${CONCURRENT_CLIENTS} concurrent clients (pre-signed)`,
      ((CONCURRENT_CLIENTS * TXS_PER_CLIENT) / concurrentSeconds).toFixed(0),
    ],
    [
      'devnet CPU per accepted transfer (ms) -> transfers/s per busy core',
      `${ms(cpuPerTransfer * 1000)} -> ${(1 / cpuPerTransfer).toFixed(0)}`,
    ],
    [
      'starknet_addInvokeTransaction p50 / p95 (ms)',
      `${ms(percentile(invokeLatencies, 50))} / ${ms(percentile(invokeLatencies, 95))}`,
    ],
    [
      'starknet_call (balance_of) p50 / p95 (ms)',
      `${ms(callLatency.p50)} / ${ms(callLatency.p95)}`,
    ],
    [
      `${LONG_CHAIN_BLOCKS.toLocaleString('en')} one-block devnet_increaseTime calls in one batch (s)`,
      longChainSeconds.toFixed(1),
    ],
    [
      `WebSocket newHeads notifications/s to ${SUBSCRIBERS} subscribers (${HEAD_BLOCKS} blocks)`,
      ((SUBSCRIBERS * HEAD_BLOCKS) / headSeconds).toFixed(0),
    ],
    [
      `devnet CPU per newHeads notification, block closing included (us) -> per busy core`,
      `${((headCpu / (SUBSCRIBERS * HEAD_BLOCKS)) * 1e6).toFixed(1)} -> ${((SUBSCRIBERS * HEAD_BLOCKS) / headCpu).toFixed(0)}`,
    ],
    [
      `signed ERC-20 transfers/s, sequential, each receipt to ${SUBSCRIBERS} subscribers`,
      (WATCHED_TXS / watchedSeconds).toFixed(0),
    ],
    [
      `devnet CPU per transfer with ${SUBSCRIBERS} receipt subscribers (ms) -> per busy core`,
      `${ms(watchedCpu * 1000)} -> ${(1 / watchedCpu).toFixed(0)}`,
    ],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(
    `Node ${process.version}, ${machine()}, load average ${loadavg()[0].toFixed(1)} at the end; block per transaction`,
  );
  console.log(
    `${SEQUENTIAL_TXS} sequential, ${CONCURRENT_CLIENTS}x${TXS_PER_CLIENT} concurrent, ${CALLS} calls; every transfer checked on chain\n`,
  );
  console.log(`| ${'metric'.padEnd(width)} | value |`);
  console.log(`| ${'-'.repeat(width)} | ----- |`);
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value} |`);
} finally {
  agent.destroy();
  await child.stop();
}
