/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * The preview of a SNIP-9 outside execution in l2_signMessage: the real snap bundle in snaps-jest
 * against a packages/devnet node behind a recording proxy on the port the bundle was built for.
 * The calls signed are simulated as an invoke of the account's own, in the account's read batch
 * at the nonce the snap expects (simulated again when the read disagrees); an account not
 * deployed, or a node that is down, gives "preview unavailable" and why, and the signing goes on.
 */
import { constants, ec, hash, outsideExecution, typedData as starknetTypedData } from 'starknet';

import { freePort, startCountingProxy, startDevnet, type CountingProxy } from '@l2wallet/testkit';
import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import {
  balanceOf,
  deployedSender,
  devnetPort,
  dialogOf,
  erc20Transfer,
  mintStrk,
  provider,
  serveE2eSnap,
  STRK,
  STRK_UNIT,
  starknetJsAccount,
  type DevnetServer,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

let devnet: DevnetServer;
let proxy: CountingProxy;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;
const RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde';
const MINUS = '\u2212';
const ANY_CALLER = '0x414e595f43414c4c4552';

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

afterEach(() => {
  proxy.rewriteAnswers(undefined);
  proxy.retarget(new URL(devnet.rpcUrl).origin);
});

type Call = ReturnType<typeof erc20Transfer>;

/** The outside execution starknet.js builds for `calls` (version '1' or '2'). */
function outsideExecutionOf(calls: Call[], version: '1' | '2') {
  return outsideExecution.getTypedData(
    constants.StarknetChainId.SN_SEPOLIA,
    { caller: ANY_CALLER, execute_after: 1, execute_before: 4_000_000_000 },
    '0x5a1',
    calls,
    version as never,
  );
}

/** Asks the snap to sign `data` as `address`, answers its dialog; the text and round trips. */
async function sign(data: unknown, address: string, approved: boolean) {
  const pending = snap.request({
    method: 'l2_signMessage',
    params: { typedDataMessage: data, signerAddress: address } as never,
  });
  const dialog = await dialogOf(pending);
  const seen = { text: dialogText(dialog.content), before: proxy.requests() };
  await (approved ? dialog.ok() : dialog.cancel());
  return { ...seen, response: await pending };
}

/** The invoke calldata of every transaction the node was asked to simulate, from now on. */
function recordSimulated(): string[][] {
  const simulated: string[][] = [];
  proxy.rewriteAnswers((result, request) => {
    for (const call of [request].flat() as { method: string; params: unknown }[]) {
      if (call.method === 'starknet_simulateTransactions') {
        const { transactions } = call.params as { transactions: { calldata: string[] }[] };
        simulated.push(...transactions.map((tx) => tx.calldata));
      }
    }
    return result;
  });
  return simulated;
}

describe('l2_signMessage previews an outside execution', () => {
  it('shows the signed change of a transfer, simulated from the calls signed (by selector)', async () => {
    const amount = (3n * STRK_UNIT) / 2n;
    const data = outsideExecutionOf([erc20Transfer(RECIPIENT, amount)], '2');
    const simulated = recordSimulated();
    proxy.reset();
    const balance = await balanceOf(devnet, STRK, sender.address);
    const { text, before, response } = await sign(data, sender.address, true);
    expect(text).toContain('Estimated changes (simulated from the transaction you sign)');
    expect(text).toContain(`STRK\n${MINUS}1.5 STRK`);
    expect(text).toContain('Fee\nnone from your account');
    expect(text).not.toContain('Preview unavailable');
    // Exactly the signed call: its address, selector and calldata, in __execute__'s layout.
    const low = `0x${amount.toString(16)}`;
    expect(simulated.at(-1)?.map((felt) => BigInt(felt))).toEqual(
      [1n, STRK, hash.getSelectorFromName('transfer'), 3n, RECIPIENT, low, 0n].map(BigInt),
    );
    // The snap knows the account's nonce (it deployed it): one round trip before the dialog.
    expect(before).toEqual([
      ['starknet_getClassHashAt', 'starknet_getNonce', 'starknet_simulateTransactions'],
    ]);
    // The signature is over the typed data's hash, by the account's key (checked with @scure).
    const [r, sig] = resultOf<string>(response).split(',');
    const messageHash = starknetTypedData.getMessageHash(data, sender.address);
    expect(
      ec.starkCurve.verify(
        new ec.starkCurve.Signature(BigInt(r), BigInt(sig)),
        messageHash,
        ec.starkCurve.getPublicKey(sender.privateKey),
      ),
    ).toBe(true);
    // Signing moved nothing.
    expect(await balanceOf(devnet, STRK, sender.address)).toBe(balance);
  });

  it('a nonce moved by another wallet with the same key: the guess is dropped, simulated again', async () => {
    const elsewhere = starknetJsAccount(devnet, sender);
    // Quickly: an idle gap of seconds lets the proxy's keep-alive socket close under the snap's
    // next request (the node unreachable, no preview).
    const moved = await elsewhere.execute([erc20Transfer(RECIPIENT, 1n)], { tip: 0n });
    await provider(devnet).waitForTransaction(moved.transaction_hash, { retryInterval: 100 });
    const nonce = BigInt(
      await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed'),
    );
    const nonces: bigint[] = [];
    proxy.rewriteAnswers((result, request) => {
      for (const call of [request].flat() as { method: string; params: unknown }[]) {
        if (call.method === 'starknet_simulateTransactions') {
          const { transactions } = call.params as { transactions: { nonce: string }[] };
          nonces.push(...transactions.map((tx) => BigInt(tx.nonce)));
        }
      }
      return result;
    });
    proxy.reset();
    const data = outsideExecutionOf([erc20Transfer(RECIPIENT, 2n * STRK_UNIT)], '1');
    const { text, before, response } = await sign(data, sender.address, false);
    expect(text).toContain(`STRK\n${MINUS}2 STRK`);
    expect(before).toEqual([
      ['starknet_getClassHashAt', 'starknet_getNonce', 'starknet_simulateTransactions'],
      ['starknet_simulateTransactions'],
    ]);
    expect(nonces).toEqual([nonce - 1n, nonce]);
    expectError(response, 4001);
  });

  it('warns of a transfer that reverts, with the reason', async () => {
    const data = outsideExecutionOf([erc20Transfer(RECIPIENT, 1_000_000n * STRK_UNIT)], '2');
    const { text, response } = await sign(data, sender.address, false);
    expect(text).toContain('This transaction is expected to fail');
    expect(text).toMatch(/The simulation reverted: .*insufficient balance/u);
    expect(text).not.toContain(`${MINUS}1000000 STRK`);
    expectError(response, 4001);
  });

  it('an account not deployed: "preview unavailable" and why, and it still signs', async () => {
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 1 } }));
    const account = await expectedAccount(DEFAULT_SRP, 1);
    await mintStrk(devnet, account.address, 10n * STRK_UNIT);
    const simulated = recordSimulated();
    proxy.reset();
    const data = outsideExecutionOf([erc20Transfer(RECIPIENT, STRK_UNIT)], '1');
    const { text, before, response } = await sign(data, account.address, true);
    expect(text).toContain('Preview unavailable');
    expect(text).toContain('your account is not deployed yet');
    expect(text).not.toContain(`${MINUS}1 STRK`);
    // One round trip: the riding simulation's answer (from an account with no contract) unread.
    expect(before).toHaveLength(1);
    expect(simulated).toHaveLength(1);
    expect(resultOf<string>(response).split(',')).toHaveLength(2);
  });

  it('a node that is down: "preview unavailable" and why, and it still signs', async () => {
    proxy.retarget(`http://127.0.0.1:${await freePort()}`);
    const data = outsideExecutionOf([erc20Transfer(RECIPIENT, STRK_UNIT)], '2');
    const { text, response } = await sign(data, sender.address, true);
    expect(text).toContain('Preview unavailable');
    expect(text).toMatch(/No preview: it could not be simulated: .*unavailable/u);
    expect(text).not.toContain('.. Check the calls');
    expect(text).not.toContain(`${MINUS}1 STRK`);
    expect(resultOf<string>(response).split(',')).toHaveLength(2);
  });
});
