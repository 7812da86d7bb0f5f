#!/usr/bin/env node
// Paired A/B of l2_executeTxn before its dialog: this tree's snap (B) and the snap of another
// checkout (A, `BASE_ROOT`, e.g. a git worktree of an older commit with its node_modules linked)
// in one process, on one devnet, their requests alternating (A, B, A, B...) so that both see the
// same moments of a shared, loaded machine. Each snap sends from an account of its own (index 0
// for A, 1 for B). Prints, per side: RPC round trips before the dialog of a transfer (class ABI
// cached) and the p50/p95 of the time from the request to the dialog, and of the whole request
// with the dialog approved at once.
//   BASE_ROOT=/path/to/old/checkout node bench/snap-chain/ab.mjs
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { startCountingProxy, startDevnet, rpc, STRK_TOKEN as STRK } from '@l2wallet/testkit';

import {
  buildIfMissing,
  grantedSnapState,
  installServedSnap,
  ROOT,
  serveSnapFolder,
} from '../lib/snapSimulation.mjs';
import { machine, percentile } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const BASE_ROOT = process.env.BASE_ROOT;
if (!BASE_ROOT) {
  throw new Error('BASE_ROOT: the checkout of the A side');
}
const CALLS = Number(process.env.BENCH_CALLS ?? 60);
const WARMUP = 3;

await buildIfMissing(join(ROOT, 'packages', 'devnet', 'dist', 'index.js'), 'packages/devnet');
const builder = (root) =>
  require(join(root, 'packages', 'snap', 'test', 'chain', 'build-e2e-snap.cjs'));
const { DEVNET_PORT } = builder(ROOT);
const dirs = {
  A: await builder(BASE_ROOT).ensureE2eSnap(),
  B: await builder(ROOT).ensureE2eSnap(),
};

const devnet = await startDevnet({ seed: 0, accounts: 1 });
const proxy = await startCountingProxy(devnet.url, { port: DEVNET_PORT });
const servers = [];
const sides = {};
for (const [side, index] of [
  ['A', 0],
  ['B', 1],
]) {
  const server = await serveSnapFolder(dirs[side]);
  servers.push(server);
  sides[side] = { snap: await installServedSnap(server, { state: grantedSnapState() }), index };
}

async function request(side, method, params, dialog) {
  const { snap } = sides[side];
  const started = performance.now();
  const http = devnet.metrics.httpRequests;
  const pending = snap.request({ method, params });
  let opened = started;
  let before = 0;
  if (dialog) {
    const ui = await pending.getInterface();
    opened = performance.now();
    before = devnet.metrics.httpRequests - http;
    await ui.ok();
  }
  const { response } = await pending;
  if (response.error) {
    throw new Error(`${side} ${method}: ${JSON.stringify(response.error)}`);
  }
  return {
    result: response.result,
    open: opened - started,
    total: performance.now() - started,
    before,
  };
}

const transfer = (amount) => ({
  contractAddress: STRK,
  entrypoint: 'transfer',
  calldata: ['0x0123456789abcdef', `0x${amount.toString(16)}`, '0x0'],
});

try {
  for (const side of ['A', 'B']) {
    const { index } = sides[side];
    const { address } = (await request(side, 'l2_createAccount', { addressIndex: index }, false))
      .result;
    sides[side].address = address;
    await rpc(devnet.rpcUrl, 'devnet_mint', {
      address,
      amount: (10n ** 21n).toString(),
      unit: 'FRI',
    });
    await request(side, 'l2_createAccount', { addressIndex: index, deploy: true }, true);
  }
  const times = { A: { open: [], total: [], before: [] }, B: { open: [], total: [], before: [] } };
  for (let round = 0; round < WARMUP + CALLS; round += 1) {
    // Alternate which side goes first, so neither always follows the other.
    const order = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
    for (const side of order) {
      const measured = await request(
        side,
        'l2_executeTxn',
        { address: sides[side].address, calls: [transfer(BigInt(round + 1))] },
        true,
      );
      if (round >= WARMUP) {
        times[side].open.push(measured.open);
        times[side].total.push(measured.total);
        times[side].before.push(measured.before);
      }
    }
  }
  const stats = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 95).toFixed(1)} ms`;
  };
  console.log(`machine: ${machine()}, Node ${process.version}, ${CALLS} alternating pairs`);
  console.log('');
  console.log(
    '| side | RPC round trips before the dialog | dialog open p50 / p95 | request, dialog approved at once, p50 / p95 |',
  );
  console.log('|---|---|---|---|');
  for (const side of ['A', 'B']) {
    const before = [...new Set(times[side].before)].join(', ');
    console.log(
      `| ${side === 'A' ? `A (${BASE_ROOT})` : 'B (this tree)'} | ${before} | ${stats(times[side].open)} | ${stats(times[side].total)} |`,
    );
  }
} finally {
  for (const side of Object.values(sides)) {
    await side.snap.executionService.terminateAllSnaps?.();
  }
  servers.forEach((server) => server.close());
  await proxy.stop();
  await devnet.close();
}
process.exit(0);
