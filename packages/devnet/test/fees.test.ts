import {
  Account,
  CallData,
  ec,
  hash,
  num,
  RpcError,
  stark,
  TransactionType as ETransactionType,
} from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH, GAS_PRICES, STRK_TOKEN_ADDRESS } from '../src';
import { rpc, startTestDevnet, strkBalance, TestDevnet, transferCall, WAIT } from './helpers';

interface FeeEstimate {
  l1_gas_consumed: string;
  l1_gas_price: string;
  l2_gas_consumed: string;
  l2_gas_price: string;
  l1_data_gas_consumed: string;
  l1_data_gas_price: string;
  overall_fee: string;
  unit: string;
}

async function estimateRaw(t: TestDevnet, signed: object, flags: string[]): Promise<FeeEstimate> {
  const reply = await rpc(t.devnet.rpcUrl, 'starknet_estimateFee', {
    request: [signed],
    simulation_flags: flags,
    block_id: 'pre_confirmed',
  });
  if (reply.error) throw new Error(JSON.stringify(reply.error));
  return (reply.result as FeeEstimate[])[0];
}

interface Receipt {
  actual_fee: { amount: string; unit: string };
  execution_status: string;
  revert_reason?: string;
  execution_resources: { l1_gas: number; l1_data_gas: number; l2_gas: number };
}

