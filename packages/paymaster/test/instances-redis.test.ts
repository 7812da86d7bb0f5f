/**
 * Two paymasters (two relayers, two processes) on one redis-server: they take turns on an
 * account, share a sponsor key's daily budget, read each other's tracking ids (also after a
 * restart), wait out the lease of a paymaster killed holding an account, and count rate limits
 * together.
 */
import {
  postJson,
  serveHttp,
  type PaymasterProcess,
  type RedisService,
  rpcResponse,
  startPaymaster,
  startRedis,
} from '@l2wallet/testkit';
import Redis from 'ioredis';
import { Account, PaymasterRpc } from 'starknet';

import {
  balanceOf,
  GAS_TOKENS,
  newArgentUser,
  type PredeployedAccount,
  receiptOf,
  SPONSOR_KEY,
  type Stack,
  startStack,
  STRK_TOKEN,
  transfer,
  signedBuild,
} from './helpers';

let stack: Stack;
let redis: RedisService;
let client: Redis;
const running: PaymasterProcess[] = [];
let a: PaymasterProcess;
let b: PaymasterProcess;
let budgetFri: bigint;

const SPONSORED = { mode: 'sponsored' as const };
const STRK_MODE = { feeMode: { mode: 'default' as const, gasToken: STRK_TOKEN } };
const approve = (spender: string, amount: bigint) => ({
  contractAddress: STRK_TOKEN,
  entrypoint: 'approve',
  calldata: [spender, `0x${amount.toString(16)}`, '0x0'],
});
const strk = (fri: bigint) =>
  `${fri / 10n ** 18n}.${(fri % 10n ** 18n).toString().padStart(18, '0')}`;

async function start(relayer: PredeployedAccount, args: string[] = [], rateLimit?: number) {
  const paymaster = await startPaymaster({
    nodeUrl: stack.devnet.rpcUrl,
    relayer: { address: relayer.address, privateKey: relayer.private_key },
    gasTokens: GAS_TOKENS,
    apiKeys: [SPONSOR_KEY],
    redisUrl: redis.url,
    rateLimit,
    args: ['--sponsor-budget', strk(budgetFri), '--turn-lease', '20000', ...args],
  });
  running.push(paymaster);
  return paymaster;
}

/** `user` (its key) as a starknet.js Account on the paymaster at `url`. */
const on = (url: string, address: string, privateKey: string, apiKey?: string) =>
  new Account({
    provider: stack.provider,
    address,
    signer: privateKey,
    cairoVersion: '1',
    paymaster: new PaymasterRpc({
      nodeUrl: url,
      headers: apiKey === undefined ? {} : { 'x-paymaster-api-key': apiKey },
    }),
  });

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  // The stack's own paymaster only tells what one sponsored deploy_and_invoke may cost (its
  // budget of 1 FRI refuses it, naming the maximum fee); the two under test run on Redis.
  stack = await startStack({
    accounts: 6,
    devnet: { blockTime: 1000, preconfirmDelayMs: 250 },
    paymaster: { args: ['--sponsor-budget', '0.000000000000000001'] },
  });
  const probe = newArgentUser(stack, SPONSOR_KEY);
  const refused = await probe.account
    .executePaymasterTransaction([approve('0x5ea1ed', 1n)], {
      feeMode: SPONSORED,
      deploymentData: probe.deploymentData,
    })
    .then(
      () => undefined,
      (error: Error) => error.message,
    );
  const maxFee = /maximum fee \((\d+) FRI\)/.exec(refused ?? '')?.[1];
  if (!maxFee) throw new Error(`the probe was not refused for its budget: ${refused}`);
  // Room for two such executions, not three.
  budgetFri = (BigInt(maxFee) * 5n) / 2n;
  a = await start(stack.accounts[2]);
  b = await start(stack.accounts[3]);
});

afterAll(async () => {
  await Promise.all(running.map((paymaster) => paymaster.stop()));
  client?.disconnect();
  await stack?.stop();
  await redis?.stop();
});

let trackingId: string;

it('runs one of three executions of one account sent to both at once; no revert paid for', async () => {
  const user = newArgentUser(stack);
  await stack.devnet.devnet.mint(BigInt(user.address), 10n ** 17n, 'FRI');
  const onA = on(a.url, user.address, user.privateKey);
  const onB = on(b.url, user.address, user.privateKey);
  const deployed = await onA.executePaymasterTransaction([transfer(STRK_TOKEN, '0x5ea1', 1n)], {
    ...STRK_MODE,
    deploymentData: user.deploymentData,
  });
  await receiptOf(stack, deployed.transaction_hash);
  const half = (await balanceOf(stack, user.address, STRK_TOKEN)) / 2n + 1n;
  const requests = [];
  for (const [i, account] of [onA, onB, onA].entries()) {
    requests.push({
      account,
      ...(await signedBuild(account, [transfer(STRK_TOKEN, `0x5ea1${i}`, half)], STRK_MODE)),
    });
  }
  const relayers = [stack.accounts[2].address, stack.accounts[3].address];
  const before = await Promise.all(relayers.map((r) => balanceOf(stack, r, STRK_TOKEN)));
  const outcomes = await Promise.allSettled(
    requests.map(({ account, transaction, parameters }) =>
      account.paymaster.executeTransaction(transaction, parameters),
    ),
  );
  const sent = outcomes.filter((o) => o.status === 'fulfilled');
  expect(sent).toHaveLength(1);
  const { transaction_hash: hash, tracking_id: id } = (
    sent[0] as PromiseFulfilledResult<{ transaction_hash: string; tracking_id: string }>
  ).value;
  trackingId = id;
  expect((await receiptOf(stack, hash)).isSuccess()).toBe(true);
  const after = await Promise.all(relayers.map((r) => balanceOf(stack, r, STRK_TOKEN)));
  expect(after[0]).toBeGreaterThanOrEqual(before[0]);
  expect(after[1]).toBeGreaterThanOrEqual(before[1]);
});

