#!/usr/bin/env node
// Keyring snap benchmark: bundle size, latency of each signing method through keyring_submitRequest
// in @metamask/snaps-simulation outside jest (origin metamask), and the RPC round trips of
// eth_prepareUserOperation for an empty account against a real anvil + EntryPoint v0.6 + Alto on
// loopback, unsponsored and sponsored by the ERC-7677 paymaster service (counted by pass-through
// proxies in front of the node, the bundler and the paymaster). The installed snap is the
// loopback-only test build (packages/keyring-snap/test/harness/build-test-snap.cjs); the size is
// that of packages/keyring-snap/dist/bundle.js (npm run build -w packages/keyring-snap).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import {
  ANVIL_CHAIN_ID,
  startAccountAbstractionStack,
  startCountingProxy,
} from '@l2wallet/testkit';

import {
  buildIfMissing,
  installServedSnap,
  ROOT,
  serveSnapFolder,
} from '../lib/snapSimulation.mjs';
import { latency, machine } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const { ensureTestSnap } = require('../../packages/keyring-snap/test/harness/build-test-snap.cjs');

const SNAP_DIR = join(ROOT, 'packages', 'keyring-snap');
const BUNDLE = join(SNAP_DIR, 'dist', 'bundle.js');
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const WARMUP = 10;
const SITE = 'http://localhost:8000';
const SCOPE = `eip155:${ANVIL_CHAIN_ID}`;
const TARGET_SIGN_MS = 15;
const TARGET_PREPARE_ROUND_TRIPS = 2;

await buildIfMissing(BUNDLE, 'packages/keyring-snap');
const bundle = readFileSync(BUNDLE);
const testSnapDir = ensureTestSnap();

async function keyring(snap, method, params, origin = 'metamask') {
  const { response } = await snap.onKeyringRequest({ origin, method, params });
  if (response.error) {
    throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  }
  return response.result;
}

async function submit(snap, account, method, params) {
  const answer = await keyring(snap, 'keyring_submitRequest', {
    id: randomUUID(),
    scope: SCOPE,
    account: account.id,
    origin: 'https://dapp.example',
    request: { method, params },
  });
  return answer.result;
}

