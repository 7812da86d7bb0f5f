/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * Previews and the SNIP-29 tip on the paymaster route (`details.feeMode`), end to end: the real
 * snap bundle in snaps-jest, Testnet at this file's devnet (reached through a recording
 * pass-through on the port the bundle was built for, so the tests see the snap's own node round
 * trips; the paymaster talks to the devnet directly), its paymaster packages/paymaster's
 * l2-paymaster (ETH a gas token at 2500 STRK) behind a recording pass-through. Balances are read
 * from the devnet before and after.
 */
import {
  freePort,
  mintEth,
  startCountingProxy,
  startDevnet,
  startDevnetPaymaster,
  type CountingProxy,
  type DevnetPaymaster,
} from '@l2wallet/testkit';

import { installSnap } from '@metamask/snaps-jest';
import type { Json } from '@metamask/snaps-sdk';

import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  grantedState,
  installKeepingState,
  resultOf,
} from '../harness/snap';
import {
  approve,
  balanceOf,
  closeChain,
  devnetPort,
  devnetRpc,
  dialogOf,
  ETH,
  erc20Transfer,
  installChainSnap,
  mintStrk,
  nodeReceipt,
  nodeTransaction,
  serveE2eSnap,
  starknetJsAccount,
  STRK,
  STRK_UNIT,
  submissions,
  type DevnetServer,
  type Snap,
  type SnapServer,
  withoutMethod,
} from '../harness/devnet';

const ONE_ETH = 10n ** 18n;
const RECIPIENT = '0x0123456789abcdef';
const FEE_IN_ETH = { mode: 'default', gasToken: ETH };
const MINUS = '\u2212';

let devnet: DevnetServer;
let paymaster: DevnetPaymaster;
let proxy: CountingProxy;
/** The snap's node: every round trip it makes to the devnet. */
let node: CountingProxy;
let server: SnapServer;
let snap: Snap;
let address: string;
/** The params of every paymaster request since the last reset. */
let sentToPaymaster: { method: string; params: Record<string, unknown> }[] = [];

beforeAll(async () => {
  devnet = await startDevnet<DevnetServer>({
    port: await freePort(),
    seed: 0,
    accounts: 2,
    blockTime: 0,
  });
  node = await startCountingProxy(new URL(devnet.rpcUrl).origin, { port: await devnetPort() });
  paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
    gasTokens: [{ address: ETH, priceInStrk: '2500' }],
  });
  proxy = await startCountingProxy(paymaster.url);
  proxy.rewriteAnswers((answer, request) => {
    sentToPaymaster.push(...([request].flat() as typeof sentToPaymaster));
    return answer;
  });
  server = await serveE2eSnap({ paymasterUrl: proxy.url });
  snap = await installChainSnap(server.snapId);
  resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 0 } }));
  ({ address } = await expectedAccount(DEFAULT_SRP, 0));
  await mintEth(devnet.rpcUrl, address, ONE_ETH);
});

afterAll(async () => {
  await node?.stop();
  await proxy?.stop();
  await paymaster?.stop();
  await closeChain(devnet, server);
});

beforeEach(() => {
  sentToPaymaster = [];
});

afterEach(() => node.rewriteAnswers(undefined));

function send(amount: bigint, details: Record<string, unknown> = {}) {
  return snap.request({
    method: 'l2_executeTxn',
    params: {
      address,
      calls: [erc20Transfer(RECIPIENT, amount, ETH)],
      details: { feeMode: FEE_IN_ETH, ...details },
    },
  });
}

/** Answers the dialog and returns its text (assertions after, so no dialog stays open). */
async function answer(pending: ReturnType<typeof send>, approved: boolean) {
  const dialog = await dialogOf(pending);
  const text = dialogText(dialog.content);
  await (approved ? dialog.ok() : dialog.cancel());
  return { text, response: await pending };
}

const feeModeOf = (method: string) =>
  sentToPaymaster
    .filter((request) => request.method === method)
    .map(
      (request) => (request.params.parameters as { fee_mode: Record<string, unknown> }).fee_mode,
    );

