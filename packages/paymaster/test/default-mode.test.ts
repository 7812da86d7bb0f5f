/**
 * Paying the fee in a gas token (`default` mode) with starknet.js's own client: an Argent account
 * that holds only ETH is deployed and transacts through the paymaster, its STRK balance 0
 * throughout, the fee paid in ETH to the relayer, and never more than the maximum it signed.
 */
import { constants } from 'starknet';

import {
  type ArgentUser,
  balanceOf,
  ETH_PRICE_IN_STRK,
  ETH_TOKEN,
  mintEth,
  newArgentUser,
  paymasterClient,
  predeployedUser,
  receiptOf,
  type Stack,
  startStack,
  STRK_TOKEN,
  transfer,
} from './helpers';

let stack: Stack;
let user: ArgentUser;
const RECIPIENT = '0x5ea1ed';
const FEE_MODE = { mode: 'default' as const, gasToken: ETH_TOKEN };

beforeAll(async () => {
  stack = await startStack();
  user = newArgentUser(stack);
  await mintEth(stack, user.address, 10n ** 16n);
});

afterAll(() => stack?.stop());

it('lists STRK at price 1 and ETH at its price, as starknet.js reads them', async () => {
  const tokens = await paymasterClient(stack).getSupportedTokens();
  expect(tokens).toEqual([
    { token_address: expect.any(String), decimals: 18, priceInStrk: 10n ** 18n },
    {
      token_address: expect.any(String),
      decimals: 18,
      priceInStrk: BigInt(ETH_PRICE_IN_STRK) * 10n ** 18n,
    },
  ]);
  expect(BigInt(tokens[0].token_address)).toBe(BigInt(STRK_TOKEN));
  expect(BigInt(tokens[1].token_address)).toBe(BigInt(ETH_TOKEN));
  expect(await paymasterClient(stack).isAvailable()).toBe(true);
});

it('deploys an ETH-only account and runs its call, the fee paid in ETH to the relayer', async () => {
  const calls = [transfer(ETH_TOKEN, RECIPIENT, 1000n)];
  const details = { feeMode: FEE_MODE, deploymentData: user.deploymentData };
  const estimate = await user.account.estimatePaymasterTransactionFee(calls, details);
  expect(estimate.gas_token_price_in_strk).toBe(BigInt(ETH_PRICE_IN_STRK) * 10n ** 18n);
  expect(BigInt(estimate.suggested_max_fee_in_gas_token)).toBeGreaterThan(
    BigInt(estimate.estimated_fee_in_gas_token),
  );

  const ethBefore = await balanceOf(stack, user.address, ETH_TOKEN);
  const relayerEthBefore = await balanceOf(stack, stack.relayer.address, ETH_TOKEN);
  const relayerStrkBefore = await balanceOf(stack, stack.relayer.address);

  // starknet.js checks the typed data (chain, calls, the fee transfer as last call) before signing.
  const { transaction_hash } = await user.account.executePaymasterTransaction(
    calls,
    details,
    estimate.suggested_max_fee_in_gas_token,
  );
  const receipt = await receiptOf(stack, transaction_hash);
  expect(receipt.isSuccess()).toBe(true);

  expect(await stack.provider.getClassHashAt(user.address)).toBe(
    user.deploymentData.class_hash.replace(/^0x0*/, '0x'),
  );
  expect(await balanceOf(stack, RECIPIENT, ETH_TOKEN)).toBe(1000n);
  expect(await balanceOf(stack, user.address)).toBe(0n); // never any STRK

  const feePaid = ethBefore - 1000n - (await balanceOf(stack, user.address, ETH_TOKEN));
  const relayerGot = (await balanceOf(stack, stack.relayer.address, ETH_TOKEN)) - relayerEthBefore;
  const relayerSpentStrk = relayerStrkBefore - (await balanceOf(stack, stack.relayer.address));
  expect(feePaid).toBe(relayerGot);
  expect(feePaid).toBeGreaterThan(0n);
  // The user signed the suggested maximum; what the relayer did not spend came back.
  expect(feePaid).toBeLessThan(BigInt(estimate.suggested_max_fee_in_gas_token));
  // What the relayer spent in STRK is covered by the ETH it was paid, at the listed price.
  expect(relayerSpentStrk).toBeGreaterThan(0n);
  expect(relayerSpentStrk).toBeLessThanOrEqual(feePaid * BigInt(ETH_PRICE_IN_STRK));
  // ...and the relayer keeps no more than the most its bounds allow: amounts +50%, prices +20%
  // of its simulation (which leaves out its own validation), + rounding to a wei.
  expect(feePaid * BigInt(ETH_PRICE_IN_STRK)).toBeLessThanOrEqual(
    (relayerSpentStrk * 180n) / 100n + BigInt(ETH_PRICE_IN_STRK),
  );
  // The relayer's transaction, not one of the user's, carries it.
  const tx = await stack.provider.getTransactionByHash(transaction_hash);
  expect(BigInt((tx as { sender_address: string }).sender_address)).toBe(
    BigInt(stack.relayer.address),
  );
});