const stack = await startAccountAbstractionStack();
const stops = [() => stack.stop()];
try {
  const { contracts, alto, anvilUrl } = stack;
  const nodeProxy = await startCountingProxy(anvilUrl);
  const bundlerProxy = await startCountingProxy(alto.url);
  const paymasterProxy = await startCountingProxy(stack.paymaster.url);
  stops.push(
    () => nodeProxy.stop(),
    () => bundlerProxy.stop(),
    () => paymasterProxy.stop(),
  );

  const server = await serveSnapFolder(testSnapDir);
  stops.push(() => server.close());
  const snap = await installServedSnap(server);
  stops.push(() => snap.executionService.terminateAllSnaps?.());

  const setChain = async (paymasterUrl) => {
    const configured = snap.request({
      origin: SITE,
      method: 'keyring_setChainConfig',
      params: {
        chainId: String(ANVIL_CHAIN_ID),
        rpcUrl: nodeProxy.url,
        bundlerUrl: bundlerProxy.url,
        entryPoint: contracts.entryPoint,
        factory: contracts.factory,
        paymasterUrl,
      },
    });
    await (await configured.getInterface()).ok();
    const { response } = await configured;
    if (response.error) throw new Error(JSON.stringify(response.error));
  };
  await setChain(null);

  const eoa = await keyring(snap, 'keyring_createAccount', { options: { type: 'eip155:eoa' } });
  const smart = await keyring(snap, 'keyring_createAccount', {
    options: { type: 'eip155:erc4337' },
  });

  const message = `0x${Buffer.from('bench message').toString('hex')}`;
  const typedData = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Item: [
        { name: 'id', type: 'uint256' },
        { name: 'tags', type: 'string[]' },
      ],
      Order: [
        { name: 'owner', type: 'address' },
        { name: 'items', type: 'Item[]' },
      ],
    },
    primaryType: 'Order',
    domain: { name: 'Bench', chainId: ANVIL_CHAIN_ID },
    message: {
      owner: eoa.address,
      items: [
        { id: '1', tags: ['a', 'b'] },
        { id: '2', tags: ['c'] },
      ],
    },
  };
  const transaction = (nonce) => ({
    type: '0x2',
    nonce: `0x${nonce.toString(16)}`,
    to: '0x000000000000000000000000000000000000bEEF',
    value: '0x1',
    data: '0x',
    gasLimit: '0x5208',
    maxFeePerGas: '0x77359400',
    maxPriorityFeePerGas: '0x3b9aca00',
    chainId: '0x7a69',
  });

  // The account holds no ETH: prepare estimates with zero gas prices (no prefund needed).
  nodeProxy.reset();
  bundlerProxy.reset();
  const details = await submit(snap, smart, 'eth_prepareUserOperation', [
    { to: '0x000000000000000000000000000000000000bEEF', value: '0x1', data: '0x' },
  ]);
  const nodeRequests = nodeProxy.requests();
  const bundlerRequests = bundlerProxy.requests();
  if (!details.gasLimits) throw new Error('prepare of an empty account returned no gasLimits');
  const userOperation = (nonce) => ({
    sender: smart.address,
    nonce: `0x${nonce.toString(16)}`,
    initCode: details.initCode,
    callData: details.callData,
    ...details.gasLimits,
    maxFeePerGas: '0x77359400',
    maxPriorityFeePerGas: '0x3b9aca00',
    paymasterAndData: '0x',
    signature: details.dummySignature,
  });

  const runs = [
    ['personal_sign', eoa, () => [message, eoa.address]],
    ['eth_signTransaction', eoa, (index) => [transaction(index)]],
    ['eth_signTypedData_v4', eoa, () => [eoa.address, typedData]],
    // As MetaMask's bridge sends it: [userOp], the entry point is the scope chain's.
    ['eth_signUserOperation', smart, (index) => [userOperation(index)]],
  ];
  const results = [];
  for (const [method, account, makeParams] of runs) {
    const times = await latency(makeParams, (params) => submit(snap, account, method, params), {
      warmup: WARMUP,
      calls: CALLS,
    });
    results.push({ method, ...times });
  }
  const prepareTimes = await latency(
    () => [{ to: '0x000000000000000000000000000000000000bEEF', value: '0x1', data: '0x' }],
    (params) => submit(snap, smart, 'eth_prepareUserOperation', params),
    { warmup: 3, calls: 30 },
  );

  // Sponsored: the paymaster's stub comes before the estimate (which carries it).
  await setChain(paymasterProxy.url);
  nodeProxy.reset();
  bundlerProxy.reset();
  paymasterProxy.reset();
  const sponsored = await submit(snap, smart, 'eth_prepareUserOperation', [
    { to: '0x000000000000000000000000000000000000bEEF', value: '0x0', data: '0x' },
  ]);
  if (!sponsored.gasLimits) throw new Error('sponsored prepare returned no gasLimits');
  const sponsoredTrips = [nodeProxy, paymasterProxy, bundlerProxy].map((proxy) => proxy.requests());
  const list = (requests) => requests.map((r) => `[${r.join(', ')}]`).join(' ');

  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const gzipped = gzipSync(bundle, { level: 9 }).length;
  const roundTrips = nodeRequests.length + bundlerRequests.length;
  console.log(`machine: ${machine()}, Node ${process.version}`);
  console.log('');
  console.log('| metric | value | target |');
  console.log('|---|---|---|');
  console.log(`| bundle.js (minified) | ${kb(bundle.length)} KB (${bundle.length} B) | |`);
  console.log(`| bundle.js gzipped | ${kb(gzipped)} KB (${gzipped} B) | |`);
  for (const { method, p50, p95 } of results) {
    const ok = p50 <= TARGET_SIGN_MS && p95 <= TARGET_SIGN_MS ? 'ok' : 'MISSED';
    console.log(
      `| ${method} p50 / p95 (${CALLS} calls) | ${p50.toFixed(1)} / ${p95.toFixed(1)} ms | p50, p95 <= ${TARGET_SIGN_MS} ms ${ok} |`,
    );
  }
  console.log(
    `| eth_prepareUserOperation p50 / p95 (30 calls, anvil + Alto) | ${prepareTimes.p50.toFixed(1)} / ${prepareTimes.p95.toFixed(1)} ms | |`,
  );
  console.log(
    `| eth_prepareUserOperation RPC round trips, empty account | ${roundTrips} (node: ${list(nodeRequests)}; bundler: ${list(bundlerRequests)}) | <= ${TARGET_PREPARE_ROUND_TRIPS} ${roundTrips <= TARGET_PREPARE_ROUND_TRIPS ? 'ok' : 'MISSED'} |`,
  );
  console.log(
    `| eth_prepareUserOperation RPC round trips, sponsored | ${sponsoredTrips.flat().length} (node: ${list(sponsoredTrips[0])}; paymaster: ${list(sponsoredTrips[1])}; bundler: ${list(sponsoredTrips[2])}) | stub before estimate |`,
  );
} finally {
  for (const stop of stops.reverse()) {
    await stop();
  }
}
process.exit(0);
