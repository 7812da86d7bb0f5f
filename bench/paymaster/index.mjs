#!/usr/bin/env node
// Throughput of the SNIP-29 paymaster (packages/paymaster, built dist, the l2-paymaster CLI) in
// front of the devnet (its own process, the l2-devnet CLI): builds and executes per second with 8
// concurrent users (the devnet's OpenZeppelin accounts, SNIP-9 v2), fees paid in ETH. Users are
// starknet.js's own PaymasterRpc and Account. Every execute must succeed, with no nonce error:
// the relayer's nonce moves by exactly the number of executes and every receipt succeeds. Then
// one account's executes sent at once (serialised per account), and the money attacks in bulk
// (attacks.mjs): the relayer's STRK before and after.
// Build first: npm run build -w packages/devnet -w packages/paymaster (bench/run.mjs does).
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ETH_TOKEN, rpc, spawnService, startDevnetPaymaster } from '@l2wallet/testkit';
import { Account, CallData, config, PaymasterRpc, RpcProvider, stark, uint256 } from 'starknet';

import { machine, percentile, processCpuSeconds } from '../lib/stats.mjs';
import { printAttacks, runAttacks } from './attacks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const devnetCli = join(here, '../../packages/devnet/dist/cli.js');

const USERS = 8;
const BUILDS_PER_USER = Number(process.env.BENCH_BUILDS_PER_USER ?? 40);
const EXECUTES_PER_USER = Number(process.env.BENCH_EXECUTES_PER_USER ?? 15);
const ONE_ACCOUNT_BURST = 8;
const RECIPIENT = '0xc0ffee';
const FEE_MODE = { mode: 'default', gasToken: ETH_TOKEN };

config.set('logLevel', 'ERROR');

const transferCall = (amount) => ({
  contractAddress: ETH_TOKEN,
  entrypoint: 'transfer',
  calldata: CallData.compile({ recipient: RECIPIENT, amount: uint256.bnToUint256(amount) }),
});

const ms = (value) => value.toFixed(1);
const perSecond = (count, startMs) => (count / ((performance.now() - startMs) / 1000)).toFixed(1);

/**
 * Runs `task(user, i)` for each user's `count` turns, the users side by side; returns latencies.
 */
