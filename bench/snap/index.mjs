#!/usr/bin/env node
// Snap benchmark: bundle size (raw, gzipped) beside its floor, and request latency in
// @metamask/snaps-simulation, outside jest. The floor is the same build of a snap that imports one
// starknet.js function and nothing else (packages/snap/build/starknet-floor.ts): what any bundle
// that uses starknet.js keeps. The snap folder is served on 127.0.0.1; dialogs are approved as
// they open, so a latency includes the dialog round trip. Build first: npm run build -w
// packages/snap.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import {
  buildSnapVariant,
  STARKNET_SNAP_DIR,
  STARKNET_TESTNET as TESTNET,
  STRK_TOKEN as STRK,
} from '@l2wallet/testkit';

import {
  buildIfMissing,
  grantedSnapState,
  installServedSnap,
  ROOT,
  serveSnapFolder,
} from '../lib/snapSimulation.mjs';
import { latency, machine } from '../lib/stats.mjs';

const SNAP_DIR = join(ROOT, 'packages', 'snap');
const BUNDLE = join(SNAP_DIR, 'dist', 'bundle.js');
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const WARMUP = 10;
const TARGET_BUNDLE_KB = 400;
const TARGET_SIGN_MESSAGE_P50_MS = 30;

await buildIfMissing(BUNDLE, 'packages/snap');

/** Runs one request, approving every dialog it opens; throws on an error response. */
async function call(snap, method, params) {
  const pending = snap.request({ method, params });
  let settled = false;
  const result = pending.then((value) => {
    settled = true;
    return value;
  });
  while (!settled) {
    const ui = await Promise.race([pending.getInterface(), result.then(() => null)]);
    if (!ui || settled) {
      break;
    }
    await ui.ok();
  }
  const { response } = await result;
  if (response.error) {
    throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  }
  return response.result;
}

async function measure(snap, method, makeParams) {
  const times = await latency(makeParams, (params) => call(snap, method, params), {
    warmup: WARMUP,
    calls: CALLS,
  });
  return { method, ...times, calls: CALLS };
}

// The snap tests' revision 1 message (a ByteArray memo, u128, bool, ContractAddress).
const TYPED_DATA = JSON.parse(
  readFileSync(join(SNAP_DIR, 'test', 'fixtures', 'typedData.json'), 'utf8'),
).rev1;

const BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
  l2_gas: { max_amount: '0x1000000', max_price_per_unit: '0x2540be400' },
  l1_data_gas: { max_amount: '0x200', max_price_per_unit: '0x3b9aca00' },
};

const bundle = readFileSync(BUNDLE);
const raw = bundle.length;
const gzipped = gzipSync(bundle, { level: 9 }).length;
// The floor, built into the testkit's build cache (never packages/snap/dist).
const floorDir = await buildSnapVariant({
  snapRoot: STARKNET_SNAP_DIR,
  env: { SNAP_BUILD_FLOOR: 'starknet' },
});
const floor = readFileSync(join(floorDir, 'dist', 'bundle.js'));

const server = await serveSnapFolder(SNAP_DIR);
// The simulation's origin holds grants for every index the createAccount rows add, so they
// measure the derivation and the state write, not the grant dialog.
const snap = await installServedSnap(server, { state: grantedSnapState(WARMUP + CALLS + 8) });

try {
  const { address } = await call(snap, 'l2_createAccount', { addressIndex: 0 });
  const results = [];
  results.push(
    await measure(snap, 'l2_signMessage', () => ({
      typedDataMessage: TYPED_DATA,
      signerAddress: address,
    })),
  );
  results.push(
    await measure(snap, 'l2_signTransaction', (index) => ({
      address,
      chainId: TESTNET,
      transactions: [
        { contractAddress: STRK, entrypoint: 'transfer', calldata: [address, String(index), '0'] },
      ],
      transactionsDetail: { nonce: index, resourceBounds: BOUNDS },
    })),
  );
  // A fresh account per call (default index): state grows by one record each time.
  results.push(await measure(snap, 'l2_createAccount', () => ({ deploy: false })));

  const kb = (bytes) => (bytes / 1024).toFixed(1);
  console.log(`machine: ${machine()}, Node ${process.version}`);
  console.log('');
  console.log('| metric | value | target |');
  console.log('|---|---|---|');
  console.log(
    `| bundle.js (minified) | ${kb(raw)} KB (${raw} B) | <= ${TARGET_BUNDLE_KB} KB ${raw <= TARGET_BUNDLE_KB * 1024 ? 'ok' : 'MISSED'} |`,
  );
  console.log(`| bundle.js gzipped | ${kb(gzipped)} KB (${gzipped} B) | |`);
  console.log(
    `| floor: starknet.js alone, same build (minified) | ${kb(floor.length)} KB (${floor.length} B) | the snap adds ${kb(raw - floor.length)} KB |`,
  );
  for (const { method, p50, p95, calls } of results) {
    const target =
      method === 'l2_signMessage'
        ? `p50 <= ${TARGET_SIGN_MESSAGE_P50_MS} ms ${p50 <= TARGET_SIGN_MESSAGE_P50_MS ? 'ok' : 'MISSED'}`
        : '';
    console.log(
      `| ${method} p50 / p95 (${calls} calls) | ${p50.toFixed(1)} / ${p95.toFixed(1)} ms | ${target} |`,
    );
  }
} finally {
  await snap.executionService.terminateAllSnaps?.();
  await server.close();
}
process.exit(0);
