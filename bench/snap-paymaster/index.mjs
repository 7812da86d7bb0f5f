#!/usr/bin/env node
// Snap paymaster benchmark (docs/interface/snap.md#fees-in-another-token): a first transaction with
// the fee in ETH. An account that holds only ETH is deployed and sends one ETH transfer in one
// l2_executeTxn with details.feeMode {mode: 'default', gasToken: ETH}: the snap's paymaster route,
// deploy_and_invoke through packages/paymaster's relayer on packages/devnet. The real snap bundle
// (Testnet's node and paymaster behind counting pass-throughs, so only the snap's own requests are
// counted: the paymaster talks to the devnet directly) runs in @metamask/snaps-simulation outside
// jest, dialogs approved as they open; every call is a fresh account. It prints round trips (HTTP
// requests; a JSON-RPC batch counts once) to the node and to the paymaster, before the dialog and
// after approval, and p50/p95 latency of the whole request, beside the same first transaction with
// the fee in STRK (a v3 deploy then invoke, an account holding only STRK, a STRK transfer) for
// comparison.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import {
  ETH_TOKEN as ETH,
  mintEth,
  mintStrk,
  snapVariant,
  starknetSnapBuild,
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

const CALLS = Number(process.env.BENCH_CALLS ?? 10);
const WARMUP = 2;
const RECIPIENT = '0x0123456789abcdef';
const ONE = 10n ** 18n;

await buildIfMissing(join(ROOT, 'packages', 'devnet', 'dist', 'index.js'), 'packages/devnet');

const devnet = await startDevnet({ seed: 0, accounts: 2 });
const paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
  gasTokens: [{ address: ETH, priceInStrk: '2500' }],
});
const nodeProxy = await startCountingProxy(devnet.rpcUrl);
const paymasterProxy = await startCountingProxy(paymaster.url);
const snapDir = await snapVariant(
  starknetSnapBuild({ rpcUrl: nodeProxy.url, paymasterUrl: paymasterProxy.url }),
);
const server = await serveSnapFolder(snapDir);
const accounts = 2 * (WARMUP + CALLS) + 2;
const snap = await installServedSnap(server, { state: grantedSnapState(accounts) });

const counts = () => ({
  node: nodeProxy.requests().length,
  paymaster: paymasterProxy.requests().length,
});
const minus = (a, b) => ({ node: a.node - b.node, paymaster: a.paymaster - b.paymaster });

/** One l2_executeTxn, its dialog approved: round trips before and after it, and its latency. */
async function execute(params) {
  const start = counts();
  const began = performance.now();
  const pending = snap.request({ method: 'l2_executeTxn', params });
  const ui = await pending.getInterface();
  const atDialog = counts();
  await ui.ok();
  const { response } = await pending;
  const ms = performance.now() - began;
  if (response.error) {
    throw new Error(`l2_executeTxn: ${JSON.stringify(response.error)}`);
  }
  return { before: minus(atDialog, start), after: minus(counts(), atDialog), ms };
}

let nextIndex = 0;
/** A fresh account of the snap, funded by `fund` (not through the snap's counted node). */
async function freshAccount(fund) {
  const addressIndex = nextIndex;
  nextIndex += 1;
  const { response } = await snap.request({ method: 'l2_createAccount', params: { addressIndex } });
  if (response.error) throw new Error(`l2_createAccount: ${JSON.stringify(response.error)}`);
  await fund(response.result.address);
  return response.result.address;
}

const transfer = (token) => ({
  contractAddress: token,
  entrypoint: 'transfer',
  calldata: [RECIPIENT, '0x3e8', '0x0'],
});

/** WARMUP untimed then CALLS timed first transactions; the round trips of the last. */
async function firstTransactions(fund, token, details) {
  const runs = [];
  for (let index = 0; index < WARMUP + CALLS; index += 1) {
    const address = await freshAccount(fund);
    const run = await execute({
      address,
      calls: [transfer(token)],
      ...(details ? { details } : {}),
    });
    if (index >= WARMUP) runs.push(run);
  }
  const times = runs.map((run) => run.ms).sort((a, b) => a - b);
  const last = runs[runs.length - 1];
  return { ...last, p50: percentile(times, 50), p95: percentile(times, 95) };
}

try {
  const relayed = await firstTransactions((address) => mintEth(devnet.rpcUrl, address, ONE), ETH, {
    feeMode: { mode: 'default', gasToken: ETH },
  });
  const v3 = await firstTransactions(
    (address) => mintStrk(devnet.rpcUrl, address, 100n * ONE),
    STRK,
    undefined,
  );
  console.log(`machine: ${machine()}, Node ${process.version}`);
  console.log('');
  console.log(
    '| first transaction (deploy + invoke), from the snap | node round trips before dialog / after | paymaster round trips before / after | p50 / p95 (' +
      `${CALLS} calls) |`,
  );
  console.log('|---|---|---|---|');
  for (const [label, run] of [
    ['fee in ETH (details.feeMode, deploy_and_invoke via the relayer)', relayed],
    ['fee in STRK (v3 deploy, then invoke)', v3],
  ]) {
    console.log(
      `| ${label} | ${run.before.node} / ${run.after.node} | ${run.before.paymaster} / ${run.after.paymaster} | ${run.p50.toFixed(1)} / ${run.p95.toFixed(1)} ms |`,
    );
  }
} finally {
  await snap.executionService.terminateAllSnaps?.();
  await server.close();
  await paymasterProxy.stop();
  await nodeProxy.stop();
  await paymaster.stop();
  await devnet.close();
}
process.exit(0);
