/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_estimateFee, l2_executeTxn, l2_getErc20TokenBalance and l2_getTransactionStatus end to end:
 * the real snap bundle in snaps-jest against a packages/devnet node on this file's own port.
 * Balances, nonces and transactions are read back from the devnet with starknet.js; hashes are
 * recomputed with starknet.js's hash functions and signatures verified with @scure/starknet.
 */
import { getPublicKey, Signature, verify } from '@scure/starknet';
import { hash, transaction } from 'starknet';

import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import {
  approve,
  balanceOf,
  closeChain,
  decline,
  deployAccount,
  deployedSender,
  dialogOf,
  erc20Transfer,
  isDeployed,
  mintStrk,
  nodeReceipt,
  nodeTransaction,
  provider,
  serveE2eSnap,
  startChainDevnet,
  starknetJsAccount,
  storedRecords,
  STRK,
  submissions,
  TESTNET,
  v3HashArgs,
  type DevnetServer,
  type FeeEstimate,
  type RpcV3Fields,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

const ERC20_ABI = [
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'recipient', type: 'core::starknet::contract_address::ContractAddress' },
      { name: 'amount', type: 'core::integer::u256' },
    ],
    outputs: [{ type: 'core::bool' }],
    state_mutability: 'external',
  },
];

let devnet: DevnetServer;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;
let undeployed: ExpectedAccount;
const GENEROUS_BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
  l2_gas: { max_amount: '0x2000000', max_price_per_unit: '0x2540be400' },
  l1_data_gas: { max_amount: '0x400', max_price_per_unit: '0x2540be400' },
};
const RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde';

function transferCall(amount: bigint) {
  return erc20Transfer(RECIPIENT, amount);
}

async function execute(params: Record<string, unknown>) {
  return approve(snap.request({ method: 'l2_executeTxn', params: params as never }));
}

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Approves the dialogs of concurrent requests: snaps-simulation resolves every open dialog with
 * one click, so once `count` more simulations (the previews) reached the node and a moment has
 * passed for their dialogs to show, one click approves them all at once. A dialog a loaded
 * machine was still building then is approved when it shows, instead of waiting forever.
 */
