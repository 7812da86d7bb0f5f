/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * Transaction previews end to end: the real snap bundle in snaps-jest against a packages/devnet
 * node, reached through a recording proxy on the port the bundle was built for (so the tests see
 * every round trip and the exact transactions simulated). Balances are read straight from the
 * devnet before and after.
 */
import { installSnap } from '@metamask/snaps-jest';
import { Account, uint256 } from 'starknet';

import {
  deployToken,
  freePort,
  startCountingProxy,
  startDevnet,
  type CountingProxy,
} from '@l2wallet/testkit';
import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  installKeepingState,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import {
  approve,
  balanceOf,
  deployedSender,
  devnetPort,
  dialogOf,
  erc20Transfer,
  isDeployed,
  mintStrk,
  nodeTransaction,
  provider,
  serveE2eSnap,
  STRK,
  STRK_UNIT,
  starknetJsAccount,
  submissions,
  type DevnetServer,
  type Snap,
  type SnapServer,
  withoutMethod,
} from '../harness/devnet';

let devnet: DevnetServer;
let proxy: CountingProxy;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;
const RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde';
const MINUS = '\u2212';

beforeAll(async () => {
  devnet = await startDevnet<DevnetServer>({
    port: await freePort(),
    seed: 0,
    accounts: 2,
    blockTime: 0,
  });
  proxy = await startCountingProxy(new URL(devnet.rpcUrl).origin, { port: await devnetPort() });
  server = await serveE2eSnap();
  ({ snap, sender } = await deployedSender(server, devnet));
});

afterAll(async () => {
  await proxy?.stop();
  await devnet?.close();
  await server?.close();
});

afterEach(() => proxy.rewriteAnswers(undefined));

type Call = { contractAddress: string; entrypoint: string; calldata: string[] };

function execute(calls: Call[], details?: Record<string, unknown>) {
  return snap.request({
    method: 'l2_executeTxn',
    params: { address: sender.address, calls, ...(details ? { details } : {}) } as never,
  });
}

/**
 * Answers the dialog the request opens (approve or decline) and returns its text and the JSON-RPC
 * methods of each round trip before it: assertions come after, so a failed one leaves no dialog
 * open for the next test.
 */
async function answer(pending: ReturnType<typeof execute>, approved: boolean) {
  const dialog = await dialogOf(pending);
  const seen = { text: dialogText(dialog.content), before: proxy.requests() };
  await (approved ? dialog.ok() : dialog.cancel());
  return { ...seen, response: await pending };
}

const pad = (address: string): string => `0x${BigInt(address).toString(16).padStart(64, '0')}`;

/** The preview block of a dialog: from its heading to the fee row. */
function previewOf(text: string): string {
  const start = text.indexOf('Estimated changes');
  const end = text.indexOf('Fee\n', start);
  return text.slice(start, text.indexOf('\n', end + 4));
}

/** The predeployed account that is not the snap's (a pool, a spender). */
function other(): Account {
  const [, second] = devnet.predeployedAccounts;
  return new Account({
    provider: provider(devnet),
    address: second.address,
    signer: second.private_key,
  });
}

const u256 = (amount: bigint): string[] => {
  const { low, high } = uint256.bnToUint256(amount);
  return [`0x${BigInt(low).toString(16)}`, `0x${BigInt(high).toString(16)}`];
};

