#!/usr/bin/env node
// Snap chain benchmark: the real snap bundle (built with Testnet at 127.0.0.1:5059, see
// packages/snap/test/harness/build-e2e-snap.cjs) in @metamask/snaps-simulation outside jest,
// against packages/devnet (from packages/devnet/dist) on loopback. Dialogs are approved as they
// open. It prints node round trips per method (counted at the devnet), p50/p95 latency of
// l2_estimateFee, l2_executeTxn and its dialog, l2_recoverAccounts over 20 addresses, and
// l2_getTransactions from the node alone (each row: bench/RESULTS.md, "bench/snap-chain").
// Targets: executeTxn <= 3 round trips after approval; recovery of 20 addresses <= 3; history
// <= 6 round trips and <= 1 s.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import {
  jsonRpcRequest,
  postJson,
  rpc as jsonRpc,
  startCountingProxy,
  startDevnet,
  STRK_TOKEN as STRK,
} from '@l2wallet/testkit';

import {
  buildIfMissing,
  grantedSnapState,
  installServedSnap,
  ROOT,
  serveSnapFolder,
} from '../lib/snapSimulation.mjs';
import { latency, machine, percentile } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const WARMUP = 3;
const RECIPIENT = '0x0123456789abcdef';

// The devnet through its public entry point (packages/devnet/dist, built if missing).
await buildIfMissing(join(ROOT, 'packages', 'devnet', 'dist', 'index.js'), 'packages/devnet');
const { ensureE2eSnap, ensureE2eNodeSnap, DEVNET_PORT } = require(
  join(ROOT, 'packages', 'snap', 'test', 'harness', 'build-e2e-snap.cjs'),
);
const SNAP_DIR = await ensureE2eSnap();
const NODE_SNAP_DIR = await ensureE2eNodeSnap();

// The devnet counts its JSON-RPC HTTP requests but not explorer GETs: a counting proxy on the
// bundle's port (5059) counts those; the devnet itself listens on a free port behind it (the
// history part points the proxy at its long devnet).
const rpc = (target, method, params) => jsonRpc(target.rpcUrl, method, params);

const devnet = await startDevnet({ seed: 0, accounts: 1 });
const proxy = await startCountingProxy(devnet.url, { port: DEVNET_PORT });
const explorerHits = () =>
  proxy.log().filter(({ method, path }) => method === 'GET' && path.startsWith('/api/txns')).length;
const snapServer = await serveSnapFolder(SNAP_DIR);
const snap = await installServedSnap(snapServer, { state: grantedSnapState() });

function counters() {
  return {
    http: devnet.metrics.httpRequests,
    calls: Object.values(devnet.metrics.rpcCalls).reduce((sum, count) => sum + count, 0),
    explorer: explorerHits(),
  };
}

function diff(after, before) {
  return {
    http: after.http - before.http,
    calls: after.calls - before.calls,
    explorer: after.explorer - before.explorer,
  };
}

/**
 * Runs one request; `dialog` says whether it opens a confirmation, which is approved. Returns
 * the result and the devnet counters before the dialog and after approval.
 */
async function call(method, params, dialog) {
  const start = counters();
  const pending = snap.request({ method, params });
  let atDialog = start;
  if (dialog) {
    const ui = await pending.getInterface();
    atDialog = counters();
    await ui.ok();
  }
  const { response } = await pending;
  if (response.error) {
    throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  }
  const end = counters();
  return {
    result: response.result,
    before: diff(atDialog, start),
    after: diff(end, atDialog),
    total: diff(end, start),
  };
}

const transfer = (amount) => ({
  contractAddress: STRK,
  entrypoint: 'transfer',
  calldata: [RECIPIENT, `0x${amount.toString(16)}`, '0x0'],
});

const rows = [];
function row(method, measured, dialog, note = '') {
  rows.push({ method, measured, dialog, note });
}

const TARGET_EXECUTE_AFTER = 3;
const TARGET_RECOVERY = 3;
const TARGET_HISTORY_ROUND_TRIPS = 6;
const TARGET_HISTORY_MS = 1000;
const HISTORY_BLOCKS = 20_000;
const HISTORY_TXNS = 50;
const BLOCK_SECONDS = 60;