async function approveAllAfter(pendings: ReturnType<Snap['request']>[], count: number) {
  const before = devnet.metrics.rpcCalls.starknet_simulateTransactions ?? 0;
  await waitFor(
    () => (devnet.metrics.rpcCalls.starknet_simulateTransactions ?? 0) >= before + count,
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const settled = new Set<number>();
  pendings.forEach((pending, i) => {
    void pending.then(
      () => settled.add(i),
      () => settled.add(i),
    );
  });
  const allSettled = Promise.allSettled(pendings).then(() => undefined);
  while (settled.size < pendings.length) {
    // The dialog shown now (asked of a request still open: one answered with an error has none).
    const waiting = pendings.find((_pending, i) => !settled.has(i))!;
    const dialog = await Promise.race([dialogOf(waiting).catch(() => undefined), allSettled]);
    if (dialog) await dialog.ok();
  }
  return Promise.all(pendings);
}

beforeAll(async () => {
  server = await serveE2eSnap();
  devnet = await startChainDevnet();
  undeployed = await expectedAccount(DEFAULT_SRP, 1);
  ({ snap, sender } = await deployedSender(server, devnet, {
    indexes: [0, 1, 2],
    alsoFund: [undeployed.address],
  }));
}, 300_000);

afterAll(() => closeChain(devnet, server));

describe('l2_estimateFee', () => {
  it('estimates a deployed account (base-10 strings, unit wei = FRI, includeDeploy false)', async () => {
    const fee = resultOf<FeeEstimate>(
      await snap.request({
        method: 'l2_estimateFee',
        params: { address: sender.address, invocations: [transferCall(1000n)] },
      }),
    );
    expect(fee.includeDeploy).toBe(false);
    expect(fee.unit).toBe('wei');
    for (const field of ['suggestedMaxFee', 'overallFee', 'gasConsumed', 'gasPrice'] as const) {
      expect(fee[field]).toMatch(/^[0-9]+$/u);
    }
    expect(BigInt(fee.suggestedMaxFee)).toBeGreaterThan(BigInt(fee.overallFee));
    expect(BigInt(fee.gasPrice)).toBe(BigInt(fee.overallFee) / BigInt(fee.gasConsumed));

    // The same invoke estimated by starknet.js's own Account against the devnet.
    const account = starknetJsAccount(devnet, sender);
    const direct = await account.estimateInvokeFee([transferCall(1000n)], { skipValidate: true });
    // starknet.js applies the same 50% margins to amounts and prices as the snap does.
    const bounds = direct.resourceBounds as unknown as Record<
      string,
      { max_amount: bigint; max_price_per_unit: bigint }
    >;
    const starknetJsMax = Object.values(bounds).reduce(
      (sum, bound) => sum + BigInt(bound.max_amount) * BigInt(bound.max_price_per_unit),
      0n,
    );
    expect(BigInt(fee.suggestedMaxFee)).toBe(starknetJsMax);
  });

  it('includes the deployment for an account that is not deployed', async () => {
    const deployOnly = resultOf<FeeEstimate>(
      await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 1 } }),
    );
    const fee = resultOf<FeeEstimate>(
      await snap.request({
        method: 'starkNet_estimateFee',
        params: { address: undeployed.address, invocations: [transferCall(5n)], chainId: TESTNET },
      }),
    );
    expect(fee.includeDeploy).toBe(true);
    expect(BigInt(fee.overallFee)).toBeGreaterThan(BigInt(deployOnly.overallFee));
    expect(await isDeployed(devnet, undeployed.address)).toBe(false);
  });

  it.each([
    [{ invocations: [transferCall(1n)] }, /"address" is required/u],
    [
      { address: '0x1', invocations: [] },
      /"address" is not an account of this snap|"invocations"/u,
    ],
    [{ address: 'nope', invocations: [transferCall(1n)] }, /"address"/u],
    [{ address: '0xabc', invocations: 'x' }, /"invocations"/u],
    [{ address: '0xabc', invocations: [{ entrypoint: 'x' }] }, /"invocations.0.contractAddress"/u],
    [{ address: '0xabc', invocations: [transferCall(1n)], chainId: '0x1' }, /"chainId"/u],
    [
      { address: '0xabc', invocations: [transferCall(1n)], details: { tip: 'x' } },
      /"details.tip"/u,
    ],
    [
      {
        address: '0xabc',
        invocations: [transferCall(1n)],
        details: { tip: (2n ** 64n).toString() },
      },
      /"details.tip".*u64/u,
    ],
  ])('rejects invalid params %j with -32602', async (params, message) => {
    expectError(await snap.request({ method: 'l2_estimateFee', params }), -32602, message);
  });

  it('reports a call the node cannot execute as a clear chain error', async () => {
    const response = await snap.request({
      method: 'l2_estimateFee',
      params: {
        address: sender.address,
        invocations: [{ contractAddress: STRK, entrypoint: 'no_such_entrypoint', calldata: [] }],
      },
    });
    expectError(response, -32003, /Fee estimation failed/u);
  });
});