describe('l2_executeTxn previews (STRK route)', () => {
  it('shows the exact signed change of a transfer, from one simulation in the place of the estimate', async () => {
    // A first request reads the token's class once (kept for the snap's execution), as the
    // estimate's path did: the count below is a transfer's usual one.
    expectError((await answer(execute([erc20Transfer(RECIPIENT, 1n)]), false)).response, 4001);
    const balance = await balanceOf(devnet, STRK, sender.address);
    proxy.reset();
    const { text, before, response } = await answer(
      execute([erc20Transfer(RECIPIENT, (3n * STRK_UNIT) / 2n)]),
      true,
    );
    expect(previewOf(text)).toContain(`STRK\n${MINUS}1.5 STRK`);
    const max = /Fee\nup to (0\.\d+) STRK/u.exec(text)?.[1];
    expect(max).toBeDefined();
    const methods = before.flat();
    expect(methods.filter((method) => method === 'starknet_simulateTransactions')).toHaveLength(1);
    expect(methods).not.toContain('starknet_estimateFee');
    // The declined request read the nonce, so the simulation rides in the account batch at the
    // nonce the snap expects, beside the class hashes of the ABIs: one fewer than the estimate's 3.
    expect(before).toHaveLength(2);
    expect(before.find((batch) => batch.includes('starknet_getNonce'))).toContain(
      'starknet_simulateTransactions',
    );
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const receipt = (await provider(devnet).waitForTransaction(hash)) as unknown as {
      actual_fee: { amount: string };
    };
    const fee = BigInt(receipt.actual_fee.amount);
    const after = await balanceOf(devnet, STRK, sender.address);
    expect(balance - after).toBe((3n * STRK_UNIT) / 2n + fee);
    expect(Number(fee) / 1e18).toBeLessThanOrEqual(Number(max));
  });

  it('a nonce moved by another wallet with the same key: the guess is dropped, the preview is of the transaction signed', async () => {
    const elsewhere = starknetJsAccount(devnet, sender);
    const moved = await elsewhere.execute([erc20Transfer(RECIPIENT, 1n)]);
    await provider(devnet).waitForTransaction(moved.transaction_hash);
    const simulated: { nonce: string }[] = [];
    proxy.rewriteAnswers((result, request) => {
      for (const call of [request].flat() as { method: string; params: unknown }[]) {
        if (call.method === 'starknet_simulateTransactions') {
          simulated.push(...(call.params as { transactions: { nonce: string }[] }).transactions);
        }
      }
      return result;
    });
    proxy.reset();
    const { text, before, response } = await answer(
      execute([erc20Transfer(RECIPIENT, 2n * STRK_UNIT)]),
      true,
    );
    expect(previewOf(text)).toContain(`STRK\n${MINUS}2 STRK`);
    // The batch's simulation (at the stale nonce) is dropped; the one after it is used.
    expect(before).toHaveLength(3);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const sent = await nodeTransaction<{ nonce: string }>(devnet, hash);
    expect(simulated.map((tx) => BigInt(tx.nonce))).toEqual([
      BigInt(sent.nonce) - 1n,
      BigInt(sent.nonce),
    ]);
    const receipt = await provider(devnet).waitForTransaction(hash);
    expect(receipt.isSuccess()).toBe(true);
  });

  it("with the caller's nonce and bounds, the simulation rides in the account batch", async () => {
    const nonce = await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed');
    const details = {
      nonce,
      resourceBounds: {
        l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
        l2_gas: { max_amount: '0x2000000', max_price_per_unit: '0x2540be400' },
        l1_data_gas: { max_amount: '0x400', max_price_per_unit: '0x2540be400' },
      },
    };
    proxy.reset();
    const { text, before, response } = await answer(
      execute([erc20Transfer(RECIPIENT, 3n * STRK_UNIT)], details),
      true,
    );
    expect(previewOf(text)).toContain(`STRK\n${MINUS}3 STRK`);
    // The account batch (with the simulation), the class hashes of the ABIs: no estimate needed.
    expect(before).toHaveLength(2);
    expect(before.find((batch) => batch.includes('starknet_getNonce'))).toContain(
      'starknet_simulateTransactions',
    );
    resultOf(response);
  });

  it('simulates the very transaction it signs: same sender and calldata as the one submitted', async () => {
    const simulated: unknown[] = [];
    proxy.rewriteAnswers((result, request) => {
      for (const call of [request].flat() as { method: string; params: unknown }[]) {
        if (call.method === 'starknet_simulateTransactions') simulated.push(call.params);
      }
      return result;
    });
    const { response } = await answer(
      execute([erc20Transfer(RECIPIENT, 7n), erc20Transfer(sender.address, 9n)]),
      true,
    );
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const sent = await nodeTransaction<{ calldata: string[]; sender_address: string }>(
      devnet,
      hash,
    );
    expect(simulated).toHaveLength(1);
    const [query] = (simulated[0] as { transactions: (typeof sent)[] }).transactions;
    expect(query.calldata.map(BigInt)).toEqual(sent.calldata.map(BigInt));
    expect(BigInt(query.sender_address)).toBe(BigInt(sent.sender_address));
  });

  it('shows a swap-like two-token call: one token out, the other in', async () => {
    const pool = other();
    const tokenA = pad(
      await deployToken(devnet.rpcUrl, {
        name: 'Alpha',
        symbol: 'ALPHA',
        decimals: 18,
        supply: 10n * STRK_UNIT,
        recipient: sender.address,
      }),
    );
    const tokenB = pad(
      await deployToken(devnet.rpcUrl, {
        name: 'Beta',
        symbol: 'BETA',
        decimals: 6,
        supply: 1_000_000_000n,
        recipient: pool.address,
      }),
    );
    const approval = await pool.execute({
      contractAddress: tokenB,
      entrypoint: 'approve',
      calldata: [sender.address, ...u256(250_000_000n)],
    });
    await provider(devnet).waitForTransaction(approval.transaction_hash);
    const { text, response } = await answer(
      execute([
        erc20Transfer(pool.address, 2n * STRK_UNIT, tokenA),
        {
          contractAddress: tokenB,
          entrypoint: 'transfer_from',
          calldata: [pool.address, sender.address, ...u256(250_000_000n)],
        },
      ]),
      true,
    );
    const preview = previewOf(text);
    expect(preview).toContain(`ALPHA (${tokenA}, not in your token list)\n${MINUS}2 ALPHA`);
    expect(preview).toContain(`BETA (${tokenB}, not in your token list)\n+250 BETA`);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    await provider(devnet).waitForTransaction(hash);
    expect(await balanceOf(devnet, tokenA, sender.address)).toBe(8n * STRK_UNIT);
    expect(await balanceOf(devnet, tokenB, sender.address)).toBe(250_000_000n);
  });

  it('shows what an approve lets the spender take: an amount, or unlimited', async () => {
    const spender = pad(other().address);
    const approveCall = (amount: bigint): Call => ({
      contractAddress: STRK,
      entrypoint: 'approve',
      calldata: [spender, ...u256(amount)],
    });
    const limited = await answer(execute([approveCall(10n * STRK_UNIT)]), false);
    expect(previewOf(limited.text)).toContain(`Approval\nlets ${spender} spend 10 STRK`);
    expect(previewOf(limited.text)).toContain('No token balance changes besides the fee.');
    const unlimited = await answer(execute([approveCall(2n ** 256n - 1n)]), false);
    expect(previewOf(unlimited.text)).toContain(
      `lets ${spender} spend an unlimited amount of STRK`,
    );
    expectError(unlimited.response, 4001);
  });

  it('warns of a transfer that reverts, with the reason; declining sends nothing', async () => {
    const balance = await balanceOf(devnet, STRK, sender.address, 'pre_confirmed');
    const sent = submissions(devnet);
    const { text, response } = await answer(
      execute([erc20Transfer(RECIPIENT, 1000n * STRK_UNIT)]),
      false,
    );
    expect(text).toContain('This transaction is expected to fail');
    expect(text).toContain('The simulation reverted: ERC20: insufficient balance.');
    expectError(response, 4001);
    expect(submissions(devnet)).toBe(sent);
    expect(await balanceOf(devnet, STRK, sender.address, 'pre_confirmed')).toBe(balance);
  });

  it('cannot be made to show a listed token for a contract that only calls itself STRK', async () => {
    const fake = pad(
      await deployToken(devnet.rpcUrl, {
        name: 'Starknet Token',
        symbol: 'STRK',
        decimals: 18,
        supply: 5n * STRK_UNIT,
        recipient: sender.address,
        salt: '0xfa4e',
      }),
    );
    const { text, response } = await answer(
      execute([erc20Transfer(RECIPIENT, STRK_UNIT, fake)]),
      false,
    );
    const preview = previewOf(text);
    expect(preview).toContain(`STRK (${fake}, not in your token list)\n${MINUS}1 STRK`);
    // The real STRK moves only by the fee, which is shown apart.
    expect(preview).not.toMatch(/\nSTRK\n/u);
    expectError(response, 4001);
  });

  it('says "preview unavailable" and why when the node cannot simulate, and still sends', async () => {
    proxy.rewriteAnswers(withoutMethod('starknet_simulateTransactions'));
    const balance = await balanceOf(devnet, STRK, RECIPIENT);
    const { text, response } = await answer(execute([erc20Transfer(RECIPIENT, 5n)]), true);
    expect(text).toContain('Preview unavailable');
    expect(text).toMatch(/did not simulate it: Method not found/u);
    expect(text).not.toContain(`${MINUS}0.000000000000000005 STRK`);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    await provider(devnet).waitForTransaction(hash);
    expect(await balanceOf(devnet, STRK, RECIPIENT)).toBe(balance + 5n);
  });
});

