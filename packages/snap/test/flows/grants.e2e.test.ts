/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * docs/security.md#hostile-sites against a real node (packages/devnet through the testkit): a
 * hostile site (SITE_B, granted nothing) against a user whose snap holds account #0 (deployed, with
 * a transfer sent through the snap) and #1 (not deployed), both granted to the test origin. Each
 * answer the hostile site gets for the user's accounts is compared with the answer for a stranger's
 * address, including the node calls the snap made for it.
 */
import type { Json } from '@metamask/snaps-sdk';
import { installSnap } from '@metamask/snaps-jest';

import { createInitialState } from '../../src/state/schema';
import {
  accountRecordOf,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  OTHER_SRP,
  responseOf,
  resultOf,
  TEST_ORIGIN,
  type ExpectedAccount,
} from '../harness/snap';
import { REV1_TYPED_DATA } from '../fixtures/typedData';
import {
  approve,
  closeChain,
  deployedSender,
  dialogOf,
  erc20Transfer,
  predeployedSignature,
  rpcCalls,
  serveE2eSnap,
  startChainDevnet,
  STRK,
  TESTNET,
  type DevnetServer,
  type FeeEstimate,
  type Snap,
  type SnapServer,
  type TxRecord,
} from '../harness/devnet';

const SITE_B = 'https://hostile.example';
const RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde';

let devnet: DevnetServer;
let server: SnapServer;
let snap: Snap;
let deployed: ExpectedAccount;
let undeployed: ExpectedAccount;
let transferHash: string;

beforeAll(async () => {
  server = await serveE2eSnap({ explorer: 'closed' });
  devnet = await startChainDevnet();
  ({ snap, sender: deployed } = await deployedSender(server, devnet, { indexes: [0, 1] }));
  undeployed = await expectedAccount(DEFAULT_SRP, 1);
  transferHash = resultOf<{ transaction_hash: string }>(
    await approve(
      snap.request({
        method: 'l2_executeTxn',
        params: { address: deployed.address, calls: [erc20Transfer(RECIPIENT, 5n)] },
      }),
    ),
  ).transaction_hash;
}, 300_000);

afterAll(() => closeChain(devnet, server));

/** The node calls (by method) one request made, and its answer. */
async function traced(
  on: Snap,
  origin: string,
  method: string,
  params: Record<string, Json>,
): Promise<{ calls: Record<string, number>; response: ReturnType<typeof responseOf> }> {
  const before = rpcCalls(devnet);
  const response = responseOf(await on.request({ origin, method, params }));
  const after = rpcCalls(devnet);
  const calls: Record<string, number> = {};
  for (const [name, count] of Object.entries(after)) {
    if (count !== (before[name] ?? 0)) {
      calls[name] = count - (before[name] ?? 0);
    }
  }
  return { calls, response };
}

/** l2_getTransactions from `origin`. */
const history = async (
  on: Snap,
  origin: string,
  params: Record<string, Json>,
): Promise<TxRecord[]> =>
  resultOf<TxRecord[]>(await on.request({ origin, method: 'l2_getTransactions', params }));

async function signWith(signer: string): Promise<string> {
  return resultOf<string>(
    await approve(
      snap.request({
        method: 'l2_signMessage',
        params: { typedDataMessage: REV1_TYPED_DATA, signerAddress: signer },
      }),
    ),
  );
}

describe('l2_estimateAccountDeployFee from a site without the index', () => {
  it('shows the grant dialog for every index (deployed, undeployed or unused): nothing answers before the user', async () => {
    const unused = await expectedAccount(DEFAULT_SRP, 7);
    const texts: string[] = [];
    for (const [addressIndex, account] of [
      [0, deployed],
      [1, undeployed],
      [7, unused],
    ] as const) {
      const pending = snap.request({
        origin: SITE_B,
        method: 'l2_estimateAccountDeployFee',
        params: { addressIndex },
      });
      const dialog = await dialogOf(pending);
      const text = dialogText(dialog.content);
      expect(text).toContain('hostile.example');
      expect(text).toContain(account.address);
      texts.push(text);
      await dialog.cancel();
      // Declined: 4001, naming nothing.
      const response = responseOf(await pending);
      expect(response.error?.code).toBe(4001);
      expect(JSON.stringify(response)).not.toContain(account.address.slice(4));
    }
    // What the user reads differs (accounts 0 and 1 are already theirs on Testnet).
    expect(texts[0]).toContain('Already your account on\nTestnet');
    expect(texts[2]).toContain('Already your account on\nno network yet');

    // The granted site is answered as before (control): the deployed account says so.
    expectError(
      await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 0 } }),
      -32000,
      new RegExp(`${deployed.address} is already deployed`, 'u'),
    );
    const fee = resultOf<FeeEstimate>(
      await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 1 } }),
    );
    expect(BigInt(fee.overallFee)).toBeGreaterThan(0n);
  });

  it('after the user approves, the site holds the index and gets the estimate', async () => {
    const fee = resultOf<FeeEstimate>(
      await approve(
        snap.request({
          origin: SITE_B,
          method: 'l2_estimateAccountDeployFee',
          params: { addressIndex: 7 },
        }),
      ),
    );
    expect(BigInt(fee.suggestedMaxFee)).toBeGreaterThanOrEqual(BigInt(fee.overallFee));
    // Granted now: no dialog the second time.
    expect(
      resultOf<FeeEstimate>(
        await snap.request({
          origin: SITE_B,
          method: 'l2_estimateAccountDeployFee',
          params: { addressIndex: 7 },
        }),
      ).unit,
    ).toBe('wei');
  });
});

