/**
 * Failures around a submission, with a proxy between the paymaster and the devnet that loses the
 * node's answer, holds it past the paymaster's timeout, or never lets the transaction through;
 * and a relayer without the STRK to pay. Whatever happens, a request is executed at most once,
 * a refused one moves nothing, and the relayer's nonce stays in step with the node.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type HttpReply, postJson, rpc, serveHttp, type StubServer } from '@l2wallet/testkit';
import { type PaymasterDetails } from 'starknet';

import {
  type ArgentUser,
  balanceOf,
  type Devnet,
  ETH_TOKEN,
  mintEth,
  newArgentUser,
  paymasterClient,
  receiptOf,
  type Stack,
  startStack,
  transfer,
  signedBuild,
} from './helpers';

type Fault = 'none' | 'lose-answer' | 'hold-answer' | 'refuse' | 'refuse-all';

/**
 * The devnet behind a proxy that does `fault` to starknet_addInvokeTransaction (refuse-all: to
 * every call): lose-answer forwards one and drops the connection, hold-answer forwards one and
 * answers only after the paymaster's timeout (3 s) once it has sent it again, refuse answers 503
 * without forwarding.
 */
async function faultyProxy(
  devnet: Devnet,
  state: { fault: Fault; submissions: number },
): Promise<StubServer> {
  return serveHttp(async (request: IncomingMessage, response: ServerResponse, body: string) => {
    const submission = body.includes('starknet_addInvokeTransaction');
    if (submission) state.submissions += 1;
    const fault = state.fault === 'refuse-all' || submission ? state.fault : 'none';
    if (fault === 'refuse' || fault === 'refuse-all') {
      response.writeHead(503);
      response.end();
      return;
    }
    // Those two happen to one send; the paymaster's next send goes through.
    if (fault === 'lose-answer' || fault === 'hold-answer') state.fault = 'none';
    const reply: HttpReply = await postJson(devnet.rpcUrl, body);
    if (fault === 'lose-answer') {
      request.socket.destroy();
      return;
    }
    if (fault === 'hold-answer') {
      // Answered only once the paymaster, having given up waiting, sends it again.
      const seen = state.submissions;
      while (state.submissions === seen) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (response.destroyed) return;
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(reply.text);
  });
}

const DETAILS: PaymasterDetails = { feeMode: { mode: 'default', gasToken: ETH_TOKEN } };
const RECIPIENT = '0x5ea1ed';

describe('a node that fails around a submission', () => {
  let stack: Stack;
  let proxy: StubServer;
  let user: ArgentUser;
  const state = { fault: 'none' as Fault, submissions: 0 };

  beforeAll(async () => {
    stack = await startStack({
      nodeUrl: async (devnet) => {
        proxy = await faultyProxy(devnet, state);
        return proxy.url;
      },
      paymaster: { args: ['--node-timeout', '3000'] },
    });
    user = newArgentUser(stack);
    await mintEth(stack, user.address, 10n ** 16n);
    const { transaction_hash } = await user.account.executePaymasterTransaction(
      [transfer(ETH_TOKEN, RECIPIENT, 1n)],
      {
        ...DETAILS,
        deploymentData: user.deploymentData,
      },
    );
    await receiptOf(stack, transaction_hash);
  });

  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
  });

  beforeEach(() => {
    state.fault = 'none';
    state.submissions = 0;
  });

  const relayerNonce = async () =>
    BigInt(await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed'));

  /** The fee a request's typed data pays at most: its last call's amount. */
  const signedFee = (request: Awaited<ReturnType<typeof signedRequest>>) => {
    const calls = (
      request.transaction.invoke.typedData.message as { calls: { calldata: string[] }[] }
    ).calls;
    return BigInt(calls[calls.length - 1].calldata[1]);
  };

  /** A built and signed request for a transfer of `amount`, not yet executed. */
  async function signedRequest(amount: bigint) {
    return signedBuild(user.account, [transfer(ETH_TOKEN, RECIPIENT, amount)], DETAILS);
  }

  it.each([
    ['its answer is lost', 'lose-answer'],
    ['its answer comes after the timeout', 'hold-answer'],
  ] as const)('%s: sent again unchanged, executed once', async (_name, fault) => {
    const nonce = await relayerNonce();
    const received = await balanceOf(stack, RECIPIENT, ETH_TOKEN);
    const request = await signedRequest(100n);
    state.fault = fault;
    const executed = await paymasterClient(stack).executeTransaction(
      request.transaction,
      request.parameters,
    );
    state.fault = 'none';
    expect(state.submissions).toBeGreaterThanOrEqual(2); // the first send's answer never arrived
    expect((await receiptOf(stack, executed.transaction_hash)).isSuccess()).toBe(true);
    expect(await balanceOf(stack, RECIPIENT, ETH_TOKEN)).toBe(received + 100n);
    expect(await relayerNonce()).toBe(nonce + 1n);
    // The next user's transaction takes the next nonce.
    const next = await signedRequest(1n);
    const after = await paymasterClient(stack).executeTransaction(
      next.transaction,
      next.parameters,
    );
    expect((await receiptOf(stack, after.transaction_hash)).isSuccess()).toBe(true);
    expect(await relayerNonce()).toBe(nonce + 2n);
  });

  it('never received: an uncertain answer (163 with a tracking id), then dropped, nothing paid', async () => {
    const nonce = await relayerNonce();
    const userEth = await balanceOf(stack, user.address, ETH_TOKEN);
    const relayerEth = await balanceOf(stack, stack.relayer.address, ETH_TOKEN);
    const request = await signedRequest(100n);
    state.fault = 'refuse';
    const error = (await paymasterClient(stack)
      .executeTransaction(request.transaction, request.parameters)
      .catch((e: unknown) => e)) as { baseError: { code: number; data: string } };
    expect(error.baseError.code).toBe(163);
    expect(error.baseError.data).toMatch(/may still be included\. Follow tracking id 0x[0-9a-f]+/);
    const trackingId = /tracking id (0x[0-9a-f]+)/.exec(error.baseError.data)![1];
    const hash = /transaction (0x[0-9a-f]+)/.exec(error.baseError.data)![1];
    expect(
      await rpc(stack.paymaster.url, 'paymaster_trackingIdToLatestHash', [trackingId]),
    ).toEqual({
      transaction_hash: hash,
      status: 'active',
    });
    // While uncertain, the same request is not taken again.
    await expect(
      paymasterClient(stack).executeTransaction(request.transaction, request.parameters),
    ).rejects.toMatchObject({ baseError: { code: 156 } });

    // The node is back: the next submission first settles the uncertain one (not on the node:
    // dropped, its nonce reused), and the dropped request may be executed again, once.
    state.fault = 'none';
    const other = await signedRequest(1n);
    const otherExecuted = await paymasterClient(stack).executeTransaction(
      other.transaction,
      other.parameters,
    );
    await receiptOf(stack, otherExecuted.transaction_hash);
    expect(await relayerNonce()).toBe(nonce + 1n);
    expect(
      await rpc(stack.paymaster.url, 'paymaster_trackingIdToLatestHash', {
        tracking_id: trackingId,
      }),
    ).toEqual({
      transaction_hash: hash,
      status: 'dropped',
    });
    const again = await paymasterClient(stack).executeTransaction(
      request.transaction,
      request.parameters,
    );
    await receiptOf(stack, again.transaction_hash);
    expect(await relayerNonce()).toBe(nonce + 2n);
    // The user paid each request's transfer and fee once: the dropped attempt cost nothing.
    const feesPaid = (await balanceOf(stack, stack.relayer.address, ETH_TOKEN)) - relayerEth;
    expect(await balanceOf(stack, user.address, ETH_TOKEN)).toBe(userEth - 101n - feesPaid);
    expect(feesPaid).toBeGreaterThan(0n);
    expect(feesPaid).toBeLessThanOrEqual(signedFee(request) + signedFee(other));
  });

  it('a node that does not answer at all: nothing built, nothing submitted (163)', async () => {
    state.fault = 'refuse-all';
    await expect(
      user.account.buildPaymasterTransaction([transfer(ETH_TOKEN, RECIPIENT, 1n)], DETAILS),
    ).rejects.toMatchObject({
      baseError: { code: 163, data: expect.stringMatching(/node is unavailable/) },
    });
    expect(await paymasterClient(stack).isAvailable()).toBe(false);
    const health = await fetch(`${stack.paymaster.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'node-unavailable' });
    expect(state.submissions).toBe(0);
  });
});

describe('a relayer that cannot pay', () => {
  let stack: Stack;

  beforeAll(async () => {
    // Every predeployed account, the relayer included, starts with 10^11 FRI: less than the
    // most a relayer transaction may cost. No floor: the node's own refusal is what is tested
    // here (the floor is test/limits.test.ts's).
    stack = await startStack({
      devnet: { initialBalance: 10n ** 11n },
      paymaster: { args: ['--min-balance', '0'] },
    });
  });

  afterAll(() => stack?.stop());

  it('refuses with a clear error, moves nothing, then serves the same request once funded', async () => {
    const user = newArgentUser(stack);
    await mintEth(stack, user.address, 10n ** 16n);
    const calls = [transfer(ETH_TOKEN, RECIPIENT, 5n)];
    const details = { ...DETAILS, deploymentData: user.deploymentData };
    const built = await user.account.buildPaymasterTransaction(calls, details);
    const signed = await user.account.preparePaymasterTransaction(built);
    const nonce = await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed');
    await expect(
      paymasterClient(stack).executeTransaction(signed, built.parameters),
    ).rejects.toMatchObject({
      baseError: { code: 163, data: expect.stringMatching(/relayer cannot pay/) },
    });
    await expect(stack.provider.getClassHashAt(user.address)).rejects.toThrow();
    expect(await balanceOf(stack, user.address, ETH_TOKEN)).toBe(10n ** 16n);
    expect(await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed')).toBe(
      nonce,
    );

    await stack.devnet.devnet.mint(BigInt(stack.relayer.address), 10n ** 20n, 'FRI');
    const executed = await paymasterClient(stack).executeTransaction(signed, built.parameters);
    expect((await receiptOf(stack, executed.transaction_hash)).isSuccess()).toBe(true);
    expect(await balanceOf(stack, RECIPIENT, ETH_TOKEN)).toBe(5n);
  });
});
