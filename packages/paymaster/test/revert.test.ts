/**
 * A submitted execution that reverts is billed. The account's own transaction, sent directly to
 * the node between the relayer's simulation and its submission (a proxy in front of the node
 * holds the relayer's submission until it lands), drains what the signed calls needed: the
 * relayer's transaction reverts and costs it gas. That cost is the account's debt: the next
 * build's fee includes it, an execution that does not cover it is refused (154), and once one
 * runs the relayer has lost nothing over both.
 */
import { postJson, serveHttp, type StubServer } from '@l2wallet/testkit';
import { outsideExecution, stark } from 'starknet';

import {
  balanceOf,
  paymasterClient,
  predeployedUser,
  receiptOf,
  type Stack,
  startStack,
  STRK_TOKEN,
  transfer,
} from './helpers';

let stack: Stack;
let proxy: StubServer | undefined;
/** Run before the relayer's next submission reaches the node. */
let beforeSubmission: (() => Promise<void>) | undefined;

beforeAll(async () => {
  stack = await startStack({
    nodeUrl: async (devnet) => {
      proxy = await serveHttp(async (_request, response, body) => {
        if (body.includes('starknet_addInvokeTransaction') && beforeSubmission) {
          const run = beforeSubmission;
          beforeSubmission = undefined;
          await run();
        }
        const answer = await postJson(devnet.rpcUrl, body);
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(answer.text);
      });
      return proxy.url;
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await proxy?.close();
});

it('bills the revert to the account: its next fee covers it, and the relayer is even', async () => {
  const user = predeployedUser(stack, 0);
  const details = { feeMode: { mode: 'default' as const, gasToken: STRK_TOKEN } };
  const relayerStart = await balanceOf(stack, stack.relayer.address);
  const balance = await balanceOf(stack, user.address);
  const half = balance / 2n;

  // Between simulation and submission, the account moves away what the signed calls need.
  beforeSubmission = async () => {
    const drain = await user.execute(transfer(STRK_TOKEN, '0xd2a1', half + 1n));
    await receiptOf(stack, drain.transaction_hash);
  };
  const reverted = await user.executePaymasterTransaction(
    [transfer(STRK_TOKEN, '0x5ea1', half)],
    details,
  );
  const receipt = await receiptOf(stack, reverted.transaction_hash);
  expect(receipt.isReverted()).toBe(true);
  const lost = relayerStart - (await balanceOf(stack, stack.relayer.address));
  expect(lost).toBeGreaterThan(0n);

  // The next build asks for the debt on top; a fee built before the revert no longer covers it.
  const ordinary = await predeployedUser(stack, 1).estimatePaymasterTransactionFee(
    [transfer(STRK_TOKEN, '0x5ea1', 1n)],
    details,
  );
  const ordinaryFee = BigInt(ordinary.suggested_max_fee_in_gas_token);
  // The paymaster reads the receipt in the background (its polls back off to a second apart):
  // until it has, the debt is not there yet.
  const feeOfUser = async () =>
    user.estimatePaymasterTransactionFee([transfer(STRK_TOKEN, '0x5ea1', 1n)], details);
  const until = async (done: (fee: bigint) => boolean) => {
    const from = Date.now();
    for (;;) {
      const fee = await feeOfUser();
      if (done(BigInt(fee.suggested_max_fee_in_gas_token))) return fee;
      // Only so a debt never recorded (or never paid) fails here.
      expect(Date.now() - from).toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const owed = await until((fee) => fee !== ordinaryFee);
  expect(BigInt(owed.suggested_max_fee_in_gas_token) - ordinaryFee).toBe(lost);
  // An execution the user signs without a build, with an ordinary fee: 154.
  const now = (await stack.provider.getBlock('latest')).timestamp;
  const typedData = outsideExecution.getTypedData(
    await stack.provider.getChainId(),
    { caller: stack.relayer.address, execute_after: now - 60, execute_before: now + 600 },
    stark.randomAddress(),
    [transfer(STRK_TOKEN, '0x5ea1', 1n), transfer(STRK_TOKEN, stack.relayer.address, ordinaryFee)],
    '2',
  );
  const signature = stark.signatureToHexArray(await user.signMessage(typedData));
  const refused = await paymasterClient(stack)
    .executeTransaction(
      {
        type: 'invoke',
        invoke: { userAddress: user.address, typedData: typedData as never, signature },
      },
      { version: '0x1', feeMode: details.feeMode },
    )
    .then(
      () => undefined,
      (error: unknown) => error as { baseError: { code: number; data: unknown } },
    );
  expect(refused?.baseError.code).toBe(154);
  expect(String(refused?.baseError.data)).toMatch(/owes for a reverted execution/);

  const paid = await user.executePaymasterTransaction(
    [transfer(STRK_TOKEN, '0x5ea1', 1n)],
    details,
  );
  expect((await receiptOf(stack, paid.transaction_hash)).isSuccess()).toBe(true);
  // Over both transactions, the relayer lost nothing.
  expect(await balanceOf(stack, stack.relayer.address)).toBeGreaterThanOrEqual(relayerStart);
  // And the debt is paid (once the paymaster has read the receipt): an ordinary fee again.
  const owedFee = BigInt(owed.suggested_max_fee_in_gas_token);
  const after = await until((fee) => fee !== owedFee);
  expect(after.suggested_max_fee_in_gas_token).toBe(ordinary.suggested_max_fee_in_gas_token);
});