describe('history from state and from the node', () => {
  it('the STRK token as "sender" from state gives the hostile site nothing; the granted site its own records', async () => {
    expect(
      await history(snap, SITE_B, {
        senderAddress: STRK,
        onlyFromState: true,
        withDeployTxn: true,
      }),
    ).toEqual([]);
    expect(
      await history(snap, SITE_B, {
        senderAddress: deployed.address,
        onlyFromState: true,
        withDeployTxn: true,
      }),
    ).toEqual([]);
    // Control: the granted site reads its account's stored records.
    const own = await history(snap, TEST_ORIGIN, {
      senderAddress: deployed.address,
      onlyFromState: true,
      withDeployTxn: true,
    });
    expect(own.map((item) => BigInt(item.txnHash))).toContain(BigInt(transferHash));
  });
});

describe('l2_verifySignedMessage from a site without the grant', () => {
  it("a deployed account of the user is checked on chain exactly like a stranger's deployed account", async () => {
    const { address: foreignAddress, parts: foreignParts } = await predeployedSignature(
      devnet,
      REV1_TYPED_DATA,
    );
    const ownSignature = await signWith(deployed.address);

    const verify = (address: string, signature: string) =>
      traced(snap, SITE_B, 'l2_verifySignedMessage', {
        typedDataMessage: REV1_TYPED_DATA,
        address,
        signature,
      });
    const own = await verify(deployed.address, ownSignature);
    const stranger = await verify(foreignAddress, foreignParts.join(','));
    expect(own.response).toEqual({ result: true });
    expect(stranger.response).toEqual({ result: true });
    expect(own.calls).toEqual(stranger.calls);
    expect(own.calls.starknet_call).toBe(1);

    const tamper = (signature: string) =>
      signature.replace(/[0-9a-f]$/u, (digit) => (digit === '0' ? '1' : '0'));
    const ownBad = await verify(deployed.address, tamper(ownSignature));
    const strangerBad = await verify(foreignAddress, tamper(foreignParts.join(',')));
    expect(ownBad.response).toEqual({ result: false });
    expect(strangerBad.response).toEqual({ result: false });
    expect(ownBad.calls).toEqual(strangerBad.calls);
  });

  it("an undeployed account of the user gives the same error, after the same node calls, as a stranger's undeployed address", async () => {
    const ownSignature = await signWith(undeployed.address);
    const stranger = await expectedAccount(OTHER_SRP, 3);
    const verify = (address: string) =>
      traced(snap, SITE_B, 'l2_verifySignedMessage', {
        typedDataMessage: REV1_TYPED_DATA,
        address,
        signature: ownSignature,
      });
    const own = await verify(undeployed.address);
    const foreign = await verify(stranger.address);
    expect(own.response).toEqual(foreign.response);
    expect(own.calls).toEqual(foreign.calls);
    expect(own.response.error?.code).toBe(-32602);
    expect(own.response.error?.message).toMatch(/no deployed account contract on Testnet/u);
    expect(JSON.stringify(own.response)).not.toContain(undeployed.address.slice(4));

    // Control: the granted site checks its undeployed account locally, with no node call.
    const granted = await traced(snap, TEST_ORIGIN, 'l2_verifySignedMessage', {
      typedDataMessage: REV1_TYPED_DATA,
      address: undeployed.address,
      signature: ownSignature,
    });
    expect(granted.response).toEqual({ result: true });
    expect(granted.calls).toEqual({});
  });
});

// Last: a second installSnap stops the first snap (snaps-simulation runs one at a time).
describe('answers that need a second snap', () => {
  it("the hostile site gets the chain's public history of the user's account: the answer a snap that never held it gives", async () => {
    const params = { senderAddress: deployed.address, withDeployTxn: true, txnsInLastNumOfDays: 1 };
    const hostile = await history(snap, SITE_B, params);
    expect(hostile.map((item) => BigInt(item.txnHash))).toContain(BigInt(transferHash));
    // A snap of another phrase, for which this address is a stranger's.
    const stranger = await installSnap(server.snapId as never, {
      options: { secretRecoveryPhrase: OTHER_SRP },
    });
    expect(await history(stranger, SITE_B, params)).toEqual(hostile);
  });

  it('what only snap state knows (a record the node never saw) answers the granted site only', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const state = createInitialState();
    state.accounts[TESTNET] = [accountRecordOf(account, TESTNET)];
    state.grants[TEST_ORIGIN] = { origin: TEST_ORIGIN, grantedAt: 1, addressIndexes: [0] };
    state.transactions[TESTNET] = [
      {
        txnHash: '0xdead',
        txnType: 'invoke',
        senderAddress: account.address,
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: [],
        status: 'REJECTED',
        failureReason: 'insufficient balance',
        eventIds: [],
        timestamp: Math.floor(Date.now() / 1000),
        chainId: TESTNET,
      },
    ];
    const seeded = await installSnap(server.snapId as never, {
      options: { state: state as unknown as Record<string, Json> },
    });
    expect(
      resultOf(
        await seeded.request({
          method: 'l2_getTransactionStatus',
          params: { transactionHash: '0xdead' },
        }),
      ),
    ).toBe('REJECTED');
    const stored = await traced(seeded, SITE_B, 'l2_getTransactionStatus', {
      transactionHash: '0xdead',
    });
    const unknown = await traced(seeded, SITE_B, 'l2_getTransactionStatus', {
      transactionHash: '0xbeef',
    });
    expect(stored.calls).toEqual(unknown.calls);
    expect(stored.response.error?.message?.replace('0xdead', '<hash>')).toBe(
      unknown.response.error?.message?.replace('0xbeef', '<hash>'),
    );
    expect(stored.response.error?.code).toBe(unknown.response.error?.code);
  });
});