describe('fees in STRK (FRI)', () => {
  let t: TestDevnet;
  beforeAll(async () => {
    t = await startTestDevnet();
  });
  afterAll(() => t.devnet.close());

  test('the estimate (with SKIP_VALIDATE, as starknet.js sends it) equals the fee charged', async () => {
    const sender = t.account(0);
    const recipient = t.devnet.predeployedAccounts[1].address;
    const signed = await sender.getSignedTransaction(transferCall(recipient, 77n), { tip: 0 });
    const skip = await estimateRaw(t, signed, ['SKIP_VALIDATE']);
    const full = await estimateRaw(t, signed, []);
    // Validation is always costed, so skipping the signature check does not change the estimate.
    expect(full).toEqual(skip);
    expect(skip.unit).toBe('FRI');
    expect(BigInt(skip.l2_gas_price)).toBe(GAS_PRICES.l2Gas.fri);
    expect(BigInt(skip.l1_data_gas_price)).toBe(GAS_PRICES.l1DataGas.fri);
    const overall = BigInt(skip.overall_fee);
    expect(overall).toBe(
      BigInt(skip.l1_gas_consumed) * BigInt(skip.l1_gas_price) +
        BigInt(skip.l2_gas_consumed) * BigInt(skip.l2_gas_price) +
        BigInt(skip.l1_data_gas_consumed) * BigInt(skip.l1_data_gas_price),
    );
    // starknet.js signed bounds with its 50% overhead on top of this node's estimate.
    expect(BigInt(signed.resource_bounds.l2_gas.max_amount)).toBe(
      (BigInt(skip.l2_gas_consumed) * 150n) / 100n,
    );

    const before = await strkBalance(t.provider, sender.address);
    const sent = await rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', {
      invoke_transaction: signed,
    });
    const { transaction_hash } = sent.result as { transaction_hash: string };
    const receipt = (await t.provider.waitForTransaction(transaction_hash, WAIT))
      .value as unknown as Receipt;
    expect(receipt.actual_fee.unit).toBe('FRI');
    expect(BigInt(receipt.actual_fee.amount)).toBe(overall);
    expect(BigInt(receipt.execution_resources.l2_gas)).toBe(BigInt(skip.l2_gas_consumed));
    expect(BigInt(receipt.execution_resources.l1_data_gas)).toBe(BigInt(skip.l1_data_gas_consumed));
    expect(await strkBalance(t.provider, sender.address)).toBe(before - 77n - overall);
  });

  test('starknet.js Account.estimateInvokeFee works and covers the real fee', async () => {
    const sender = t.account(0);
    const call = transferCall(t.devnet.predeployedAccounts[1].address, 5n);
    const estimate = await sender.estimateInvokeFee(call);
    expect(estimate.unit).toBe('FRI');
    const result = await sender.execute(call);
    const receipt = (await t.provider.waitForTransaction(result.transaction_hash, WAIT))
      .value as unknown as Receipt;
    expect(BigInt(receipt.actual_fee.amount)).toBeLessThanOrEqual(estimate.overall_fee);
  });

  test('a tip is paid per unit of L2 gas on top of the base price', async () => {
    const sender = t.account(2);
    const signed = await sender.getSignedTransaction(
      transferCall(t.devnet.predeployedAccounts[1].address, 5n),
      {
        tip: 10,
      },
    );
    const estimate = await estimateRaw(t, signed, ['SKIP_VALIDATE']);
    const sent = await rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', {
      invoke_transaction: signed,
    });
    const { transaction_hash } = sent.result as { transaction_hash: string };
    const receipt = (await t.provider.waitForTransaction(transaction_hash, WAIT))
      .value as unknown as Receipt;
    expect(BigInt(receipt.actual_fee.amount)).toBe(
      BigInt(estimate.overall_fee) + 10n * BigInt(estimate.l2_gas_consumed),
    );
  });

  test('a failing call is included as REVERTED: nonce bumped, fee charged, nothing else changes', async () => {
    const sender = t.account(3);
    const recipient = t.devnet.predeployedAccounts[4].address;
    const nonceBefore = BigInt(await t.provider.getNonceForAddress(sender.address));
    const balanceBefore = await strkBalance(t.provider, sender.address);
    const recipientBefore = await strkBalance(t.provider, recipient);
    const result = await sender.execute(
      [transferCall(recipient, 1n), transferCall(recipient, 10n ** 30n)],
      {
        resourceBounds: {
          l1_gas: { max_amount: 0n, max_price_per_unit: GAS_PRICES.l1Gas.fri },
          l2_gas: { max_amount: 3_000_000n, max_price_per_unit: GAS_PRICES.l2Gas.fri },
          l1_data_gas: { max_amount: 3_000n, max_price_per_unit: GAS_PRICES.l1DataGas.fri },
        },
      },
    );
    const txReceipt = await t.provider.waitForTransaction(result.transaction_hash, WAIT);
    expect(txReceipt.isReverted()).toBe(true);
    const receipt = txReceipt.value as unknown as Receipt;
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toBe('ERC20: insufficient balance');
    const fee = BigInt(receipt.actual_fee.amount);
    expect(fee).toBeGreaterThan(0n);
    expect(BigInt(await t.provider.getNonceForAddress(sender.address))).toBe(nonceBefore + 1n);
    expect(await strkBalance(t.provider, sender.address)).toBe(balanceBefore - fee);
    // The first transfer of the multicall is rolled back with the rest.
    expect(await strkBalance(t.provider, recipient)).toBe(recipientBefore);
    const status = await t.provider.getTransactionStatus(result.transaction_hash);
    expect(status).toEqual({
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'REVERTED',
      failure_reason: 'ERC20: insufficient balance',
    });
  });

  test('bounds below the gas actually used revert the calls and charge the gas of the transaction without its calls', async () => {
    const sender = t.account(3);
    const recipient = t.devnet.predeployedAccounts[4].address;
    const nonceBefore = BigInt(await t.provider.getNonceForAddress(sender.address));
    const balanceBefore = await strkBalance(t.provider, sender.address);
    const recipientBefore = await strkBalance(t.provider, recipient);
    const signed = await sender.getSignedTransaction(
      transferCall(t.devnet.predeployedAccounts[4].address, 1n),
    );
    const estimate = await estimateRaw(t, signed, ['SKIP_VALIDATE']);
    const tight = {
      l1_gas: { max_amount: 0n, max_price_per_unit: GAS_PRICES.l1Gas.fri },
      l2_gas: {
        max_amount: BigInt(estimate.l2_gas_consumed) - 1n,
        max_price_per_unit: GAS_PRICES.l2Gas.fri,
      },
      l1_data_gas: { max_amount: 10_000n, max_price_per_unit: GAS_PRICES.l1DataGas.fri },
    };
    const result = await sender.execute(transferCall(t.devnet.predeployedAccounts[4].address, 1n), {
      resourceBounds: tight,
    });
    const receipt = (await t.provider.waitForTransaction(result.transaction_hash, WAIT))
      .value as unknown as Receipt;
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toMatch(/^Insufficient max L2Gas/);
    // The fee is that of validation and the fixed costs (the calls are dropped): within the
    // bounds, below the fee of the whole transaction, and charged with the nonce bump.
    const fee = BigInt(receipt.actual_fee.amount);
    const maxFee =
      tight.l1_gas.max_amount * tight.l1_gas.max_price_per_unit +
      tight.l2_gas.max_amount * tight.l2_gas.max_price_per_unit +
      tight.l1_data_gas.max_amount * tight.l1_data_gas.max_price_per_unit;
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThanOrEqual(maxFee);
    expect(fee).toBeLessThan(BigInt(estimate.overall_fee));
    expect(BigInt(receipt.execution_resources.l2_gas)).toBeLessThanOrEqual(tight.l2_gas.max_amount);
    expect(BigInt(await t.provider.getNonceForAddress(sender.address))).toBe(nonceBefore + 1n);
    expect(await strkBalance(t.provider, sender.address)).toBe(balanceBefore - fee);
    expect(await strkBalance(t.provider, recipient)).toBe(recipientBefore);
  });

  test('simulateTransactions returns a trace and the fee estimation; nothing is kept', async () => {
    const sender = t.account(5);
    const signed = await sender.getSignedTransaction(
      transferCall(t.devnet.predeployedAccounts[1].address, 9n),
    );
    const reply = await rpc(t.devnet.rpcUrl, 'starknet_simulateTransactions', {
      block_id: 'pre_confirmed',
      transactions: [signed],
      simulation_flags: [],
    });
    const [simulation] = reply.result as {
      transaction_trace: {
        type: string;
        execute_invocation: { calls: { entry_point_selector: string; events: unknown[] }[] };
        validate_invocation: { result: string[] };
        fee_transfer_invocation: { contract_address: string };
        state_diff: { nonces: { contract_address: string; nonce: string }[] };
      };
      fee_estimation: FeeEstimate;
    }[];
    const trace = simulation.transaction_trace;
    expect(trace.type).toBe('INVOKE');
    expect(trace.execute_invocation.calls[0].entry_point_selector).toBe(
      num.toHex(hash.getSelectorFromName('transfer')),
    );
    expect(trace.execute_invocation.calls[0].events).toHaveLength(1);
    expect(trace.validate_invocation.result).toEqual(['0x56414c4944']);
    expect(num.toHex(trace.fee_transfer_invocation.contract_address)).toBe(
      num.toHex(STRK_TOKEN_ADDRESS),
    );
    expect(trace.state_diff.nonces).toEqual([
      { contract_address: num.toHex(sender.address), nonce: '0x1' },
    ]);
    expect(BigInt(simulation.fee_estimation.overall_fee)).toBeGreaterThan(0n);
    expect(await t.provider.getNonceForAddress(sender.address)).toBe('0x0');
    // starknet.js's own simulate helper parses it too.
    const parsed = await sender.simulateTransaction([
      {
        type: ETransactionType.INVOKE,
        payload: transferCall(t.devnet.predeployedAccounts[1].address, 9n),
      },
    ]);
    expect(parsed.simulated_transactions).toHaveLength(1);
  });

  test('traceTransaction and traceBlockTransactions return the executed call tree', async () => {
    const sender = t.account(6);
    const result = await sender.execute(transferCall(t.devnet.predeployedAccounts[1].address, 4n));
    const receipt = await t.provider.waitForTransaction(result.transaction_hash, WAIT);
    const trace = (await t.provider.getTransactionTrace(result.transaction_hash)) as unknown as {
      type: string;
      execute_invocation: {
        contract_address: string;
        calls: { contract_address: string; result: string[] }[];
      };
      fee_transfer_invocation: { calldata: string[] };
    };
    expect(trace.type).toBe('INVOKE');
    expect(trace.execute_invocation.contract_address).toBe(num.toHex(sender.address));
    expect(trace.execute_invocation.calls[0]).toMatchObject({
      contract_address: num.toHex(STRK_TOKEN_ADDRESS),
      result: ['0x1'],
    });
    const fee = (receipt.value as unknown as { actual_fee: { amount: string } }).actual_fee.amount;
    expect(trace.fee_transfer_invocation.calldata[1]).toBe(fee);
    const blockNumber = (receipt.value as unknown as { block_number: number }).block_number;
    const blockTraces = (await t.provider.getBlockTransactionsTraces(blockNumber)) as unknown as {
      transaction_hash: string;
    }[];
    expect(blockTraces.map((b) => b.transaction_hash)).toEqual([result.transaction_hash]);
  });

  test('estimateFeeBulk for an undeployed account: deploy_account then invoke, as one sequence', async () => {
    const privateKey = stark.randomAddress();
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const constructorCalldata = CallData.compile([publicKey, 0]);
    const address = hash.calculateContractAddressFromHash(
      publicKey,
      ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata,
      0,
    );
    const fund = await t.account(0).execute(transferCall(address, 10n ** 18n));
    await t.provider.waitForTransaction(fund.transaction_hash, WAIT);
    const argent = new Account({
      provider: t.provider,
      address,
      signer: privateKey,
      cairoVersion: '1',
    });
    const [deployEstimate, invokeEstimate] = await argent.estimateFeeBulk([
      {
        type: ETransactionType.DEPLOY_ACCOUNT,
        payload: {
          classHash: ARGENT_ACCOUNT_CLASS_HASH,
          constructorCalldata,
          addressSalt: publicKey,
          contractAddress: address,
        },
      },
      {
        type: ETransactionType.INVOKE,
        payload: transferCall(t.devnet.predeployedAccounts[1].address, 1n),
      },
    ]);
    expect(deployEstimate.overall_fee).toBeGreaterThan(0n);
    expect(invokeEstimate.overall_fee).toBeGreaterThan(0n);
    // Then for real, each charged no more than its estimate (which carries starknet.js's overhead).
    const deployed = await argent.deployAccount({
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata,
      addressSalt: publicKey,
    });
    const deployReceipt = (await t.provider.waitForTransaction(deployed.transaction_hash, WAIT))
      .value as unknown as Receipt;
    expect(BigInt(deployReceipt.actual_fee.amount)).toBeLessThanOrEqual(deployEstimate.overall_fee);
  });

  test('an account that cannot cover its bounds is refused with 54 before anything runs', async () => {
    const sender = t.account(8);
    // Move almost everything away, keeping less than a transfer's max fee.
    const balance = await strkBalance(t.provider, sender.address);
    const estimate = await sender.estimateInvokeFee(
      transferCall(t.devnet.predeployedAccounts[1].address, 1n),
    );
    const drain = await sender.execute(
      transferCall(t.devnet.predeployedAccounts[1].address, balance - estimate.overall_fee),
    );
    await t.provider.waitForTransaction(drain.transaction_hash, WAIT);
    const error = await sender
      .execute(transferCall(t.devnet.predeployedAccounts[1].address, 1n))
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(54);
  });
});