describe('previews on the paymaster route', () => {
  it('shows the transfer of the calls the account signs, the deployment riding along, and the fee in ETH', async () => {
    const before = await balanceOf(devnet, ETH, address);
    const { text, response } = await answer(send(ONE_ETH / 10n), true);
    expect(text).toContain(`Estimated changes`);
    expect(text).toContain(`ETH\n${MINUS}0.1 ETH`);
    expect(text).toMatch(/Fee\nup to 0\.[0-9]+ ETH \(through 127\.0\.0\.1:[0-9]+\)/u);
    expect(text).toContain('Account deployment included');
    // No tip unless the site gives one.
    expect(text).not.toContain('Tip\n');
    expect(feeModeOf('paymaster_buildTransaction')).toEqual([{ mode: 'default', gas_token: ETH }]);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const paid = before - (await balanceOf(devnet, ETH, address)) - ONE_ETH / 10n;
    const max = /Fee\nup to (0\.[0-9]+) ETH/u.exec(text)?.[1] as string;
    expect(paid).toBeGreaterThan(0n);
    expect(Number(paid) / 1e18).toBeLessThanOrEqual(Number(max));
    expect(await balanceOf(devnet, STRK, address)).toBe(0n);
  });

  describe('a relayed transfer that would revert, which the paymaster will not build', () => {
    /** What must not move when nothing is sent: ETH, the devnet's transactions, executes. */
    const untouched = async () => ({
      eth: await balanceOf(devnet, ETH, address),
      submitted: submissions(devnet),
      block: await devnetRpc<number>(devnet, 'starknet_blockNumber', []),
    });
    const count = (method: string) =>
      sentToPaymaster.filter((request) => request.method === method).length;

    it('warns in the approval dialog; declining answers 4001 and nothing is signed or sent', async () => {
      const before = await untouched();
      const { text, response } = await answer(send(5n * ONE_ETH), false);
      expect(text).toContain('Execute transaction');
      expect(text).toContain('This transaction is expected to fail');
      expect(text).toContain('The simulation reverted: ERC20: insufficient balance.');
      expect(text).toContain('If you approve, the paymaster is asked again');
      expect(text).toMatch(/The paymaster \(127\.0\.0\.1:[0-9]+\) refused the transaction/u);
      expect(text).toContain('Fee\nnone quoted');
      expectError(response, 4001);
      expect(count('paymaster_buildTransaction')).toBe(1);
      expect(count('paymaster_executeTransaction')).toBe(0);
      expect(await untouched()).toEqual(before);
    });

    it('approved, the paymaster is asked again and its refusal is the answer: -32003, nothing sent', async () => {
      const before = await untouched();
      const { text, response } = await answer(send(5n * ONE_ETH), true);
      expect(text).toContain('This transaction is expected to fail');
      expectError(
        response,
        -32003,
        /refused the transaction.*The simulation of the calls reverts: ERC20: insufficient balance\. Nothing was signed or sent\./su,
      );
      expect(count('paymaster_buildTransaction')).toBe(2);
      expect(count('paymaster_executeTransaction')).toBe(0);
      expect(await untouched()).toEqual(before);
    });

    it('funded while the dialog was open: what the paymaster builds then is shown in full before it is signed', async () => {
      const held = await balanceOf(devnet, ETH, address);
      expect(held).toBeLessThan(ONE_ETH);
      const amount = 3n * ONE_ETH;
      const pending = send(amount);
      const first = await dialogOf(pending);
      const warning = dialogText(first.content);
      await mintEth(devnet.rpcUrl, address, amount);
      const submitted = submissions(devnet);
      await first.ok();
      const second = await dialogOf(pending);
      const text = dialogText(second.content);
      // Nothing was signed or relayed before the second dialog.
      expect(count('paymaster_executeTransaction')).toBe(0);
      expect(submissions(devnet)).toBe(submitted);
      await second.ok();
      const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(await pending);
      expect(warning).toContain('This transaction is expected to fail');
      expect(text).not.toContain('expected to fail');
      expect(text).toContain(`ETH\n${MINUS}3 ETH`);
      expect(text).toMatch(/Fee\nup to 0\.[0-9]+ ETH \(through 127\.0\.0\.1:[0-9]+\)/u);
      expect(text).toContain('Submitted by (relayer)');
      const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
      expect(receipt.execution_status).toBe('SUCCEEDED');
      expect(count('paymaster_buildTransaction')).toBe(2);
      expect(count('paymaster_executeTransaction')).toBe(1);
      const paid = held - (await balanceOf(devnet, ETH, address));
      const max = /Fee\nup to (0\.[0-9]+) ETH/u.exec(text)?.[1] as string;
      expect(paid).toBeGreaterThan(0n);
      expect(Number(paid) / 1e18).toBeLessThanOrEqual(Number(max));
    });
  });
});