/** devnet_increaseTime `count` times in one batch: `count` empty blocks a minute apart. */
async function emptyBlocks(target, count) {
  const { json: body } = await postJson(
    target.rpcUrl,
    Array.from({ length: count }, (_, id) =>
      jsonRpcRequest('devnet_increaseTime', { time: BLOCK_SECONDS }, id),
    ),
  );
  if (!Array.isArray(body) || body.some((item) => item.error)) {
    throw new Error(`devnet_increaseTime: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

/**
 * The history part: a devnet of HISTORY_BLOCKS blocks whose last half holds HISTORY_TXNS
 * transactions of the snap's account (sent through the snap), then l2_getTransactions for the
 * last 7 days (all 50 of them) from a fresh snap and again from the same, warm snap.
 */
async function historyRows() {
  const now = Math.floor(Date.now() / 1000);
  const long = await startDevnet({
    seed: 0,
    accounts: 1,
    startTime: now - HISTORY_BLOCKS * BLOCK_SECONDS - 600,
  });
  proxy.retarget(long.url);
  const nodeServer = await serveSnapFolder(NODE_SNAP_DIR);
  const sender = await installServedSnap(nodeServer, { state: grantedSnapState() });
  const reader = await installServedSnap(nodeServer, { state: grantedSnapState() });
  try {
    const send = async (method, params) => {
      const pending = sender.request({ method, params });
      if (method !== 'l2_createAccount' || params.deploy) {
        await (await pending.getInterface()).ok();
      }
      const { response } = await pending;
      if (response.error) {
        throw new Error(`${method}: ${JSON.stringify(response.error)}`);
      }
      return response.result;
    };
    const { address } = await send('l2_createAccount', { addressIndex: 0 });
    await rpc(long, 'devnet_mint', { address, amount: (10n ** 21n).toString(), unit: 'FRI' });
    await send('l2_createAccount', { addressIndex: 0, deploy: true });
    await emptyBlocks(long, HISTORY_BLOCKS / 2);
    const stretch = Math.floor(HISTORY_BLOCKS / 2 / HISTORY_TXNS) - 1;
    for (let index = 0; index < HISTORY_TXNS; index += 1) {
      await emptyBlocks(long, stretch);
      await send('l2_executeTxn', { address, calls: [transfer(BigInt(index + 1))] });
    }
    const latest = await rpc(long, 'starknet_blockNumber', []);
    if (latest < HISTORY_BLOCKS) {
      await emptyBlocks(long, HISTORY_BLOCKS - latest);
    }
    const blocks = await rpc(long, 'starknet_blockNumber', []);
    const measure = async (snapUnderTest, label) => {
      const http = long.metrics.httpRequests;
      const calls = Object.values(long.metrics.rpcCalls).reduce((sum, count) => sum + count, 0);
      const started = performance.now();
      const { response } = await snapUnderTest.request({
        method: 'l2_getTransactions',
        params: { senderAddress: address, txnsInLastNumOfDays: 7, pageSize: 50 },
      });
      const ms = performance.now() - started;
      if (response.error) {
        throw new Error(`l2_getTransactions: ${JSON.stringify(response.error)}`);
      }
      return {
        label,
        records: response.result.length,
        http: long.metrics.httpRequests - http,
        calls: Object.values(long.metrics.rpcCalls).reduce((sum, count) => sum + count, 0) - calls,
        ms,
      };
    };
    // `reader` never sent anything: nothing in its state, no version checked, no timestamps.
    const cold = await measure(reader, 'fresh snap (version check, timestamp search)');
    const warm = await measure(reader, 'same snap again (versions and timestamps known)');
    return { blocks, rows: [cold, warm] };
  } finally {
    await sender.executionService.terminateAllSnaps?.();
    await reader.executionService.terminateAllSnaps?.();
    nodeServer.close();
    await long.close();
  }
}
let executeAfter = 0;
let recovery;

/** p50/p95 of the time from an l2_executeTxn request to its dialog (then approved, untimed). */
async function dialogOpenLatency(make) {
  const times = [];
  for (let index = 0; index < WARMUP + CALLS; index += 1) {
    const params = make(index);
    const started = performance.now();
    const pending = snap.request({ method: 'l2_executeTxn', params });
    const ui = await pending.getInterface();
    const ms = performance.now() - started;
    await ui.ok();
    const { response } = await pending;
    if (response.error) {
      throw new Error(`l2_executeTxn: ${JSON.stringify(response.error)}`);
    }
    if (index >= WARMUP) {
      times.push(ms);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

try {
  const { address } = (await call('l2_createAccount', { addressIndex: 0 }, false)).result;
  await rpc(devnet, 'devnet_mint', { address, amount: (10n ** 21n).toString(), unit: 'FRI' });

  row(
    'l2_estimateAccountDeployFee',
    await call('l2_estimateAccountDeployFee', { addressIndex: 0 }, false),
    false,
  );
  row(
    'l2_createAccount deploy: true',
    await call('l2_createAccount', { addressIndex: 0, deploy: true }, true),
    true,
  );
  row(
    'l2_estimateFee',
    await call('l2_estimateFee', { address, invocations: [transfer(1n)] }, false),
    false,
  );
  const executed = await call('l2_executeTxn', { address, calls: [transfer(2n)] }, true);
  const executedWarm = await call('l2_executeTxn', { address, calls: [transfer(2n)] }, true);
  executeAfter = executed.after.http;
  row(
    'l2_executeTxn',
    executed,
    true,
    'before the dialog: the class ABI from the chain, getClassHashAt + getClass (class not cached yet), beside the plan',
  );
  row(
    'l2_executeTxn (a transfer, class cached)',
    executedWarm,
    true,
    'before the dialog: the account batch (with the simulation when the snap expects the nonce), getClassHashAt, else the fee plan (estimate or simulation) after the batch',
  );
  row(
    'l2_executeTxn (details.nonce + resourceBounds)',
    await call(
      'l2_executeTxn',
      {
        address,
        calls: [transfer(3n)],
        details: {
          nonce: await rpc(devnet, 'starknet_getNonce', {
            block_id: 'pre_confirmed',
            contract_address: address,
          }),
          resourceBounds: {
            l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
            l2_gas: { max_amount: '0x2000000', max_price_per_unit: '0x2540be400' },
            l1_data_gas: { max_amount: '0x400', max_price_per_unit: '0x2540be400' },
          },
        },
      },
      true,
    ),
    true,
    'class ABI cached per class hash: getClassHashAt only',
  );
  const { address: fresh } = (await call('l2_createAccount', { addressIndex: 1 }, false)).result;
  await rpc(devnet, 'devnet_mint', {
    address: fresh,
    amount: (10n ** 21n).toString(),
    unit: 'FRI',
  });
  row(
    'l2_executeTxn (undeployed: deploy + invoke)',
    await call('l2_executeTxn', { address: fresh, calls: [transfer(4n)] }, true),
    true,
  );
  row(
    'l2_getErc20TokenBalance',
    await call('l2_getErc20TokenBalance', { tokenAddress: STRK, userAddress: address }, false),
    false,
  );
  row(
    'l2_getTransactionStatus',
    await call(
      'l2_getTransactionStatus',
      { transactionHash: executed.result.transaction_hash },
      false,
    ),
    false,
  );
  row(
    'l2_getTransactions',
    await call('l2_getTransactions', { senderAddress: address }, false),
    false,
    'node (fee-token events) + explorer page 1',
  );
  row(
    'l2_extractPublicKey (deployed)',
    await call('l2_extractPublicKey', { userAddress: address }, false),
    false,
  );

  // Recovery over 20 addresses: indexes 0 and 1 deployed, 2..4 funded, the rest empty.
  for (let index = 2; index < 5; index += 1) {
    const { address: funded } = (await call('l2_createAccount', { addressIndex: index }, false))
      .result;
    await rpc(devnet, 'devnet_mint', { address: funded, amount: '1000', unit: 'FRI' });
  }
  const recoverStart = performance.now();
  recovery = await call(
    'l2_recoverAccounts',
    { startScanIndex: 0, maxScanned: 20, maxMissed: 20 },
    false,
  );
  const recoveryMs = performance.now() - recoverStart;
  row(
    'l2_recoverAccounts (20 addresses)',
    recovery,
    false,
    `${recovery.result.length} records, ${recovery.result.filter((r) => r.deployTxnHash).length} with deployTxnHash, ${recoveryMs.toFixed(0)} ms`,
  );

  // The same scan from a snap with empty state (a restored wallet): deploy hashes come from
  // the explorer, one lookup per deployed account, in parallel.
  const restored = await installServedSnap(snapServer, { state: grantedSnapState() });
  const restoredStart = counters();
  const restoredClock = performance.now();
  const restoredResponse = await restored.request({
    method: 'l2_recoverAccounts',
    params: { startScanIndex: 0, maxScanned: 20, maxMissed: 20 },
  });
  const restoredMs = performance.now() - restoredClock;
  const restoredTotal = diff(counters(), restoredStart);
  const restoredRecords = restoredResponse.response.result;
  row(
    'l2_recoverAccounts (20 addresses, empty snap state)',
    { total: restoredTotal },
    false,
    `${restoredRecords.length} records, ${restoredRecords.filter((r) => r.deployTxnHash).length} with deployTxnHash, ${restoredMs.toFixed(0)} ms`,
  );
  await restored.executionService.terminateAllSnaps?.();

  // Latency: estimateFee, and executeTxn with the dialog approved as soon as it opens.
  const latencies = {};
  for (const [method, make, dialog] of [
    ['l2_estimateFee', (index) => ({ address, invocations: [transfer(BigInt(index + 1))] }), false],
    ['l2_executeTxn', (index) => ({ address, calls: [transfer(BigInt(index + 1))] }), true],
  ]) {
    latencies[method] = await latency(make, (params) => call(method, params, dialog), {
      warmup: WARMUP,
      calls: CALLS,
    });
  }
  latencies['l2_executeTxn dialog open'] = await dialogOpenLatency((index) => ({
    address,
    calls: [transfer(BigInt(index + 1))],
  }));

  const history = await historyRows();

  console.log(`machine: ${machine()}, Node ${process.version}`);
  console.log('');
  console.log(
    'Node round trips (HTTP requests to the devnet /rpc; a batch counts once) and explorer GETs',
  );
  console.log('');
  console.log(
    '| method | RPC round trips before dialog | after approval | total | JSON-RPC calls | explorer GETs | note |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const { method, measured, dialog, note } of rows) {
    console.log(
      `| ${method} | ${dialog ? measured.before.http : '-'} | ${dialog ? measured.after.http : '-'} | ${measured.total.http} | ${measured.total.calls} | ${measured.total.explorer} | ${note} |`,
    );
  }
  console.log('');
  console.log(
    `l2_getTransactions from the node (explorer at a closed port): an account with ${HISTORY_TXNS} transactions in the last half of a ${history.blocks}-block devnet, txnsInLastNumOfDays 7, pageSize 50`,
  );
  console.log('');
  console.log('| history call | records | RPC round trips | JSON-RPC calls | latency |');
  console.log('|---|---|---|---|---|');
  for (const { label, records, http, calls, ms } of history.rows) {
    console.log(`| ${label} | ${records} | ${http} | ${calls} | ${ms.toFixed(0)} ms |`);
  }
  console.log('');
  console.log(`| latency (${CALLS} calls) | p50 | p95 |`);
  console.log('|---|---|---|');
  for (const [method, { p50, p95 }] of Object.entries(latencies)) {
    console.log(
      `| ${method}${method === 'l2_executeTxn' ? ' (dialog auto-approved)' : ''} | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms |`,
    );
  }
  console.log('');
  console.log('| target | measured | |');
  console.log('|---|---|---|');
  console.log(
    `| l2_executeTxn round trips after approval <= ${TARGET_EXECUTE_AFTER} | ${executeAfter} | ${executeAfter <= TARGET_EXECUTE_AFTER ? 'ok' : 'MISSED'} |`,
  );
  console.log(
    `| l2_recoverAccounts, 20 addresses, RPC round trips <= ${TARGET_RECOVERY} | ${recovery.total.http} | ${recovery.total.http <= TARGET_RECOVERY ? 'ok' : 'MISSED'} |`,
  );
  console.log(
    `| l2_getTransactions, ${HISTORY_TXNS} txns over ${history.blocks} blocks, RPC round trips <= ${TARGET_HISTORY_ROUND_TRIPS} | ${Math.max(...history.rows.map((r) => r.http))} | ${Math.max(...history.rows.map((r) => r.http)) <= TARGET_HISTORY_ROUND_TRIPS ? 'ok' : 'MISSED'} |`,
  );
  console.log(
    `| l2_getTransactions, same, latency <= ${TARGET_HISTORY_MS} ms | ${Math.max(...history.rows.map((r) => r.ms)).toFixed(0)} ms | ${Math.max(...history.rows.map((r) => r.ms)) <= TARGET_HISTORY_MS ? 'ok' : 'MISSED'} |`,
  );
} finally {
  await snap.executionService.terminateAllSnaps?.();
  snapServer.close();
  await proxy.stop();
  await devnet.close();
}
process.exit(0);