describe('l2_executeTxn', () => {
  it('shows sender, network, decoded calls and max fee, sends, records, and returns the hash', async () => {
    const before = await balanceOf(devnet, STRK, RECIPIENT);
    const senderBefore = await balanceOf(devnet, STRK, sender.address);
    const pending = snap.request({
      method: 'l2_executeTxn',
      params: { address: sender.address, calls: [transferCall(12345n)], abis: ERC20_ABI },
    });
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    expect(text).toContain(sender.address);
    expect(text).toContain('Testnet');
    expect(text).toContain('transfer');
    expect(text).toContain('recipient (ContractAddress)');
    expect(text).toContain('amount (u256)');
    expect(text).toContain('12345');
    expect(text).toMatch(/Maximum fee \(total\)\n[0-9.]+ STRK \([0-9]+ FRI\)/u);
    expect(text).toMatch(/Nonce\n[0-9]+/u);
    // The names come from the token's class on chain (read by the snap), not the dapp's abis.
    expect(text).toContain("Argument names and types read from the contract's class on chain.");
    expect(text).not.toContain('supplied by the site');
    expect(text).toContain(
      `recipient (ContractAddress)\n0x${BigInt(RECIPIENT).toString(16).padStart(64, '0')}`,
    );
    await dialog.ok();
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(await pending);

    // On chain: the transfer happened and the sender paid the fee.
    expect(await balanceOf(devnet, STRK, RECIPIENT)).toBe(before + 12345n);
    const receipt = await nodeReceipt<{
      actual_fee: { amount: string; unit: string };
      execution_status: string;
    }>(devnet, txHash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(receipt.actual_fee.unit).toBe('FRI');
    expect(await balanceOf(devnet, STRK, sender.address)).toBe(
      senderBefore - 12345n - BigInt(receipt.actual_fee.amount),
    );

    // The hash is the v3 invoke hash starknet.js computes, and the signature verifies with
    // @scure/starknet against the account's derived key.
    const tx = await nodeTransaction<
      RpcV3Fields & {
        sender_address: string;
        calldata: string[];
        signature: string[];
        account_deployment_data: string[];
      }
    >(devnet, txHash);
    const recomputed = hash.calculateInvokeTransactionHash({
      senderAddress: tx.sender_address,
      compiledCalldata: transaction.getExecuteCalldata([transferCall(12345n)], '1'),
      accountDeploymentData: tx.account_deployment_data,
      ...v3HashArgs(tx),
    });
    expect(BigInt(recomputed)).toBe(BigInt(txHash));
    const [r, s] = tx.signature.map((value) => BigInt(value));
    expect(
      verify(
        new Signature(r, s),
        `0x${BigInt(txHash).toString(16)}`,
        getPublicKey(sender.privateKey, false),
      ),
    ).toBe(true);

    const records = await storedRecords(snap, sender.address);
    const record = records.find((item) => BigInt(item.txnHash) === BigInt(txHash));
    expect(record).toMatchObject({
      txnType: 'invoke',
      senderAddress: sender.address,
      contractAddress: STRK,
      contractFuncName: 'transfer',
      chainId: TESTNET,
      failureReason: null,
    });
    expect(['RECEIVED', 'PENDING', 'ACCEPTED_ON_L2']).toContain(record?.status);
  });

  it("accepts the production snap's names: senderAddress, txnInvocation, invocationsDetails", async () => {
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(
      await execute({
        senderAddress: sender.address,
        txnInvocation: transferCall(7n),
        invocationsDetails: { resourceBounds: GENEROUS_BOUNDS },
      }),
    );
    const tx = await nodeTransaction<RpcV3Fields & { sender_address: string; calldata: string[] }>(
      devnet,
      txHash,
    );
    expect(BigInt(tx.sender_address)).toBe(BigInt(sender.address));
    expect(BigInt(tx.resource_bounds.l2_gas.max_amount)).toBe(0x2000000n);
    expect(tx.calldata.map((felt) => BigInt(felt))).toEqual([
      1n,
      BigInt(STRK),
      BigInt(hash.getSelectorFromName('transfer')),
      3n,
      BigInt(RECIPIENT),
      7n,
      0n,
    ]);
    expectError(
      await snap.request({
        method: 'l2_executeTxn',
        params: {
          address: sender.address,
          calls: [transferCall(1n)],
          txnInvocation: [transferCall(2n)],
        },
      }),
      -32602,
      /"txnInvocation" must equal "calls"/u,
    );
    expectError(
      await snap.request({ method: 'l2_executeTxn', params: { senderAddress: sender.address } }),
      -32602,
      /"calls" is required.*"txnInvocation"/u,
    );
  });

  it('names the arguments from the class on chain without abis, and shows raw calldata that does not fit it', async () => {
    const named = snap.request({
      method: 'l2_executeTxn',
      params: { address: sender.address, calls: [transferCall(7n)] },
    });
    const namedDialog = await dialogOf(named);
    expect(dialogText(namedDialog.content)).toContain("read from the contract's class on chain");
    expect(dialogText(namedDialog.content)).toContain('amount (u256)\n7');
    await namedDialog.cancel();
    expectError(await named, 4001);

    // A felt too many: no ABI decodes it, so every felt is shown raw (bounds given: the node
    // would refuse to estimate it).
    const call = transferCall(7n);
    const pending = snap.request({
      method: 'l2_executeTxn',
      params: {
        address: sender.address,
        calls: [{ ...call, calldata: [...call.calldata, '0x9'] }],
        details: {
          resourceBounds: {
            l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
            l2_gas: { max_amount: '0x100000', max_price_per_unit: '0x1' },
            l1_data_gas: { max_amount: '0x100', max_price_per_unit: '0x1' },
          },
        },
      },
    });
    const dialog = await dialogOf(pending);
    expect(dialogText(dialog.content)).toContain('calldata[3]');
    await dialog.cancel();
    expectError(await pending, 4001);
  });

  it('honours details: nonce, resourceBounds, tip and paymasterData', async () => {
    const nonce = BigInt(
      await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed'),
    );
    const bounds = {
      l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
      l2_gas: { max_amount: '0x2000000', max_price_per_unit: '0x2540be400' },
      l1_data_gas: { max_amount: '0x400', max_price_per_unit: '0x2540be400' },
    };
    const result = await execute({
      address: sender.address,
      calls: [transferCall(1n)],
      details: {
        nonce: nonce.toString(),
        resourceBounds: bounds,
        tip: '7',
        paymasterData: ['0x1234'],
      },
    });
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(result);
    const tx = await nodeTransaction<{
      nonce: string;
      tip: string;
      paymaster_data: string[];
      resource_bounds: typeof bounds;
    }>(devnet, txHash);
    expect(BigInt(tx.nonce)).toBe(nonce);
    expect(BigInt(tx.tip)).toBe(7n);
    expect(tx.paymaster_data.map((felt) => BigInt(felt))).toEqual([0x1234n]);
    expect(BigInt(tx.resource_bounds.l2_gas.max_amount)).toBe(0x2000000n);
    expect(BigInt(tx.resource_bounds.l2_gas.max_price_per_unit)).toBe(0x2540be400n);
  });

  it('keeps the signed bounds within details.maxFee, and refuses a maxFee below the estimate', async () => {
    const fee = resultOf<FeeEstimate>(
      await snap.request({
        method: 'l2_estimateFee',
        params: { address: sender.address, invocations: [transferCall(2n)] },
      }),
    );
    const maxFee = (BigInt(fee.overallFee) * 11n) / 10n;
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(
      await execute({
        address: sender.address,
        calls: [transferCall(2n)],
        details: { maxFee: maxFee.toString() },
      }),
    );
    const tx = await nodeTransaction<{
      resource_bounds: Record<string, { max_amount: string; max_price_per_unit: string }>;
    }>(devnet, txHash);
    const signedMax = Object.values(tx.resource_bounds).reduce(
      (sum, bound) => sum + BigInt(bound.max_amount) * BigInt(bound.max_price_per_unit),
      0n,
    );
    expect(signedMax).toBeLessThanOrEqual(maxFee);

    const sent = submissions(devnet);
    expectError(
      await snap.request({
        method: 'l2_executeTxn',
        params: { address: sender.address, calls: [transferCall(2n)], details: { maxFee: '1' } },
      }),
      -32000,
      /maxFee.*below the estimated fee/u,
    );
    expect(submissions(devnet)).toBe(sent);
  });

  it('refuses details.resourceBounds whose maximum charge is above details.maxFee', async () => {
    const sent = submissions(devnet);
    expectError(
      await snap.request({
        method: 'l2_executeTxn',
        params: {
          address: sender.address,
          calls: [transferCall(2n)],
          details: { resourceBounds: GENEROUS_BOUNDS, maxFee: '1000' },
        },
      }),
      -32000,
      /"details.resourceBounds".*above "details.maxFee" 1000/u,
    );
    expect(submissions(devnet)).toBe(sent);
  });

  it('counts the tip within details.maxFee', async () => {
    const fee = resultOf<FeeEstimate>(
      await snap.request({
        method: 'l2_estimateFee',
        params: { address: sender.address, invocations: [transferCall(3n)] },
      }),
    );
    const tip = BigInt(fee.gasPrice) / 10n;
    expect(tip).toBeGreaterThan(0n);
    const maxFee = (BigInt(fee.overallFee) * 11n) / 10n + tip * BigInt(fee.gasConsumed);
    const pending = snap.request({
      method: 'l2_executeTxn',
      params: {
        address: sender.address,
        calls: [transferCall(3n)],
        details: { maxFee: maxFee.toString(), tip: tip.toString() },
      },
    });
    await (await dialogOf(pending)).ok();
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(await pending);
    const tx = await nodeTransaction<{
      tip: string;
      resource_bounds: Record<string, { max_amount: string; max_price_per_unit: string }>;
    }>(devnet, txHash);
    const signedMax = Object.values(tx.resource_bounds).reduce(
      (sum, bound) => sum + BigInt(bound.max_amount) * BigInt(bound.max_price_per_unit),
      0n,
    );
    expect(BigInt(tx.tip)).toBe(tip);
    expect(signedMax + tip * BigInt(tx.resource_bounds.l2_gas.max_amount)).toBeLessThanOrEqual(
      maxFee,
    );
  });

  it('fits deploy and invoke into a details.maxFee below their margined bounds', async () => {
    const fresh = await expectedAccount(DEFAULT_SRP, 7);
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 7 } }));
    await mintStrk(devnet, fresh.address, 10n ** 20n);
    const fee = resultOf<FeeEstimate>(
      await snap.request({
        method: 'l2_estimateFee',
        params: { address: fresh.address, invocations: [transferCall(4n)] },
      }),
    );
    expect(fee.includeDeploy).toBe(true);
    const maxFee = (BigInt(fee.overallFee) * 12n) / 10n;
    expect(maxFee).toBeLessThan(BigInt(fee.suggestedMaxFee));
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(
      await execute({
        address: fresh.address,
        calls: [transferCall(4n)],
        details: { maxFee: maxFee.toString() },
      }),
    );
    expect(await isDeployed(devnet, fresh.address)).toBe(true);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, txHash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const records = await storedRecords(snap, fresh.address);
    const deploy = records.find((record) => record.txnType === 'deploy_account');
    expect(deploy).toBeDefined();
    const charge = async (hash: string) => {
      const tx = await nodeTransaction<{
        resource_bounds: Record<string, { max_amount: string; max_price_per_unit: string }>;
      }>(devnet, hash);
      return Object.values(tx.resource_bounds).reduce(
        (sum, bound) => sum + BigInt(bound.max_amount) * BigInt(bound.max_price_per_unit),
        0n,
      );
    };
    expect((await charge(deploy!.txnHash)) + (await charge(txHash))).toBeLessThanOrEqual(maxFee);
  });

  it('estimates with validation when skipValidate is false', async () => {
    const estimate = async (skipValidate: boolean) =>
      resultOf<FeeEstimate>(
        await snap.request({
          method: 'l2_estimateFee',
          params: {
            address: sender.address,
            invocations: [transferCall(3n)],
            details: { skipValidate },
          },
        }),
      );
    const skip = await estimate(true);
    const full = await estimate(false);
    expect(BigInt(full.overallFee)).toBeGreaterThanOrEqual(BigInt(skip.overallFee));
    resultOf(
      await execute({
        address: sender.address,
        calls: [transferCall(3n)],
        details: { skipValidate: false },
      }),
    );
  });

  it('deploys an undeployed account first, then executes, recording both', async () => {
    const pending = snap.request({
      method: 'l2_executeTxn',
      params: { address: undeployed.address, calls: [transferCall(99n)] },
    });
    const dialog = await dialogOf(pending);
    expect(dialogText(dialog.content)).toMatch(/deployed first/u);
    await dialog.ok();
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(await pending);
    expect(await isDeployed(devnet, undeployed.address)).toBe(true);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, txHash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const records = await storedRecords(snap, undeployed.address);
    expect(records.map((record) => record.txnType).sort()).toEqual(['deploy_account', 'invoke']);
  });

  it('sends nothing and stores nothing when the user declines', async () => {
    const sent = submissions(devnet);
    const recordsBefore = await storedRecords(snap, sender.address);
    const nonceBefore = await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed');
    expectError(
      await decline(
        snap.request({
          method: 'l2_executeTxn',
          params: { address: sender.address, calls: [transferCall(5n)] },
        }),
      ),
      4001,
    );
    expect(submissions(devnet)).toBe(sent);
    expect(await storedRecords(snap, sender.address)).toEqual(recordsBefore);
    expect(await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed')).toBe(
      nonceBefore,
    );
  });

  it.each([
    [{ calls: [transferCall(1n)] }, /"address" is required/u],
    [{ address: '0x123', calls: [transferCall(1n)] }, /"address" is not an account of this snap/u],
    [{ address: '0xabc', calls: [] }, /"calls"/u],
    [
      { address: '0xabc', calls: [{ contractAddress: STRK, calldata: [] }] },
      /"calls.0.entrypoint"/u,
    ],
    [
      { address: '0xabc', calls: [{ contractAddress: STRK, entrypoint: 'x', calldata: ['zz'] }] },
      /"calls.0.calldata.0"/u,
    ],
    [{ address: '0xabc', calls: [transferCall(1n)], details: { nonce: -1 } }, /"details.nonce"/u],
    [
      { address: '0xabc', calls: [transferCall(1n)], details: { skipValidate: 'yes' } },
      /"details.skipValidate"/u,
    ],
    [
      { address: '0xabc', calls: [transferCall(1n)], details: { resourceBounds: { l1_gas: 1 } } },
      /"details.resourceBounds/u,
    ],
  ])('rejects invalid params %j with -32602', async (params, message) => {
    expectError(await snap.request({ method: 'l2_executeTxn', params }), -32602, message);
  });

  it('gives the address to fund and the amount when the account has too little STRK', async () => {
    const poor = await expectedAccount(DEFAULT_SRP, 2);
    await mintStrk(devnet, poor.address, 10n ** 15n);
    await deployAccount(snap, 2);
    const sent = submissions(devnet);
    const response = await snap.request({
      method: 'l2_executeTxn',
      params: {
        address: poor.address,
        calls: [transferCall(10n ** 15n)],
        details: {
          resourceBounds: {
            l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
            l2_gas: { max_amount: '0x10000000', max_price_per_unit: '0x2540be400' },
            l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          },
        },
      },
    });
    expectError(
      response,
      -32000,
      new RegExp(`fund the account ${poor.address} with at least .* STRK \\([0-9]+ FRI\\)`, 'u'),
    );
    expect(submissions(devnet)).toBe(sent);
  });

  it('records a reverted transaction as REJECTED with the revert reason', async () => {
    const balance = await balanceOf(devnet, STRK, sender.address);
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(
      // Given bounds skip the estimate (which would already fail), so the node includes it.
      await execute({
        address: sender.address,
        calls: [transferCall(balance * 2n)],
        details: { resourceBounds: GENEROUS_BOUNDS },
      }),
    );
    const status = resultOf<string>(
      await snap.request({
        method: 'l2_getTransactionStatus',
        params: { transactionHash: txHash },
      }),
    );
    expect(status).toBe('REJECTED');
    const record = (await storedRecords(snap, sender.address)).find(
      (item) => BigInt(item.txnHash) === BigInt(txHash),
    );
    expect(record?.status).toBe('REJECTED');
    const nodeStatus = (await provider(devnet).getTransactionStatus(txHash)) as {
      failure_reason?: string;
    };
    expect(record?.failureReason).toBeTruthy();
    expect(record?.failureReason).toBe(nodeStatus.failure_reason);
  });

  it('lands ten concurrently approved transactions with distinct nonces and ten records', async () => {
    const startNonce = BigInt(
      await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed'),
    );
    const recordsBefore = (await storedRecords(snap, sender.address)).length;
    const pendings = Array.from({ length: 10 }, (_unused, index) =>
      snap.request({
        method: 'l2_executeTxn',
        params: { address: sender.address, calls: [transferCall(BigInt(1000 + index))] },
      }),
    );
    const hashes = (await approveAllAfter(pendings, 10)).map(
      (response) => resultOf<{ transaction_hash: string }>(response).transaction_hash,
    );
    expect(new Set(hashes).size).toBe(10);
    const nonces = await Promise.all(
      hashes.map(async (txHash) =>
        BigInt((await nodeTransaction<{ nonce: string }>(devnet, txHash)).nonce),
      ),
    );
    expect(new Set(nonces.map(String)).size).toBe(10);
    expect([...nonces].sort((a, b) => Number(a - b))).toEqual(
      Array.from({ length: 10 }, (_unused, index) => startNonce + BigInt(index)),
    );
    for (const txHash of hashes) {
      const receipt = await nodeReceipt<{ execution_status: string }>(devnet, txHash);
      expect(receipt.execution_status).toBe('SUCCEEDED');
    }
    expect((await storedRecords(snap, sender.address)).length).toBe(recordsBefore + 10);
  });
});

