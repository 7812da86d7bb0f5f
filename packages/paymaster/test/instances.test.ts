/**
 * Two paymasters (two relayers) sharing one state file take turns on an account: an account that
 * signs three executions of more than half its balance and sends them to both at once has one
 * run and the others refused before submission, as with one paymaster (test/money.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type PaymasterProcess, startPaymaster } from '@l2wallet/testkit';
import { Account, PaymasterRpc } from 'starknet';

import {
  balanceOf,
  GAS_TOKENS,
  newArgentUser,
  receiptOf,
  type Stack,
  startStack,
  STRK_TOKEN,
  transfer,
  signedBuild,
} from './helpers';

let stack: Stack;
let second: PaymasterProcess | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'l2-paymaster-shared-'));
  const stateFile = path.join(dir, 'state.sqlite');
  stack = await startStack({
    accounts: 4,
    devnet: { blockTime: 1000, preconfirmDelayMs: 250 },
    paymaster: { stateFile },
  });
  // The second paymaster's relayer is another predeployed account.
  const other = stack.accounts[2];
  second = await startPaymaster({
    nodeUrl: stack.devnet.rpcUrl,
    relayer: { address: other.address, privateKey: other.private_key },
    gasTokens: GAS_TOKENS,
    stateFile,
  });
});

afterAll(async () => {
  await second?.stop();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('runs one of three executions sent to two paymasters at once; no revert paid for', async () => {
  const user = newArgentUser(stack);
  await stack.devnet.devnet.mint(BigInt(user.address), 10n ** 17n, 'FRI');
  const strkMode = { feeMode: { mode: 'default' as const, gasToken: STRK_TOKEN } };
  const deployed = await user.account.executePaymasterTransaction(
    [transfer(STRK_TOKEN, '0x5ea1', 1n)],
    { ...strkMode, deploymentData: user.deploymentData },
  );
  await receiptOf(stack, deployed.transaction_hash);
  const half = (await balanceOf(stack, user.address, STRK_TOKEN)) / 2n + 1n;
  const onSecond = new Account({
    provider: stack.provider,
    address: user.address,
    signer: user.privateKey,
    cairoVersion: '1',
    paymaster: new PaymasterRpc({ nodeUrl: second!.url }),
  });
  const requests = [];
  for (const [i, account] of [user.account, onSecond, user.account].entries()) {
    requests.push({
      account,
      ...(await signedBuild(account, [transfer(STRK_TOKEN, `0x5ea1${i}`, half)], strkMode)),
    });
  }
  const relayers = [stack.relayer.address, stack.accounts[2].address];
  const before = await Promise.all(relayers.map((r) => balanceOf(stack, r, STRK_TOKEN)));
  const outcomes = await Promise.allSettled(
    requests.map(({ account, transaction, parameters }) =>
      account.paymaster.executeTransaction(transaction, parameters),
    ),
  );
  const sent = outcomes.filter((o) => o.status === 'fulfilled');
  expect(sent).toHaveLength(1);
  const { transaction_hash: hash } = (
    sent[0] as PromiseFulfilledResult<{ transaction_hash: string }>
  ).value;
  expect((await receiptOf(stack, hash)).isSuccess()).toBe(true);
  const after = await Promise.all(relayers.map((r) => balanceOf(stack, r, STRK_TOKEN)));
  // Neither relayer's STRK went down.
  expect(after[0]).toBeGreaterThanOrEqual(before[0]);
  expect(after[1]).toBeGreaterThanOrEqual(before[1]);
});
