#!/usr/bin/env node
// Paired A/B of l2_executeTxn before its dialog: this tree's snap (B) and the snap of another
// checkout (A, `BASE_ROOT`, e.g. a git worktree of an older commit with its node_modules linked)
// in one process, on one devnet, their requests alternating (A, B, A, B...) so that both see the
// same moments of a shared, loaded machine. Each snap sends from an account of its own (index 0
// for A, 1 for B). Prints, per side: RPC round trips before the dialog of a transfer (class ABI
// cached) and the p50/p95 of the time from the request to the dialog, and of the whole request
// with the dialog approved at once.
//   BASE_ROOT=/path/to/old/checkout node bench/snap-chain/ab.mjs
// AB_ROUTE=paymaster times the paymaster route instead (details.feeMode, ETH a gas token of
// packages/paymaster's l2-paymaster on the same devnet; its requests to the devnet are not
// counted): each side's account holds only ETH, and every dialog is declined (nothing relayed),
// so with AB_CASE=first (the default) each request is the same first transaction of an undeployed
// account (deploy_and_invoke), with AB_CASE=deployed a transfer of an account the side's first,
// approved, relayed transfer deployed. Its whole-request column is then the declined request.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { existsSync } from 'node:fs';

import {
  ETH_TOKEN as ETH,
  mintEth,
  rpc,
  startCountingProxy,
  startDevnet,
  startDevnetPaymaster,
  STRK_TOKEN as STRK,
} from '@l2wallet/testkit';

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
const RELAYED = process.env.AB_ROUTE === 'paymaster';
const CASE = process.env.AB_CASE ?? 'first';
if (RELAYED && !['first', 'deployed'].includes(CASE)) {
  throw new Error('AB_CASE: first or deployed');
}
const FEE_IN_ETH = { mode: 'default', gasToken: ETH };

await buildIfMissing(join(ROOT, 'packages', 'devnet', 'dist', 'index.js'), 'packages/devnet');
if (RELAYED) {
  await buildIfMissing(
    join(ROOT, 'packages', 'paymaster', 'dist', 'index.js'),
    'packages/paymaster',
  );
}
// The test builds' module: test/harness/ since the test folders were regrouped, test/chain/ before.
const builder = (root) => {
  const harness = join(root, 'packages', 'snap', 'test', 'harness', 'build-e2e-snap.cjs');
  return require(
    existsSync(harness)
      ? harness
      : join(root, 'packages', 'snap', 'test', 'chain', 'build-e2e-snap.cjs'),
  );
};
const { DEVNET_PORT } = builder(ROOT);

const devnet = await startDevnet({ seed: 0, accounts: 2 });
const paymaster = RELAYED
  ? await startDevnetPaymaster(devnet.rpcUrl, {
      gasTokens: [{ address: ETH, priceInStrk: '2500' }],
    })
  : undefined;
const build = (side) =>
  builder(side).ensureE2eSnap(undefined, paymaster ? { paymasterUrl: paymaster.url } : {});
const dirs = { A: await build(BASE_ROOT), B: await build(ROOT) };
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

async function request(side, method, params, dialog, approve = true) {
  const { snap } = sides[side];
  const started = performance.now();
  // The snap's own node requests (the paymaster's to the devnet do not pass the proxy).
  const http = proxy.requests().length;
  const pending = snap.request({ method, params });
  let opened = started;
  let before = 0;
  if (dialog) {
    const ui = await pending.getInterface();
    opened = performance.now();
    before = proxy.requests().length - http;
    await (approve ? ui.ok() : ui.cancel());
  }
  const { response } = await pending;
  if (response.error && !(approve === false && response.error.code === 4001)) {
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
  contractAddress: RELAYED ? ETH : STRK,
  entrypoint: 'transfer',
  calldata: ['0x0123456789abcdef', `0x${amount.toString(16)}`, '0x0'],
});

/** The side's transfer; on the paymaster route declined unless `approve`. */
const send = (side, amount, approve = !RELAYED) =>
  request(
    side,
    'l2_executeTxn',
    {
      address: sides[side].address,
      calls: [transfer(amount)],
      ...(RELAYED ? { details: { feeMode: FEE_IN_ETH } } : {}),
    },
    true,
    approve,
  );

try {
  for (const side of ['A', 'B']) {
    const { index } = sides[side];
    const { address } = (await request(side, 'l2_createAccount', { addressIndex: index }, false))
      .result;
    sides[side].address = address;
    if (RELAYED) {
      await mintEth(devnet.rpcUrl, address, 10n ** 19n);
      if (CASE === 'deployed') {
        await send(side, 1n, true);
      }
      continue;
    }
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
      const measured = await send(side, BigInt(round + 1));
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
  const route = RELAYED ? `paymaster route (${CASE}, dialogs declined)` : 'STRK route';
  console.log(
    `machine: ${machine()}, Node ${process.version}, ${CALLS} alternating pairs, ${route}`,
  );
  console.log('');
  console.log(
    `| side | RPC round trips before the dialog | dialog open p50 / p95 | request, dialog ${RELAYED ? 'declined' : 'approved'} at once, p50 / p95 |`,
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
  await paymaster?.stop();
  await devnet.close();
}
process.exit(0);