describe('previews of deployments (STRK route)', () => {
  /** The snap's account at `index`, funded with 10 STRK, not deployed. */
  async function fundedUndeployed(index: number): Promise<ExpectedAccount> {
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: index } }));
    const account = await expectedAccount(DEFAULT_SRP, index);
    await mintStrk(devnet, account.address, 10n * STRK_UNIT);
    return account;
  }

  it('l2_createAccount deploy: true shows the deployment changes no balance but the fee', async () => {
    const account = await fundedUndeployed(1);
    const pending = snap.request({
      method: 'l2_createAccount',
      params: { addressIndex: 1, deploy: true },
    });
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    await dialog.ok();
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(await pending);
    expect(text).toContain('Deploy account');
    expect(previewOf(text)).toContain('No token balance changes besides the fee.');
    const max = Number(/Fee\nup to (0\.\d+) STRK/u.exec(text)?.[1]);
    await provider(devnet).waitForTransaction(hash);
    expect(await isDeployed(devnet, account.address)).toBe(true);
    const paid = 10n * STRK_UNIT - (await balanceOf(devnet, STRK, account.address));
    expect(paid).toBeGreaterThan(0n);
    expect(Number(paid) / 1e18).toBeLessThanOrEqual(max);
  });

  it('previews a first transaction with the deployment riding along', async () => {
    const account = await fundedUndeployed(2);
    const { text, response } = await answer(
      snap.request({
        method: 'l2_executeTxn',
        params: { address: account.address, calls: [erc20Transfer(RECIPIENT, STRK_UNIT)] },
      }),
      true,
    );
    expect(text).toContain('Account deployment included');
    expect(previewOf(text)).toContain(`STRK\n${MINUS}1 STRK`);
    const max = Number(/Fee\nup to (0\.\d+) STRK/u.exec(text)?.[1]);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    await provider(devnet).waitForTransaction(hash);
    expect(await isDeployed(devnet, account.address)).toBe(true);
    const spent = 10n * STRK_UNIT - (await balanceOf(devnet, STRK, account.address));
    // The transfer, and the fees of both transactions, within the most the preview showed.
    expect(spent).toBeGreaterThan(STRK_UNIT);
    expect(Number(spent - STRK_UNIT) / 1e18).toBeLessThanOrEqual(max);
  });
});