async function concurrently(users, count, task) {
  const latencies = [];
  await Promise.all(
    users.map(async (user, u) => {
      for (let i = 0; i < count; i += 1) {
        const start = performance.now();
        await task(user, i, u);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

const devnet = await spawnService({
  name: 'l2-devnet',
  command: process.execPath,
  args: [devnetCli, '--port', '0', '--accounts', String(USERS + 1)],
  readyLine: /listening on http:\/\/\S+\s/,
});
let paymaster;
try {
  const nodeUrl = `${/listening on (http:\/\/\S+)/.exec(devnet.output())[1]}/rpc`;
  const predeployed = await rpc(nodeUrl, 'devnet_getPredeployedAccounts', {});
  // The relayer is the last of the USERS + 1 predeployed accounts; the users are the others.
  paymaster = await startDevnetPaymaster(nodeUrl, {
    gasTokens: [{ address: ETH_TOKEN, priceInStrk: '2500' }],
  });
  const { relayer } = paymaster;
  const provider = new RpcProvider({ nodeUrl });
  const users = predeployed.slice(0, USERS).map(
    (a) =>
      new Account({
        provider,
        address: a.address,
        signer: a.private_key,
        cairoVersion: '1',
        paymaster: new PaymasterRpc({ nodeUrl: paymaster.url }),
      }),
  );
  const relayerNonce = async () =>
    BigInt(await provider.getNonceForAddress(relayer.address, 'pre_confirmed'));

  // Warm-up: JIT, SNIP-9 version cache, keep-alive connections.
  await concurrently(users, 2, (user) =>
    user.executePaymasterTransaction([transferCall(1n)], { feeMode: FEE_MODE }),
  );

  const cpu = () => [processCpuSeconds(paymaster.pid), processCpuSeconds(devnet.pid)];
  /**
   * CPU per operation of each process since `before`: what the machine's other load does not
   * inflate.
   */
  const cpuPer = (before, count) =>
    cpu().map((seconds, i) => (1000 * (seconds - before[i])) / count);

  // 1. Builds: paymaster_buildTransaction (version check, node estimate, balance, typed data).
  let cpuBefore = cpu();
  let start = performance.now();
  const buildLatencies = await concurrently(users, BUILDS_PER_USER, (user) =>
    user.buildPaymasterTransaction([transferCall(1n)], { feeMode: FEE_MODE }),
  );
  const buildsPerSecond = perSecond(USERS * BUILDS_PER_USER, start);
  const [paymasterBuildCpu, devnetBuildCpu] = cpuPer(cpuBefore, USERS * BUILDS_PER_USER);

  // 2. Executes of pre-built, pre-signed requests: the paymaster's checks, signature, simulation
  // and the relayer's serialised submission, without the users' own signing in the time.
  const signed = await Promise.all(
    users.map(async (user) => {
      const requests = [];
      for (let i = 0; i < EXECUTES_PER_USER; i += 1) {
        const built = await user.buildPaymasterTransaction([transferCall(1n)], {
          feeMode: FEE_MODE,
        });
        const signature = stark.signatureToHexArray(await user.signMessage(built.typed_data));
        requests.push({
          transaction: {
            type: 'invoke',
            invoke: { userAddress: user.address, typedData: built.typed_data, signature },
          },
          parameters: built.parameters,
        });
      }
      return requests;
    }),
  );
  const nonceBefore = await relayerNonce();
  const hashes = [];
  cpuBefore = cpu();
  start = performance.now();
  const executeLatencies = await concurrently(users, EXECUTES_PER_USER, async (user, i, u) => {
    const { transaction, parameters } = signed[u][i];
    const { transaction_hash } = await user.paymaster.executeTransaction(transaction, parameters);
    hashes.push(transaction_hash);
  });
  const executesPerSecond = perSecond(USERS * EXECUTES_PER_USER, start);
  const [paymasterCpu, devnetCpu] = cpuPer(cpuBefore, USERS * EXECUTES_PER_USER);

  // 3. End to end, as a wallet does it: build, check, sign, execute (executePaymasterTransaction).
  start = performance.now();
  const flowLatencies = await concurrently(users, EXECUTES_PER_USER, async (user) => {
    const { transaction_hash } = await user.executePaymasterTransaction([transferCall(1n)], {
      feeMode: FEE_MODE,
    });
    hashes.push(transaction_hash);
  });
  const flowsPerSecond = perSecond(USERS * EXECUTES_PER_USER, start);

  // 4. One account, its pre-signed executes all sent at once: they run one after another (an
  // account's executions are serialised from simulation to receipt), at most 8 waiting (the
  // paymaster's queue per account; more are -32005).
  const one = users[0];
  const oneRequests = [];
  for (let i = 0; i < ONE_ACCOUNT_BURST; i += 1) {
    const built = await one.buildPaymasterTransaction([transferCall(1n)], { feeMode: FEE_MODE });
    const signature = stark.signatureToHexArray(await one.signMessage(built.typed_data));
    oneRequests.push({
      transaction: {
        type: 'invoke',
        invoke: { userAddress: one.address, typedData: built.typed_data, signature },
      },
      parameters: built.parameters,
    });
  }
  start = performance.now();
  const oneHashes = await Promise.all(
    oneRequests.map(async ({ transaction, parameters }) => {
      const answer = await one.paymaster.executeTransaction(transaction, parameters);
      return answer.transaction_hash;
    }),
  );
  const oneAccountPerSecond = perSecond(ONE_ACCOUNT_BURST, start);
  hashes.push(...oneHashes);

  // No nonce error, nothing lost: every execute landed, once, in order.
  const executes = 2 * USERS * EXECUTES_PER_USER + ONE_ACCOUNT_BURST;
  if (new Set(hashes).size !== executes)
    throw new Error(`${new Set(hashes).size} distinct hashes of ${executes} executes`);
  if ((await relayerNonce()) - nonceBefore !== BigInt(executes)) {
    throw new Error(
      `the relayer's nonce moved by ${(await relayerNonce()) - nonceBefore}, not ${executes}`,
    );
  }
  for (const hash of hashes) {
    const receipt = await provider.waitForTransaction(hash, { retryInterval: 100 });
    if (!receipt.isSuccess()) throw new Error(`transaction ${hash} did not succeed`);
  }

  const p = (sorted) => `${ms(percentile(sorted, 50))} / ${ms(percentile(sorted, 95))}`;
  const rows = [
    [`paymaster_buildTransaction/s, ${USERS} users at once`, buildsPerSecond],
    ['paymaster_buildTransaction p50 / p95 (ms)', p(buildLatencies)],
    ['CPU per build (ms): paymaster / devnet', `${ms(paymasterBuildCpu)} / ${ms(devnetBuildCpu)}`],
    [`paymaster_executeTransaction/s (pre-signed), ${USERS} users at once`, executesPerSecond],
    ['paymaster_executeTransaction p50 / p95 (ms)', p(executeLatencies)],
    ['CPU per execute (ms): paymaster / devnet', `${ms(paymasterCpu)} / ${ms(devnetCpu)}`],
    [`executePaymasterTransaction/s (build, sign, execute), ${USERS} users`, flowsPerSecond],
    ['executePaymasterTransaction p50 / p95 (ms)', p(flowLatencies)],
    [
      `paymaster_executeTransaction/s, one account, ${ONE_ACCOUNT_BURST} sent at once (serialised)`,
      oneAccountPerSecond,
    ],
    ['nonce errors / failed receipts', `0 / 0 of ${executes}`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(
    `Node ${process.version}, ${machine()}, load average ${loadavg()[0].toFixed(1)} at the end; devnet and paymaster each their own process, a block per transaction`,
  );
  console.log(
    `${USERS} users: ${BUILDS_PER_USER} builds, ${EXECUTES_PER_USER} pre-signed executes and ${EXECUTES_PER_USER} full flows each; fees in ETH; every execute checked on chain\n`,
  );
  console.log(`| ${'metric'.padEnd(width)} | value |`);
  console.log(`| ${'-'.repeat(width)} | ----- |`);
  for (const [name, value] of rows) console.log(`| ${name.padEnd(width)} | ${value} |`);
} finally {
  await paymaster?.stop();
  await devnet.stop();
}

// The money attacks, in bulk: the relayer's STRK before and after each.
const attacks = await runAttacks({ rounds: Number(process.env.BENCH_ATTACK_ROUNDS ?? 10) });
printAttacks(attacks);
