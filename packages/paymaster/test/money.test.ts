/**
 * The relayer is never out of pocket: each attack on its money, from the attacker's side, with
 * balances counted before and after. A contract that only claims SNIP-9 (its
 * execute_from_outside_v2 runs nothing) gets no refund and costs the relayer nothing; an account
 * that signs three executions of more than half its balance and sends them at once has one run
 * and two refused before they are submitted, so no revert is paid for; a tip above the cap is
 * refused.
 */
import { postJson, rpc } from '@l2wallet/testkit';
import { hash, outsideExecution, stark } from 'starknet';

import { deployFakeSnip9 } from './fakeAccount';
import {
  balanceOf,
  ETH_TOKEN,
  newArgentUser,
  paymasterClient,
  predeployedUser,
  receiptOf,
  SPONSOR_KEY,
  type Stack,
  startStack,
  STRK_TOKEN,
  transfer,
  signedBuild,
} from './helpers';

let stack: Stack;

beforeAll(async () => {
  // Blocks every second, a transaction RECEIVED for 250 ms before it runs: as on a real network,
  // what the relayer submitted is not yet in the state the next simulation sees.
  stack = await startStack({ accounts: 4, devnet: { blockTime: 1000, preconfirmDelayMs: 250 } });
});

afterAll(() => stack?.stop());

const relayerNonce = () =>
  stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed');

async function relayerMoney() {
  return {
    strk: await balanceOf(stack, stack.relayer.address, STRK_TOKEN),
    eth: await balanceOf(stack, stack.relayer.address, ETH_TOKEN),
    nonce: BigInt(await relayerNonce()),
  };
}

async function chainTime(): Promise<number> {
  const block = await rpc<{ timestamp: number }>(
    stack.devnet.rpcUrl,
    'starknet_getBlockWithTxHashes',
    {
      block_id: 'latest',
    },
  );
  return block.timestamp;
}

describe('a contract that only claims SNIP-9', () => {
  let fake: string;

  beforeAll(async () => {
    fake = await deployFakeSnip9(stack, predeployedUser(stack, 0), '0x5a17');
  });

  it.each([
    ['STRK', STRK_TOKEN, 10n ** 18n],
    ['ETH', ETH_TOKEN, 10n ** 15n],
  ])(
    'gets no "refund" of a fee it never paid in %s: the relayer ends with what it had',
    async (_name, token, amount) => {
      const before = await relayerMoney();
      const now = await chainTime();
      // The attacker's own typed data: no build, the relayer as caller, one "fee" transfer that
      // the contract will never run, a junk signature.
      const typedData = outsideExecution.getTypedData(
        await stack.provider.getChainId(),
        { caller: stack.relayer.address, execute_after: now - 60, execute_before: now + 600 },
        stark.randomAddress(),
        [transfer(token, stack.relayer.address, amount)],
        '2',
      );
      const reply = await postJson(stack.paymaster.url, {
        jsonrpc: '2.0',
        id: 1,
        method: 'paymaster_executeTransaction',
        params: {
          transaction: {
            type: 'invoke',
            invoke: { user_address: fake, typed_data: typedData, signature: ['0x1', '0x2'] },
          },
          parameters: { version: '0x1', fee_mode: { mode: 'default', gas_token: token } },
        },
      });
      expect(reply.json.error?.code).toBe(156);
      expect(JSON.stringify(reply.json.error?.data)).toMatch(
        /shows 0 of 0x[0-9a-f]+ arriving at the relayer, not the \d+ signed/,
      );
      expect(await relayerMoney()).toEqual(before);
      expect(await balanceOf(stack, fake, token)).toBe(0n);
    },
  );
});

describe('executions that each pass alone, sent at once', () => {
  it('runs one and refuses the others before they are submitted: no revert paid for', async () => {
    const user = newArgentUser(stack);
    await stack.devnet.devnet.mint(BigInt(user.address), 10n ** 17n, 'FRI');
    const strkMode = { feeMode: { mode: 'default' as const, gasToken: STRK_TOKEN } };
    // Deployed first (through the paymaster, paying in STRK).
    const deployed = await user.account.executePaymasterTransaction(
      [transfer(STRK_TOKEN, '0x5ea1', 1n)],
      { ...strkMode, deploymentData: user.deploymentData },
    );
    await receiptOf(stack, deployed.transaction_hash);
    const balance = await balanceOf(stack, user.address, STRK_TOKEN);
    const half = balance / 2n + 1n;

    // Three executions, each of more than half the balance plus its fee: each passes alone.
    const requests = [];
    for (let i = 0; i < 3; i++) {
      requests.push(
        await signedBuild(user.account, [transfer(STRK_TOKEN, `0x5ea1${i}`, half)], strkMode),
      );
    }
    const before = await relayerMoney();
    const client = paymasterClient(stack);
    const outcomes = await Promise.allSettled(
      requests.map((r) => client.executeTransaction(r.transaction, r.parameters)),
    );
    const sent = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(sent).toHaveLength(1);
    expect(refused).toHaveLength(2);
    for (const outcome of refused) {
      const error = (outcome as PromiseRejectedResult).reason as { baseError: { code: number } };
      expect(error.baseError.code).toBe(156);
    }
    const receipt = await receiptOf(
      stack,
      (sent[0] as PromiseFulfilledResult<{ transaction_hash: string }>).value.transaction_hash,
    );
    expect(receipt.isSuccess()).toBe(true);
    const after = await relayerMoney();
    // One transaction from the relayer, and it was paid for: its STRK did not go down.
    expect(after.nonce).toBe(before.nonce + 1n);
    expect(after.strk).toBeGreaterThanOrEqual(before.strk);
  });
});

describe('the tip', () => {
  it.each([
    ['sponsored', { mode: 'sponsored' }],
    ['default', { mode: 'default', gas_token: STRK_TOKEN }],
  ])('above the cap is refused in %s mode, nothing spent', async (_name, mode) => {
    const before = await relayerMoney();
    const user = predeployedUser(stack, 1);
    const reply = await postJson(
      stack.paymaster.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'paymaster_buildTransaction',
        params: {
          transaction: {
            type: 'invoke',
            invoke: {
              user_address: user.address,
              calls: [
                {
                  to: STRK_TOKEN,
                  selector: hash.getSelectorFromName('transfer'),
                  calldata: ['0x1', '0x1', '0x0'],
                },
              ],
            },
          },
          parameters: {
            version: '0x1',
            fee_mode: { ...mode, tip: { custom: '0x4000000000000000' } },
          },
        },
      },
      { 'x-paymaster-api-key': SPONSOR_KEY },
    );
    expect(reply.json.error?.code).toBe(-32602);
    expect(reply.json.error?.message).toMatch(/tip.custom: is above this paymaster's cap/);
    expect(await relayerMoney()).toEqual(before);
  });
});