describe("a fresh execution (STRK route): the nonce kept with the snap's last transaction", () => {
  /** The nonces of the transactions of each starknet_simulateTransactions since the last reset. */
  let simulated: bigint[][] = [];
  /** The state the snap stored after a transfer, and the account's nonce after it. */
  let stored: Parameters<typeof installKeepingState>[1];
  let kept: bigint;

  beforeAll(async () => {
    // Installed afresh (the file's snap stops running): it sends one transfer and stores it.
    const sending = await installKeepingState(server.snapId);
    resultOf(
      await sending.snap.request({ method: 'l2_createAccount', params: { addressIndex: 0 } }),
    );
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(
      await approve(
        sending.snap.request({
          method: 'l2_executeTxn',
          params: { address: sender.address, calls: [erc20Transfer(RECIPIENT, 1n)] },
        }),
      ),
    );
    await provider(devnet).waitForTransaction(hash);
    kept = BigInt((await nodeTransaction<{ nonce: string }>(devnet, hash)).nonce) + 1n;
    stored = sending.stored();
  });

  beforeEach(() => {
    simulated = [];
    proxy.rewriteAnswers((result, request) => {
      for (const call of [request].flat() as { method: string; params: unknown }[]) {
        if (call.method === 'starknet_simulateTransactions') {
          const { transactions } = call.params as { transactions: { nonce: string }[] };
          simulated.push(transactions.map((tx) => BigInt(tx.nonce)));
        }
      }
      return result;
    });
  });

  /** A transfer of `amount` STRK units from a fresh execution over `stored`, approved. */
  async function freshTransfer(amount: bigint) {
    // Installed afresh over the stored state: an execution that has read nothing, as after
    // MetaMask stopped the idle snap.
    const restarted = await installSnap(server.snapId as never, { options: { state: stored } });
    const balance = await balanceOf(devnet, STRK, RECIPIENT);
    proxy.reset();
    const seen = await answer(
      restarted.request({
        method: 'l2_executeTxn',
        params: { address: sender.address, calls: [erc20Transfer(RECIPIENT, amount)] },
      }),
      true,
    );
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(seen.response);
    const receipt = await provider(devnet).waitForTransaction(hash);
    expect(receipt.isSuccess()).toBe(true);
    expect(await balanceOf(devnet, STRK, RECIPIENT)).toBe(balance + amount);
    return seen;
  }

  it('the simulation rides in the account batch at the kept nonce: one round trip fewer', async () => {
    const { text, before } = await freshTransfer(11n);
    expect(previewOf(text)).toContain(`STRK\n${MINUS}0.000000000000000011 STRK`);
    // The account batch with the simulation, and the class hash and class of the ABI (read once
    // per execution): no simulation after the batch.
    expect(before).toHaveLength(3);
    expect(before.find((batch) => batch.includes('starknet_getNonce'))).toContain(
      'starknet_simulateTransactions',
    );
    expect(simulated).toEqual([[kept]]);
  });

  it('a nonce moved since it was kept (as by another wallet with the same key): dropped, simulated again, and the transfer goes', async () => {
    // The transfer above moved the nonce past the one kept in `stored`, as another wallet would.
    const { before } = await freshTransfer(12n);
    expect(before).toHaveLength(4);
    expect(simulated).toEqual([[kept], [kept + 1n]]);
  });
});
