/**
 * The paymaster as a hostile client meets it: a user who signs, with its own valid key, an outside
 * execution other than the one built (the fee to someone else, a lower fee, calls appended, time
 * bounds far ahead, another chain, another caller), replays one, or sends one its key did not
 * sign. Each is refused with its own error before anything is submitted: no balance moves and
 * the relayer's nonce stays where it was.
 */
import { rpc, startDevnetPaymaster } from '@l2wallet/testkit';
import { constants, hash, type PaymasterDetails } from 'starknet';

import {
  type ArgentUser,
  balanceOf,
  ETH_TOKEN,
  GAS_TOKENS,
  mintEth,
  newArgentUser,
  paymasterClient,
  receiptOf,
  type Stack,
  startStack,
  transfer,
  signedBuild,
} from './helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON typed data, altered in place
type Json = any;

let stack: Stack;
let user: ArgentUser;
const ATTACKER = '0xbad';
const RECIPIENT = '0x5ea1ed';
const DETAILS: PaymasterDetails = { feeMode: { mode: 'default', gasToken: ETH_TOKEN } };

beforeAll(async () => {
  stack = await startStack();
  user = newArgentUser(stack);
  await mintEth(stack, user.address, 10n ** 16n);
  const { transaction_hash } = await user.account.executePaymasterTransaction(
    [transfer(ETH_TOKEN, RECIPIENT, 1n)],
    { ...DETAILS, deploymentData: user.deploymentData },
  );
  await receiptOf(stack, transaction_hash);
});

afterAll(() => stack?.stop());

/** Everything an attack could move: balances and the relayer's nonce. */
async function snapshot() {
  return {
    userEth: await balanceOf(stack, user.address, ETH_TOKEN),
    relayerEth: await balanceOf(stack, stack.relayer.address, ETH_TOKEN),
    relayerStrk: await balanceOf(stack, stack.relayer.address),
    attackerEth: await balanceOf(stack, ATTACKER, ETH_TOKEN),
    recipientEth: await balanceOf(stack, RECIPIENT, ETH_TOKEN),
    relayerNonce: await stack.provider.getNonceForAddress(stack.relayer.address, 'pre_confirmed'),
  };
}

/** Builds for `calls`, lets `alter` change the typed data, signs the result with the user's key. */
async function signedAlteration(
  alter: (typed: Json) => void,
  calls = [transfer(ETH_TOKEN, RECIPIENT, 10n)],
) {
  return signedBuild(user.account, calls, DETAILS, alter);
}

async function refusedWithNothingMoved(
  request: Awaited<ReturnType<typeof signedAlteration>>,
  code: number,
  why: RegExp,
) {
  const before = await snapshot();
  const error = await paymasterClient(stack)
    .executeTransaction(request.transaction, request.parameters)
    .then(
      () => undefined,
      (e: unknown) => e as { baseError: { code: number; data: unknown } },
    );
  expect(error?.baseError.code).toBe(code);
  expect(JSON.stringify(error?.baseError.data)).toMatch(why);
  expect(await snapshot()).toEqual(before);
}

const TRANSFER = hash.getSelectorFromName('transfer');
const lastCall = (typed: Json) => typed.message.calls[typed.message.calls.length - 1];

it('a fee transfer to someone else', async () => {
  const request = await signedAlteration((typed) => {
    const fee = lastCall(typed);
    fee.calldata[0] = ATTACKER;
  });
  await refusedWithNothingMoved(request, 156, /pays 0xbad, not the relayer/);
});

it('a fee lower than built', async () => {
  const request = await signedAlteration((typed) => {
    lastCall(typed).calldata[1] = '0x1';
  });
  await refusedWithNothingMoved(request, 154, /lower than the fee built/);
});