describe('the preview of a relayed deployment alone', () => {
  it('l2_createAccount deploy: true with the fee in ETH: no balance change but the fee', async () => {
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 1 } }));
    const { address: second } = await expectedAccount(DEFAULT_SRP, 1);
    await mintEth(devnet.rpcUrl, second, ONE_ETH);
    const pending = snap.request({
      method: 'l2_createAccount',
      params: { addressIndex: 1, deploy: true, details: { feeMode: FEE_IN_ETH } },
    });
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    await dialog.ok();
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(await pending);
    expect(text).toContain('Estimated changes');
    expect(text).toContain('No token balance changes besides the fee.');
    const max = /Fee\nup to (0\.[0-9]+) ETH/u.exec(text)?.[1] as string;
    expect(max).toBeDefined();
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const paid = ONE_ETH - (await balanceOf(devnet, ETH, second));
    expect(paid).toBeGreaterThan(0n);
    expect(Number(paid) / 1e18).toBeLessThanOrEqual(Number(max));
  });
});

describe('the SNIP-29 tip', () => {
  it('passes a named tip to both paymaster requests and shows it', async () => {
    const { text, response } = await answer(send(1n, { tip: 'fast' }), true);
    expect(text).toContain('Tip\n"fast" (the paymaster prices it within the fee)');
    resultOf(response);
    const expected = { mode: 'default', gas_token: ETH, tip: 'fast' };
    expect(feeModeOf('paymaster_buildTransaction')).toEqual([expected]);
    expect(feeModeOf('paymaster_executeTransaction')).toEqual([expected]);
  });

  it('passes an integer tip as {custom} and shows it', async () => {
    const { text, response } = await answer(send(1n, { tip: 1000 }), false);
    expect(text).toContain('Tip\n1000 (custom, paid by the relayer from the fee)');
    expectError(response, 4001);
    expect(feeModeOf('paymaster_buildTransaction')).toEqual([
      { mode: 'default', gas_token: ETH, tip: { custom: '0x3e8' } },
    ]);
  });

  it('refuses a named tip on a v3 transaction (fees in STRK), before any dialog', async () => {
    const response = await snap.request({
      method: 'l2_executeTxn',
      params: { address, calls: [erc20Transfer(RECIPIENT, 1n, ETH)], details: { tip: 'fast' } },
    });
    expectError(response, -32602, /details\.tip.*applies with feeMode only/u);
  });
});