describe('deploy-first under the account lock', () => {
  /** A fresh account of the snap at `index`, funded, not deployed. */
  async function fundedUndeployed(index: number): Promise<ExpectedAccount> {
    const account = await expectedAccount(DEFAULT_SRP, index);
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: index } }));
    await mintStrk(devnet, account.address, 10n ** 20n);
    return account;
  }

  it('two concurrent l2_executeTxn from an undeployed account: one deploy, nonces 1 and 2', async () => {
    const account = await fundedUndeployed(5);
    const deploysBefore = devnet.metrics.rpcCalls.starknet_addDeployAccountTransaction ?? 0;
    const pendings = [11n, 12n].map((amount) =>
      snap.request({
        method: 'l2_executeTxn',
        params: { address: account.address, calls: [transferCall(amount)] },
      }),
    );
    const responses = await approveAllAfter(pendings, 2);
    const hashes = responses.map(
      (response) => resultOf<{ transaction_hash: string }>(response).transaction_hash,
    );
    expect(devnet.metrics.rpcCalls.starknet_addDeployAccountTransaction ?? 0).toBe(
      deploysBefore + 1,
    );
    const nonces = await Promise.all(
      hashes.map(async (txHash) =>
        BigInt((await nodeTransaction<{ nonce: string }>(devnet, txHash)).nonce),
      ),
    );
    expect([...nonces].sort((a, b) => Number(a - b))).toEqual([1n, 2n]);
    for (const txHash of hashes) {
      const receipt = await nodeReceipt<{ execution_status: string }>(devnet, txHash);
      expect(receipt.execution_status).toBe('SUCCEEDED');
    }
    const records = await storedRecords(snap, account.address);
    expect(records.map((record) => record.txnType).sort()).toEqual([
      'deploy_account',
      'invoke',
      'invoke',
    ]);
  });

  it('l2_createAccount deploy and l2_executeTxn at once: one deploy, the invoke lands', async () => {
    const account = await fundedUndeployed(6);
    const deploysBefore = devnet.metrics.rpcCalls.starknet_addDeployAccountTransaction ?? 0;
    const pendings = [
      snap.request({ method: 'l2_createAccount', params: { addressIndex: 6, deploy: true } }),
      snap.request({
        method: 'l2_executeTxn',
        params: { address: account.address, calls: [transferCall(13n)] },
      }),
    ];
    const [created, executed] = await approveAllAfter(pendings, 2);
    const { transaction_hash: deployHash } = resultOf<{ transaction_hash: string }>(created);
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(executed);
    expect(devnet.metrics.rpcCalls.starknet_addDeployAccountTransaction ?? 0).toBe(
      deploysBefore + 1,
    );
    expect(await isDeployed(devnet, account.address)).toBe(true);
    expect(BigInt((await nodeTransaction<{ nonce: string }>(devnet, txHash)).nonce)).toBe(1n);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, txHash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const records = await storedRecords(snap, account.address);
    const deployRecords = records.filter((record) => record.txnType === 'deploy_account');
    expect(deployRecords).toHaveLength(1);
    expect(BigInt(deployRecords[0].txnHash)).toBe(BigInt(deployHash));
  });
});