it('calls appended after the fee, or slipped in before it', async () => {
  const drain = {
    to: ETH_TOKEN,
    selector: TRANSFER,
    calldata_len: '0x3',
    calldata: [ATTACKER, '0x64', '0x0'],
  };
  const after = await signedAlteration((typed) => {
    typed.message.calls.push(drain);
    typed.message.calls_len = `0x${typed.message.calls.length.toString(16)}`;
  });
  await refusedWithNothingMoved(after, 156, /appended/);
  const before = await signedAlteration((typed) => {
    typed.message.calls.splice(1, 0, drain);
    typed.message.calls_len = `0x${typed.message.calls.length.toString(16)}`;
  });
  await refusedWithNothingMoved(before, 156, /appended/);
});

it('a call changed from the one built', async () => {
  const request = await signedAlteration((typed) => {
    typed.message.calls[0].calldata[0] = ATTACKER;
  });
  await refusedWithNothingMoved(request, 156, /call 0 .* is not the call built/);
});

it('time bounds far in the future, asked for or signed', async () => {
  const now = Math.floor(Date.now() / 1000);
  await expect(
    user.account.buildPaymasterTransaction([transfer(ETH_TOKEN, RECIPIENT, 1n)], {
      ...DETAILS,
      timeBounds: { executeAfter: now - 10, executeBefore: now + 365 * 86_400 },
    }),
  ).rejects.toMatchObject({ baseError: { code: 157 } });
  const request = await signedAlteration((typed) => {
    typed.message.execute_before = `0x${(now + 365 * 86_400).toString(16)}`;
  });
  await refusedWithNothingMoved(request, 157, /more than 3600 s after the chain's time/);
});

it('typed data for another chain', async () => {
  const request = await signedAlteration((typed) => {
    typed.domain.chainId = constants.StarknetChainId.SN_MAIN;
  });
  await refusedWithNothingMoved(request, 156, /is for chain 0x534e5f4d41494e/);
});

it('another caller than the relayer', async () => {
  const request = await signedAlteration((typed) => {
    typed.message.caller = ATTACKER;
  });
  await refusedWithNothingMoved(request, 156, /only this paymaster's relayer/);
});

it('a signature its key did not make', async () => {
  const request = await signedAlteration(() => undefined);
  const forged = { ...request.transaction.invoke, signature: ['0x1', '0x2'] };
  await refusedWithNothingMoved(
    { ...request, transaction: { ...request.transaction, invoke: forged } },
    153,
    /signature/,
  );
  // The same typed data with the user's own signature still goes through: the refusal freed it.
  const executed = await paymasterClient(stack).executeTransaction(
    request.transaction,
    request.parameters,
  );
  expect((await receiptOf(stack, executed.transaction_hash)).isSuccess()).toBe(true);
});

describe('a replayed outside execution', () => {
  it('is refused while the paymaster remembers it, with nothing moved', async () => {
    const request = await signedAlteration(() => undefined);
    const first = await paymasterClient(stack).executeTransaction(
      request.transaction,
      request.parameters,
    );
    await receiptOf(stack, first.transaction_hash);
    await refusedWithNothingMoved(
      request,
      156,
      new RegExp(`already submitted \\(transaction ${first.transaction_hash}`),
    );
  });

  it("is refused by the relayer's simulation once forgotten (a restarted paymaster)", async () => {
    const request = await signedAlteration(() => undefined);
    const first = await paymasterClient(stack).executeTransaction(
      request.transaction,
      request.parameters,
    );
    await receiptOf(stack, first.transaction_hash);
    const restarted = await startDevnetPaymaster(stack.devnet.rpcUrl, { gasTokens: GAS_TOKENS });
    try {
      const before = await snapshot();
      const error = await rpc(restarted.url, 'paymaster_executeTransaction', {
        transaction: {
          type: 'invoke',
          invoke: {
            user_address: user.address,
            typed_data: request.transaction.invoke.typedData,
            signature: request.transaction.invoke.signature,
          },
        },
        parameters: { version: '0x1', fee_mode: { mode: 'default', gas_token: ETH_TOKEN } },
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 156,
        data: { execution_error: expect.stringMatching(/duplicated-outside-nonce/) },
      });
      expect(await snapshot()).toEqual(before);
    } finally {
      await restarted.stop();
    }
  });
});