it('then invokes the deployed account (SNIP-9 asked of the account), STRK still 0', async () => {
  const calls = [transfer(ETH_TOKEN, RECIPIENT, 5n), transfer(ETH_TOKEN, RECIPIENT, 7n)];
  const { transaction_hash } = await user.account.executePaymasterTransaction(calls, {
    feeMode: FEE_MODE,
  });
  expect((await receiptOf(stack, transaction_hash)).isSuccess()).toBe(true);
  expect(await balanceOf(stack, RECIPIENT, ETH_TOKEN)).toBe(1012n);
  expect(await balanceOf(stack, user.address)).toBe(0n);
});

it('takes STRK as a gas token at price 1', async () => {
  const payer = newArgentUser(stack);
  await stack.devnet.devnet.mint(BigInt(payer.address), 10n ** 17n, 'FRI');
  const calls = [transfer(STRK_TOKEN, RECIPIENT, 3n)];
  const details = {
    feeMode: { mode: 'default' as const, gasToken: STRK_TOKEN },
    deploymentData: payer.deploymentData,
  };
  const estimate = await payer.account.estimatePaymasterTransactionFee(calls, details);
  expect(estimate.gas_token_price_in_strk).toBe(10n ** 18n);
  expect(estimate.suggested_max_fee_in_gas_token).toBe(estimate.suggested_max_fee_in_strk);
  const { transaction_hash } = await payer.account.executePaymasterTransaction(calls, details);
  expect((await receiptOf(stack, transaction_hash)).isSuccess()).toBe(true);
  expect(await balanceOf(stack, payer.address)).toBeGreaterThanOrEqual(
    10n ** 17n - 3n - BigInt(estimate.suggested_max_fee_in_strk),
  );
});

it('refuses a token it does not list (151) and an account without enough of the gas token', async () => {
  const client = paymasterClient(stack);
  const transaction = {
    type: 'invoke' as const,
    invoke: { userAddress: user.address, calls: [transfer(ETH_TOKEN, RECIPIENT, 1n)] },
  };
  await expect(
    client.buildTransaction(transaction, {
      version: '0x1',
      feeMode: { mode: 'default', gasToken: '0x1234' },
    }),
  ).rejects.toMatchObject({
    baseError: { code: 151, message: 'An error occurred (TOKEN_NOT_SUPPORTED)' },
  });

  const poor = newArgentUser(stack);
  await mintEth(stack, poor.address, 1n);
  await expect(
    poor.account.executePaymasterTransaction([transfer(ETH_TOKEN, RECIPIENT, 1n)], {
      feeMode: FEE_MODE,
      deploymentData: poor.deploymentData,
    }),
  ).rejects.toMatchObject({ baseError: { code: 156 } });
  expect(await stack.provider.getClassHashAt(poor.address).catch(() => 'not deployed')).toBe(
    'not deployed',
  );
});

it("builds the typed data of the account's SNIP-9 version: 1 for Argent 0.3.1, 2 for OpenZeppelin", async () => {
  const calls = [transfer(ETH_TOKEN, RECIPIENT, 1n)];
  const argent = await user.account.buildPaymasterTransaction(calls, { feeMode: FEE_MODE });
  const oz = await predeployedUser(stack, 0).buildPaymasterTransaction(calls, {
    feeMode: FEE_MODE,
  });
  if (argent.type !== 'invoke' || oz.type !== 'invoke') throw new Error('not invoke');
  expect(argent.typed_data.domain).toEqual({
    name: 'Account.execute_from_outside',
    version: '1',
    chainId: constants.StarknetChainId.SN_SEPOLIA,
  });
  expect(argent.typed_data.types).toHaveProperty('OutsideCall');
  expect(oz.typed_data.domain).toEqual({
    name: 'Account.execute_from_outside',
    version: '2',
    chainId: constants.StarknetChainId.SN_SEPOLIA,
    revision: '1',
  });
  expect(oz.typed_data.primaryType).toBe('OutsideExecution');
  expect(Object.keys(oz.typed_data.message)).toEqual([
    'Caller',
    'Nonce',
    'Execute After',
    'Execute Before',
    'Calls',
  ]);
});