describe('l2_getErc20TokenBalance', () => {
  it('returns latest and pending balances as hex u256, matching the devnet', async () => {
    const balance = resultOf<{ balanceLatest: string; balancePending: string }>(
      await snap.request({
        method: 'l2_getErc20TokenBalance',
        params: { tokenAddress: STRK, userAddress: RECIPIENT },
      }),
    );
    expect(balance.balanceLatest).toMatch(/^0x[0-9a-f]+$/u);
    expect(BigInt(balance.balanceLatest)).toBe(await balanceOf(devnet, STRK, RECIPIENT, 'latest'));
    expect(BigInt(balance.balancePending)).toBe(
      await balanceOf(devnet, STRK, RECIPIENT, 'pre_confirmed'),
    );
  });

  it.each([
    [{ userAddress: RECIPIENT }, /"tokenAddress" is required/u],
    [{ tokenAddress: STRK }, /"userAddress" is required/u],
    [{ tokenAddress: 'STRK', userAddress: RECIPIENT }, /"tokenAddress"/u],
    [{ tokenAddress: STRK, userAddress: RECIPIENT, chainId: 'x' }, /"chainId"/u],
  ])('rejects invalid params %j with -32602', async (params, message) => {
    expectError(await snap.request({ method: 'l2_getErc20TokenBalance', params }), -32602, message);
  });

  it('reports a token address with no contract as a clear chain error', async () => {
    expectError(
      await snap.request({
        method: 'l2_getErc20TokenBalance',
        params: { tokenAddress: '0x1234', userAddress: RECIPIENT },
      }),
      -32001,
      /contract not found/u,
    );
  });
});
