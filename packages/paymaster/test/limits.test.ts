/**
 * Bounded work and spending for strangers, from their side: a relayer below its floor relays
 * nothing (and /health, /metrics say so); a sponsor key's daily budget stops a key that spends
 * it; a client flooding builds is limited (-32005, HTTP 429) while another is still served; calls,
 * calldata and builds per account are capped; tracking ids survive a restart.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { postJson, startDevnetPaymaster } from '@l2wallet/testkit';
import { hash, stark } from 'starknet';

import {
  balanceOf,
  GAS_TOKENS,
  paymasterClient,
  predeployedUser,
  receiptOf,
  SPONSOR_KEY,
  type Stack,
  startStack,
  STRK_TOKEN,
} from './helpers';

const TRANSFER = hash.getSelectorFromName('transfer');
const SPONSORED = { mode: 'sponsored' as const };

/** A raw build request for `user` (STRK in default mode unless told). */
function buildBody(user: string, calls: unknown[], feeMode: object = STRK_MODE) {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'paymaster_buildTransaction',
    params: {
      transaction: { type: 'invoke', invoke: { user_address: user, calls } },
      parameters: { version: '0x1', fee_mode: feeMode },
    },
  };
}
const STRK_MODE = { mode: 'default', gas_token: STRK_TOKEN };
const oneTransfer = (amount = 1) => ({
  to: STRK_TOKEN,
  selector: TRANSFER,
  calldata: ['0x5ea1', `0x${amount.toString(16)}`, '0x0'],
});

/** POST from a given loopback address (127.0.0.2 is another client than 127.0.0.1). */
function postFrom(
  localAddress: string,
  url: string,
  body: unknown,
): Promise<{
  status: number;
  json: { error?: { code: number; message: string; data?: unknown } };
}> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            json: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** What a transaction cost its sender, in FRI, once it is in a block. */
async function actualFee(stack: Stack, transactionHash: string): Promise<bigint> {
  const receipt = (await receiptOf(stack, transactionHash)) as unknown as {
    actual_fee: { amount: string };
  };
  return BigInt(receipt.actual_fee.amount);
}