describe('node round trips before the dialog on the paymaster route', () => {
  type Query = { type: string; nonce: string; calldata?: string[] };
  /** The transactions of each starknet_simulateTransactions the snap asked of its node. */
  let simulated: Query[][] = [];
  let fresh: Awaited<ReturnType<typeof expectedAccount>>;

  beforeAll(async () => {
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 2 } }));
    fresh = await expectedAccount(DEFAULT_SRP, 2);
    await mintEth(devnet.rpcUrl, fresh.address, ONE_ETH);
  });

  beforeEach(() => {
    node.rewriteAnswers((result, request) => {
      for (const call of [request].flat() as { method: string; params: unknown }[]) {
        if (call.method === 'starknet_simulateTransactions') {
          simulated.push((call.params as { transactions: Query[] }).transactions);
        }
      }
      return result;
    });
  });

  /**
   * `from` (the account at index 2 unless given) sends `amount` of ETH with the fee in ETH
   * through `by` (the file's snap unless given), its dialog answered: the dialog's text, the
   * node round trips before it (the JSON-RPC methods of each) and the simulations among them
   * (type and nonce of each transaction).
   */
  async function relayed(amount: bigint, approved = true, by = snap, from = fresh.address) {
    node.reset();
    simulated = [];
    const pending = by.request({
      method: 'l2_executeTxn',
      params: {
        address: from,
        calls: [erc20Transfer(RECIPIENT, amount, ETH)],
        details: { feeMode: FEE_IN_ETH },
      },
    });
    const dialog = await dialogOf(pending);
    const seen = {
      text: dialogText(dialog.content),
      before: node.requests(),
      simulations: simulated.map((txs) => txs.map((tx) => [tx.type, BigInt(tx.nonce)])),
      queries: [...simulated],
    };
    await (approved ? dialog.ok() : dialog.cancel());
    return { ...seen, response: await pending };
  }

  const inBatchWithNonce = (before: string[][]) =>
    before.find((batch) => batch.includes('starknet_getNonce'));

  /** Whether `needle` appears in `hay` as consecutive felts. */
  const holds = (hay: bigint[], needle: bigint[]) =>
    hay.some((_, start) => needle.every((felt, index) => hay[start + index] === felt));

  it('a first transaction, the deployment riding along: its simulation rides in the account batch, as many round trips as before previews', async () => {
    // A declined request first reads the token's class (kept for the snap's execution), as the
    // route did before previews: the count below is a transfer's usual one.
    expectError((await relayed(1n, false)).response, 4001);
    const eth = await balanceOf(devnet, ETH, RECIPIENT);
    const { text, before, simulations, queries, response } = await relayed(ONE_ETH / 10n);
    expect(text).toContain('Account deployment included');
    expect(text).toContain(`ETH\n${MINUS}0.1 ETH`);
    expect(text).not.toContain('Preview unavailable');
    // The account batch with the simulation, and the class hash of the ABI: 2, as before the
    // previews (the build goes to the paymaster, not the node).
    expect(before).toHaveLength(2);
    expect(inBatchWithNonce(before)).toContain('starknet_simulateTransactions');
    expect(simulations).toEqual([
      [
        ['DEPLOY_ACCOUNT', 0n],
        ['INVOKE', 1n],
      ],
    ]);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(await balanceOf(devnet, ETH, RECIPIENT)).toBe(eth + ONE_ETH / 10n);
    // The simulated calls (after the call count) are those the relayer's transaction ran.
    const sent = await nodeTransaction<{ calldata: string[] }>(devnet, hash);
    const simulatedCalls = (queries[0][1].calldata as string[]).slice(1).map(BigInt);
    expect(holds(sent.calldata.map(BigInt), simulatedCalls)).toBe(true);
  });

  it('deployed by the relayer: the simulation rides at nonce 0 (an outside execution leaves it)', async () => {
    const { text, before, simulations, response } = await relayed(ONE_ETH / 20n);
    expect(text).not.toContain('Account deployment included');
    expect(text).toContain(`ETH\n${MINUS}0.05 ETH`);
    expect(before).toHaveLength(2);
    expect(inBatchWithNonce(before)).toContain('starknet_simulateTransactions');
    expect(simulations).toEqual([[['INVOKE', 0n]]]);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
  });

  it('a nonce moved by another wallet with the same key: the guess is dropped unread, the simulation runs beside the build', async () => {
    await mintStrk(devnet, fresh.address, 10n * STRK_UNIT);
    const elsewhere = starknetJsAccount(devnet, fresh);
    const moved = await elsewhere.execute([erc20Transfer(RECIPIENT, 1n)]);
    await nodeReceipt(devnet, moved.transaction_hash);
    const { text, before, simulations, response } = await relayed(ONE_ETH / 50n);
    expect(text).toContain(`ETH\n${MINUS}0.02 ETH`);
    // The batch's simulation at the stale nonce 0, unread; the one at the nonce read is used.
    expect(before).toHaveLength(3);
    expect(simulations).toEqual([[['INVOKE', 0n]], [['INVOKE', 1n]]]);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
  });

  it('a node that cannot simulate: "preview unavailable" and why, and the transfer still goes', async () => {
    node.rewriteAnswers(withoutMethod('starknet_simulateTransactions'));
    const eth = await balanceOf(devnet, ETH, RECIPIENT);
    const { text, before, response } = await relayed(7n);
    expect(text).toContain('Preview unavailable');
    expect(text).toMatch(/did not simulate it: Method not found/u);
    expect(text).not.toContain(`${MINUS}0.000000000000000007 ETH`);
    expect(before).toHaveLength(2);
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
    const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(await balanceOf(devnet, ETH, RECIPIENT)).toBe(eth + 7n);
  });

  it('a fresh execution whose records show the account deployed (relayed only, so nonce 0): rides at nonce 0', async () => {
    // The record the file's snap keeps of account 0: the relayer deployed it, and it only ever
    // sent relayed transactions, which leave its nonce at 0.
    const [record] = resultOf<{ chainId: string; deployTxnHash: string; address: string }[]>(
      await snap.request({
        method: 'l2_recoverAccounts',
        params: { startScanIndex: 0, maxScanned: 1 },
      }),
    );
    expect(BigInt(record.address)).toBe(BigInt(address));
    expect(record.deployTxnHash).toMatch(/^0x[0-9a-f]+$/u);
    const state = { ...grantedState(), accounts: { [record.chainId]: [record] } } as never;
    // Installed afresh (the same snap id replaces the file's snap, which stops running): an
    // execution that has read nothing, as after MetaMask stopped the idle snap.
    const restarted = await installSnap(server.snapId as never, { options: { state } });
    const { text, before, simulations, response } = await relayed(4n, false, restarted, address);
    expect(text).toContain(`ETH\n${MINUS}0.000000000000000004 ETH`);
    // The batch with the simulation, and the class hash and class of the ABI (read once per
    // execution): the round trips of the route before previews.
    expect(before).toHaveLength(3);
    expect(inBatchWithNonce(before)).toContain('starknet_simulateTransactions');
    expect(simulations).toEqual([[['INVOKE', 0n]]]);
    expectError(response, 4001);
  });

  it('a snap that knows nothing of the deployed account guesses it undeployed: dropped unread, simulated again', async () => {
    // Installed afresh (the same snap id replaces the running snap, which stops running).
    const other = await installChainSnap(server.snapId);
    resultOf(await other.request({ method: 'l2_createAccount', params: { addressIndex: 2 } }));
    const { text, before, simulations, response } = await relayed(3n, false, other);
    expect(text).not.toContain('Account deployment included');
    expect(text).toContain(`ETH\n${MINUS}0.000000000000000003 ETH`);
    // The batch's [deployment, invoke] (the account is deployed) is not read; the invoke at the
    // nonce read is, beside the build: the batch, that simulation, and the class hash and class
    // of the ABI (read once per execution) as before previews.
    expect(before).toHaveLength(4);
    expect(simulations).toEqual([
      [
        ['DEPLOY_ACCOUNT', 0n],
        ['INVOKE', 1n],
      ],
      [['INVOKE', 1n]],
    ]);
    expectError(response, 4001);
  });

  describe('a fresh execution, for an account that also sent a v3 transaction (fee in STRK)', () => {
    /** What the snap that sent it stored: its state as MetaMask keeps it for a stopped snap. */
    let stored: Record<string, Json>;
    /** The account's nonce after that transaction, kept in that state. */
    let kept: bigint;

    beforeAll(async () => {
      await mintStrk(devnet, fresh.address, STRK_UNIT);
      const sending = await installKeepingState(server.snapId);
      resultOf(
        await sending.snap.request({ method: 'l2_createAccount', params: { addressIndex: 2 } }),
      );
      const pending = sending.snap.request({
        method: 'l2_executeTxn',
        params: { address: fresh.address, calls: [erc20Transfer(RECIPIENT, 1n)] },
      });
      const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(
        await approve(pending),
      );
      await nodeReceipt(devnet, hash);
      kept = BigInt((await nodeTransaction<{ nonce: string }>(devnet, hash)).nonce) + 1n;
      expect(kept).toBeGreaterThan(0n);
      stored = sending.stored();
    });

    it('rides at the nonce the snap kept with that transaction: the round trips of before previews', async () => {
      // Installed afresh over the stored state: an execution that has read nothing, as after
      // MetaMask stopped the idle snap.
      const restarted = await installSnap(server.snapId as never, { options: { state: stored } });
      const { text, before, simulations, response } = await relayed(
        6n,
        false,
        restarted,
        fresh.address,
      );
      expect(text).toContain(`ETH\n${MINUS}0.000000000000000006 ETH`);
      // The batch with the simulation, and the class hash and class of the ABI (read once per
      // execution), as before previews: the nonce-0 guess of the deployment record would miss.
      expect(before).toHaveLength(3);
      expect(inBatchWithNonce(before)).toContain('starknet_simulateTransactions');
      expect(simulations).toEqual([[['INVOKE', kept]]]);
      expectError(response, 4001);
    });

    it('a nonce moved by another wallet since: the kept guess is dropped unread, the transfer goes as simulated, and the nonce read is kept', async () => {
      const elsewhere = starknetJsAccount(devnet, fresh);
      const moved = await elsewhere.execute([erc20Transfer(RECIPIENT, 1n)]);
      await nodeReceipt(devnet, moved.transaction_hash);
      const eth = await balanceOf(devnet, ETH, RECIPIENT);
      const restarted = await installKeepingState(server.snapId, stored);
      const { text, before, simulations, response } = await relayed(
        ONE_ETH / 100n,
        true,
        restarted.snap,
        fresh.address,
      );
      expect(text).toContain(`ETH\n${MINUS}0.01 ETH`);
      // The batch's simulation at the kept nonce, unread; the one at the nonce read, beside the
      // build, is shown: one round trip more, as for any moved nonce.
      expect(before).toHaveLength(4);
      expect(simulations).toEqual([[['INVOKE', kept]], [['INVOKE', kept + 1n]]]);
      const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(response);
      const receipt = await nodeReceipt<{ execution_status: string }>(devnet, hash);
      expect(receipt.execution_status).toBe('SUCCEEDED');
      expect(await balanceOf(devnet, ETH, RECIPIENT)).toBe(eth + ONE_ETH / 100n);
      // The relayed transfer's records went with the nonce it read: the next fresh execution
      // rides at it.
      const again = await installSnap(server.snapId as never, {
        options: { state: restarted.stored() },
      });
      const next = await relayed(2n, false, again, fresh.address);
      expect(next.before).toHaveLength(3);
      expect(next.simulations).toEqual([[['INVOKE', kept + 1n]]]);
      expectError(next.response, 4001);
    });
  });
});