it('keeps tracking ids across a restart, readable from the other paymaster', async () => {
  const asked = (url: string) =>
    rpcResponse<{ transaction_hash: string }>(url, 'paymaster_trackingIdToLatestHash', {
      tracking_id: trackingId,
    });
  const fromA = (await asked(a.url)).result?.transaction_hash;
  expect(fromA).toMatch(/^0x/);
  expect((await asked(b.url)).result?.transaction_hash).toBe(fromA);
  await b.stop();
  b = await start(stack.accounts[3]);
  expect((await asked(b.url)).result?.transaction_hash).toBe(fromA);
});

it("never spends more than a sponsor key's daily budget shared by both", async () => {
  const users = Array.from({ length: 6 }, () => newArgentUser(stack, SPONSOR_KEY));
  const relayers = [stack.accounts[2].address, stack.accounts[3].address];
  const before = await Promise.all(relayers.map((r) => balanceOf(stack, r, STRK_TOKEN)));
  const outcomes = await Promise.allSettled(
    users.map((user, i) =>
      on(i % 2 ? b.url : a.url, user.address, user.privateKey, SPONSOR_KEY)
        .executePaymasterTransaction([approve('0x5ea1ed', 1n)], {
          feeMode: SPONSORED,
          deploymentData: user.deploymentData,
        })
        .then(async (sent) => receiptOf(stack, sent.transaction_hash)),
    ),
  );
  const ran = outcomes.filter((o) => o.status === 'fulfilled').length;
  const refused = outcomes.filter(
    (o) => o.status === 'rejected' && /daily budget/.test(String(o.reason)),
  ).length;
  expect(ran).toBeGreaterThanOrEqual(1);
  expect(ran + refused).toBe(6);
  expect(refused).toBeGreaterThanOrEqual(1);
  const after = await Promise.all(relayers.map((r) => balanceOf(stack, r, STRK_TOKEN)));
  const spent = before[0] - after[0] + (before[1] - after[1]);
  expect(spent).toBeGreaterThan(0n);
  expect(spent).toBeLessThanOrEqual(budgetFri);
  // What Redis holds as spent (settled to the receipts' fees) is within the budget too.
  const [key] = await client.keys('l2-paymaster:sponsor:*');
  expect(BigInt((await client.get(key)) ?? '0')).toBeLessThanOrEqual(budgetFri);
});

it("waits out the lease of a paymaster killed holding an account's turn", async () => {
  // The killed paymaster's node never shows a receipt, so it holds the turn until it dies.
  const blind = await serveHttp(async (_request, response, body) => {
    const reply = body.includes('starknet_getTransactionReceipt')
      ? JSON.stringify({
          jsonrpc: '2.0',
          id: JSON.parse(body).id,
          error: { code: 29, message: 'Transaction hash not found' },
        })
      : (await postJson(stack.devnet.rpcUrl, body)).text;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(reply);
  });
  const doomed = await startPaymaster({
    nodeUrl: blind.url,
    relayer: { address: stack.accounts[4].address, privateKey: stack.accounts[4].private_key },
    gasTokens: GAS_TOKENS,
    redisUrl: redis.url,
    args: ['--turn-lease', '4000'],
  });
  running.push(doomed);
  try {
    const user = newArgentUser(stack);
    await stack.devnet.devnet.mint(BigInt(user.address), 10n ** 17n, 'FRI');
    const first = await on(doomed.url, user.address, user.privateKey).executePaymasterTransaction(
      [transfer(STRK_TOKEN, '0x5ea1', 1n)],
      { ...STRK_MODE, deploymentData: user.deploymentData },
    );
    const turn = `l2-paymaster:turn:0x${BigInt(user.address).toString(16)}`;
    expect(await client.get(turn)).toBeTruthy();
    doomed.killNow();
    await doomed.waitForExit();
    // The lease is timed from when its remaining time is read: waiting for the first receipt
    // below already spends part of it.
    const started = Date.now();
    const left = await client.pttl(turn);
    expect(left).toBeGreaterThan(0);
    await receiptOf(stack, first.transaction_hash);
    const second = await on(a.url, user.address, user.privateKey).executePaymasterTransaction(
      [transfer(STRK_TOKEN, '0x5ea2', 1n)],
      STRK_MODE,
    );
    // It waited for the dead paymaster's lease to run out, then ran.
    expect(Date.now() - started).toBeGreaterThanOrEqual(left - 300);
    expect((await receiptOf(stack, second.transaction_hash)).isSuccess()).toBe(true);
  } finally {
    await blind.close();
  }
});

it('counts rate limits of a client across both paymasters', async () => {
  // Two more on their own keys (a prefix), 8 a minute: a burst of 2 for 127.0.0.1.
  const args = ['--redis-prefix', 'rate-test:'];
  const [c, d] = [await start(stack.accounts[2], args, 8), await start(stack.accounts[3], args, 8)];
  const build = (url: string) =>
    rpcResponse(url, 'paymaster_buildTransaction', {
      transaction: {
        type: 'invoke',
        invoke: {
          user_address: '0x5ea1',
          calls: [{ to: STRK_TOKEN, selector: '0x1', calldata: [] }],
        },
      },
      parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
    }).then((reply) => {
      if (reply.error?.code === -32602) throw new Error(reply.error.message);
      return reply;
    });
  const codes = [];
  for (const url of [c.url, d.url, c.url, d.url]) codes.push((await build(url)).error?.code);
  expect(codes.slice(0, 2)).not.toContain(-32005);
  expect(codes.slice(2)).toEqual([-32005, -32005]);
});
