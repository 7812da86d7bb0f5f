#!/usr/bin/env node
// Sponsored through WalletAccount (docs/interface/paymaster.md): a dapp's first transaction for a
// brand-new account with 0 STRK, deploy + invoke in one, through starknet.js 10.8's WalletAccount
// on the snap: wallet_deploymentData, then executePaymasterTransaction({ feeMode: sponsored,
// deploymentData }) (paymaster_buildTransaction, the snap's outside-execution dialog approved at
// once, paymaster_executeTransaction), then the receipt. The parts are real and on loopback: the
// snap bundle in @metamask/snaps-simulation (the testkit's SimulatedFlask), packages/devnet in this
// process, the l2-paymaster CLI (built dist) with a sponsor key.
//
// Round trips are counted by pass-through proxies (the testkit's startCountingProxy) on each hop:
// dapp -> paymaster, dapp -> node, paymaster -> node, snap -> node; dapp -> wallet is the
// wallet_invokeSnap requests the simulated MetaMask answered. Each account is new (connected,
// untimed, before its run); BENCH_RUNS accounts (default 10).
import { performance } from 'node:perf_hooks';

import { createStarknetWindowObject, StarknetSnapClient } from '@l2wallet/client';
import {
  serveSnap,
  SimulatedFlask,
  snapVariant,
  startCountingProxy,
  startDevnet,
  startDevnetPaymaster,
  starknetSnapBuild,
  STRK_TOKEN,
} from '@l2wallet/testkit';
import {
  CallData,
  config,
  PaymasterRpc,
  RpcProvider,
  WalletAccount,
  wallet as walletApi,
} from 'starknet';

import { machine, percentile } from '../lib/stats.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const ORIGIN = 'https://sponsoring-dapp.example';
const SPONSOR_KEY = 'bench-sponsor-key';
const SPONSORED = { mode: 'sponsored' };

config.set('logLevel', 'ERROR');

const approve = (spender, amount) => ({
  contractAddress: STRK_TOKEN,
  entrypoint: 'approve',
  calldata: CallData.compile({ spender, amount: { low: amount, high: 0n } }),
});

const stops = [];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
};

try {
  const devnet = await startDevnet({ seed: 0, accounts: 1 });
  stops.push(() => devnet.close());
  // One counting proxy per hop, each in front of the devnet's root (its /rpc and explorer).
  const hop = async () => {
    const proxy = await startCountingProxy(devnet.url);
    stops.push(() => proxy.stop());
    return proxy;
  };
  const [dappNode, snapNode, paymasterNode] = [await hop(), await hop(), await hop()];

  const paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
    nodeUrl: `${paymasterNode.url}/rpc`,
    apiKeys: [SPONSOR_KEY],
  });
  stops.push(() => paymaster.stop());
  const dappPaymaster = await startCountingProxy(paymaster.url);
  stops.push(() => dappPaymaster.stop());

  const folder = await snapVariant(
    starknetSnapBuild({ rpcUrl: `${snapNode.url}/rpc`, explorerUrl: snapNode.url }),
  );
  const served = await serveSnap(folder);
  stops.push(() => served.close());
  const flask = new SimulatedFlask(served.url, folder);
  stops.push(() => flask.close());
  // The snap methods the dapp's wallet object invoked (wallet_invokeSnap), in order.
  const snapMethods = [];
  const client = new StarknetSnapClient({
    snapId: flask.snapId,
    provider: {
      async request({ method, params }) {
        if (method === 'wallet_invokeSnap') snapMethods.push(params.request.method);
        const reply = await flask.handle(method, params, ORIGIN);
        if (reply.error) throw reply.error;
        return reply.result;
      },
    },
  });
  const provider = new RpcProvider({ nodeUrl: `${dappNode.url}/rpc` });
  const paymasterRpc = new PaymasterRpc({
    nodeUrl: dappPaymaster.url,
    headers: { 'x-paymaster-api-key': SPONSOR_KEY },
  });

  const proxies = { dappPaymaster, dappNode, paymasterNode, snapNode };
  const rows = { deployment: [], execute: [], receipt: [] };
  const trips = [];
  let methods;

  for (let run = 0; run < RUNS; run += 1) {
    // A new account of the snap for this dapp (its grant dialog approved), not yet on chain.
    const wallet = createStarknetWindowObject(client, { accountIndex: run });
    const account = await WalletAccount.connect(provider, wallet, undefined, paymasterRpc);
    for (const proxy of Object.values(proxies)) proxy.reset();
    const walletBefore = snapMethods.length;
    const dialogsBefore = flask.dialogs.length;

    const start = performance.now();
    const deploymentData = await walletApi.deploymentData(wallet);
    const deployed = performance.now();
    const { transaction_hash } = await account.executePaymasterTransaction(
      [approve('0x5ea1ed', BigInt(run + 1))],
      { feeMode: SPONSORED, deploymentData },
    );
    const sent = performance.now();
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
    const done = performance.now();
    if (!receipt.isSuccess()) throw new Error(`run ${run}: the transaction did not succeed`);
    if (flask.dialogs.length !== dialogsBefore + 1)
      throw new Error(
        `run ${run}: expected one dialog, saw ${flask.dialogs.length - dialogsBefore}`,
      );

    rows.deployment.push(deployed - start);
    rows.execute.push(sent - deployed);
    rows.receipt.push(done - start);
    trips.push({
      wallet: snapMethods.length - walletBefore,
      ...Object.fromEntries(
        Object.entries(proxies).map(([name, proxy]) => [name, proxy.requests().length]),
      ),
    });
    methods ??= {
      wallet: snapMethods.slice(walletBefore),
      ...Object.fromEntries(
        Object.entries(proxies).map(([name, proxy]) => [
          name,
          proxy.requests().map((batch) => batch.join(' + ')),
        ]),
      ),
    };
  }

  const ms = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${percentile(sorted, 50).toFixed(0)} / ${percentile(sorted, 95).toFixed(0)}`;
  };
  const range = (name) => {
    const counts = trips.map((trip) => trip[name]);
    const [low, high] = [Math.min(...counts), Math.max(...counts)];
    return low === high ? String(low) : `${low}-${high}`;
  };

  console.log(
    `Machine: ${machine()}, Node ${process.version}, ${RUNS} new accounts, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n`,
  );
  console.log('| step (one new account, 0 STRK) | p50 / p95 ms |');
  console.log('| --- | --- |');
  console.log(`| wallet_deploymentData | ${ms(rows.deployment)} |`);
  console.log(
    `| executePaymasterTransaction (build, dialog approved at once, execute) | ${ms(rows.execute)} |`,
  );
  console.log(`| whole first transaction, to its receipt | ${ms(rows.receipt)} |`);
  console.log("\n| round trips per first transaction | count | first run's calls |");
  console.log('| --- | --- | --- |');
  const hops = [
    ['dapp -> wallet (wallet_invokeSnap)', 'wallet'],
    ['dapp -> paymaster', 'dappPaymaster'],
    ['dapp -> node', 'dappNode'],
    ['paymaster -> node', 'paymasterNode'],
    ['snap -> node', 'snapNode'],
  ];
  for (const [label, name] of hops) {
    const calls = methods[name].length > 0 ? methods[name].join(', ') : '(none)';
    console.log(`| ${label} | ${range(name)} | ${calls} |`);
  }
} finally {
  await stopAll();
}