async function relayerMoney(stack: Stack) {
  return {
    strk: await balanceOf(stack, stack.relayer.address),
    nonce: BigInt(await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed')),
  };
}

describe('a relayer below its floor', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The relayer holds 1000 STRK; its floor is 2000.
    stack = await startStack({ paymaster: { args: ['--min-balance', '2000'] } });
  });
  afterAll(() => stack?.stop());

  it('refuses to build or execute, and /health and /metrics say why', async () => {
    const before = await relayerMoney(stack);
    const user = predeployedUser(stack, 0, SPONSOR_KEY);
    const reply = await postJson(stack.paymaster.url, buildBody(user.address, [oneTransfer()]));
    expect(reply.json.error?.code).toBe(163);
    expect(reply.json.error?.data).toMatch(/below its floor/);
    await expect(
      user.executePaymasterTransaction(
        [{ contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['0x5ea1', 1, 0] }],
        { feeMode: SPONSORED },
      ),
    ).rejects.toThrow(/below its floor/);
    const health = await fetch(`${stack.paymaster.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: 'relayer-below-floor',
      relayer: { floor: (2000n * 10n ** 18n).toString() },
    });
    const metrics = await (await fetch(`${stack.paymaster.url}/metrics`)).text();
    expect(metrics).toContain('paymaster_relayer_below_floor 1');
    expect(metrics).toMatch(
      /paymaster_refusals_total\{method="paymaster_buildTransaction",code="163",reason="below-floor"\} 2/,
    );
    expect(await relayerMoney(stack)).toEqual(before);
  });
});

describe("a sponsor key's daily budget", () => {
  let stack: Stack;
  let second: Awaited<ReturnType<typeof startDevnetPaymaster>> | undefined;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  it('stops a key once what it spent today would pass the budget; the refused one costs nothing', async () => {
    const transfer = [
      { contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['0x5ea1', 1, 0] },
    ];
    // What one sponsored transfer costs the relayer, on the first paymaster.
    const probe = await predeployedUser(stack, 0, SPONSOR_KEY).executePaymasterTransaction(
      transfer,
      { feeMode: SPONSORED },
    );
    const cost = await actualFee(stack, probe.transaction_hash);
    await stack.paymaster.stop();
    // A second paymaster whose keys may spend 3 such transfers a day.
    const budget = cost * 3n;
    second = await startDevnetPaymaster(stack.devnet.rpcUrl, {
      apiKeys: [SPONSOR_KEY],
      gasTokens: GAS_TOKENS,
      args: ['--sponsor-budget', `0.${budget.toString().padStart(18, '0')}`],
    });
    const user = predeployedUser({ ...stack, paymaster: second }, 1, SPONSOR_KEY);
    const start = await relayerMoney(stack);
    let spent = 0n;
    let refusal: Error | undefined;
    for (let i = 0; i < 8 && !refusal; i++) {
      const before = await relayerMoney(stack);
      try {
        const sent = await user.executePaymasterTransaction(transfer, { feeMode: SPONSORED });
        spent += await actualFee(stack, sent.transaction_hash);
      } catch (error) {
        refusal = error as Error;
        expect(await relayerMoney(stack)).toEqual(before);
      }
    }
    expect(refusal?.message).toMatch(/daily budget/);
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(budget);
    expect(start.strk - (await relayerMoney(stack)).strk).toBe(spent);
  });
});

describe('rate limits and caps', () => {
  let stack: Stack;
  beforeAll(async () => {
    // 8 builds and executes a minute per client and per account (a burst of 2).
    stack = await startStack({ paymaster: { rateLimit: 8 } });
  });
  afterAll(() => stack?.stop());

  it('limits a client that floods builds (-32005, HTTP 429) while another client is served', async () => {
    const flooded = stack.accounts[0].address;
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(
        await postFrom('127.0.0.2', stack.paymaster.url, buildBody(flooded, [oneTransfer()])),
      );
    }
    expect(answers.slice(0, 2).map((a) => a.json.error)).toEqual([undefined, undefined]);
    for (const answer of answers.slice(2)) {
      expect(answer.status).toBe(429);
      expect(answer.json.error?.code).toBe(-32005);
      expect(answer.json.error?.message).toMatch(/the client 127\.0\.0\.2 made more than 8/);
      expect(answer.json.error?.data).toEqual({ retry_after_ms: expect.any(Number) });
    }
    // Another client, another account: served.
    const normal = predeployedUser(stack, 1);
    const built = await normal.buildPaymasterTransaction(
      [{ contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['0x5ea1', 1, 0] }],
      { feeMode: { mode: 'default', gasToken: STRK_TOKEN } },
    );
    expect(built.type).toBe('invoke');
    // The flooded account from yet another client: its own limit holds.
    const other = await postFrom(
      '127.0.0.3',
      stack.paymaster.url,
      buildBody(flooded, [oneTransfer()]),
    );
    expect(other.json.error?.code).toBe(-32005);
    expect(other.json.error?.message).toMatch(/the account 0x[0-9a-f]+ made more than 8/);
  });

  it('caps calls and calldata per request (-32602, before any node call)', async () => {
    const user = stack.accounts[2].address;
    const many = await postFrom(
      '127.0.0.4',
      stack.paymaster.url,
      buildBody(
        user,
        Array.from({ length: 33 }, () => oneTransfer()),
      ),
    );
    expect(many.json.error?.code).toBe(-32602);
    expect(many.json.error?.message).toMatch(/more than 32 calls/);
    const long = await postFrom(
      '127.0.0.5',
      stack.paymaster.url,
      buildBody(user, [
        { to: STRK_TOKEN, selector: TRANSFER, calldata: Array.from({ length: 2049 }, () => '0x1') },
      ]),
    );
    expect(long.json.error?.code).toBe(-32602);
    expect(long.json.error?.message).toMatch(/more than 2048 felts/);
    const wide = await postFrom(
      '127.0.0.6',
      stack.paymaster.url,
      buildBody(
        user,
        [1, 2, 3].map(() => ({
          to: STRK_TOKEN,
          selector: TRANSFER,
          calldata: Array.from({ length: 1500 }, () => '0x1'),
        })),
      ),
    );
    expect(wide.json.error?.code).toBe(-32602);
    expect(wide.json.error?.message).toMatch(/4500 felts of calldata, more than the 4096/);
  });
});

describe('builds waiting per account, and a restart', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'l2-paymaster-state-'));
    stack = await startStack({ paymaster: { stateFile: path.join(dir, 'state.sqlite') } });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps 16 builds of one account; an execution of one pushed out is still served', async () => {
    const user = predeployedUser(stack, 0);
    const details = { feeMode: { mode: 'default' as const, gasToken: STRK_TOKEN } };
    const call = [
      { contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['0x5ea1', 1, 0] },
    ];
    const first = await user.buildPaymasterTransaction(call, details);
    for (let i = 0; i < 20; i++) {
      expect((await user.buildPaymasterTransaction(call, details)).type).toBe('invoke');
    }
    if (first.type !== 'invoke') throw new Error(`built ${first.type}`);
    const signature = stark.signatureToHexArray(await user.signMessage(first.typed_data));
    const sent = await paymasterClient(stack).executeTransaction(
      {
        type: 'invoke',
        invoke: { userAddress: user.address, typedData: first.typed_data, signature },
      },
      first.parameters,
    );
    expect((await receiptOf(stack, sent.transaction_hash)).isSuccess()).toBe(true);
  });

  it('answers a tracking id after a restart', async () => {
    const user = predeployedUser(stack, 2, SPONSOR_KEY);
    const built = await user.executePaymasterTransaction(
      [{ contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['0x5ea1', 1, 0] }],
      { feeMode: SPONSORED },
    );
    await receiptOf(stack, built.transaction_hash);
    // starknet.js gives the hash; the tracking id is in the paymaster's log line.
    const id = /tracking id (0x[0-9a-f]+)/.exec(
      stack.paymaster
        .output()
        .split('\n')
        .filter((l) => l.includes(built.transaction_hash.replace(/^0x0*/, '0x')))
        .join('\n'),
    )?.[1];
    expect(id).toBeDefined();
    await stack.paymaster.stop();
    const restarted = await startDevnetPaymaster(stack.devnet.rpcUrl, {
      apiKeys: [SPONSOR_KEY],
      stateFile: path.join(dir, 'state.sqlite'),
    });
    try {
      const answer = await postJson(restarted.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'paymaster_trackingIdToLatestHash',
        params: { tracking_id: id },
      });
      expect(answer.json.result).toEqual({
        transaction_hash: built.transaction_hash.replace(/^0x0*/, '0x'),
        status: 'accepted',
      });
    } finally {
      await restarted.stop();
    }
  });
});
