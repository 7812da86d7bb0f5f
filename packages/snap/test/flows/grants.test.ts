/**
 * docs/security.md#hostile-sites, from a hostile site (snaps-jest, the offline build: no node is
 * reachable): a site learns nothing about accounts it was not granted, and "a new account" is new
 * on every network. The chain side of the same rules (deploy-fee estimates, history and status from
 * a real node, on-chain verification of deployed and undeployed addresses) is
 * test/flows/grants.e2e.test.ts.
 */
import { installSnap } from '@metamask/snaps-jest';
import type { Json } from '@metamask/snaps-sdk';
import { STRK_TOKEN } from '@l2wallet/testkit';

import { createInitialState, type TransactionRecord } from '../../src/state/schema';
import {
  accountRecordOf,
  approvingDialogs,
  asConfirmation,
  createGrantedAccount,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  MAINNET,
  OTHER_SRP,
  responseOf,
  resultOf,
  TESTNET,
  type ExpectedAccount,
} from '../harness/snap';
import { REV1_TYPED_DATA } from '../fixtures/typedData';

const SITE_A = 'https://a.example';
const SITE_B = 'https://b.example';
const SITE_C = 'https://c.example';

type Snap = Awaited<ReturnType<typeof installSnap>>;

const BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
  l2_gas: { max_amount: '0x1000', max_price_per_unit: '0x1000' },
};

/** Every method that names an account by address, with params naming `address`. */
function accountMethods(address: string): [string, Record<string, Json>][] {
  const call = { contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['0x1', '1', '0'] };
  return [
    ['l2_extractPublicKey', { userAddress: address }],
    ['l2_getDeploymentData', { address }],
    ['l2_displayPrivateKey', { userAddress: address }],
    ['l2_signMessage', { typedDataMessage: REV1_TYPED_DATA, signerAddress: address }],
    [
      'l2_signTransaction',
      {
        address,
        chainId: TESTNET,
        transactions: [call],
        transactionsDetail: { nonce: '0x1', resourceBounds: BOUNDS },
      },
    ],
    [
      'l2_signDeclareTransaction',
      {
        address,
        chainId: TESTNET,
        details: {
          nonce: '0x1',
          resourceBounds: BOUNDS,
          classHash: '0x1',
          compiledClassHash: '0x2',
        },
      },
    ],
    ['l2_estimateFee', { address, invocations: [call] }],
    ['l2_executeTxn', { address, calls: [call] }],
    ['l2_declareContract', { senderAddress: address, contractPayload: { contract: {} } }],
  ];
}

/**
 * A stored transaction record (docs/interface/snap.md#transaction-record) sent by `sender`, five
 * minutes old.
 */
function record(
  txnHash: string,
  sender: string,
  contract: string,
  status = 'ACCEPTED_ON_L2',
): TransactionRecord {
  return {
    txnHash,
    txnType: 'invoke',
    senderAddress: sender,
    contractAddress: contract,
    contractFuncName: 'transfer',
    contractCallData: ['0x1', '0x5', '0x0'],
    status,
    failureReason: status === 'REJECTED' ? 'insufficient balance' : null,
    eventIds: [],
    timestamp: Math.floor(Date.now() / 1000) - 300,
    chainId: TESTNET,
  };
}

/**
 * A snap whose state holds accounts #0 and #1 on Testnet, #0 granted to site A and #1 to site C,
 * and records: #0's STRK transfer, #0's rejected transfer, and #1 calling #0 as a contract.
 */
async function snapWithHistory(
  zero: ExpectedAccount,
  one: ExpectedAccount,
): Promise<{ snap: Snap; records: TransactionRecord[] }> {
  const state = createInitialState();
  state.accounts[TESTNET] = [zero, one].map((account) => accountRecordOf(account, TESTNET));
  state.grants[SITE_A] = { origin: SITE_A, grantedAt: 1, addressIndexes: [0] };
  state.grants[SITE_C] = { origin: SITE_C, grantedAt: 1, addressIndexes: [1] };
  const records = [
    record('0xa1', zero.address, STRK_TOKEN),
    record('0xa2', zero.address, STRK_TOKEN, 'REJECTED'),
    record('0xc1', one.address, zero.address),
  ];
  state.transactions[TESTNET] = records;
  const snap = await installSnap({
    options: { state: state as unknown as Record<string, Json> },
  });
  return { snap, records };
}

/** l2_createAccount from `origin`, approving its grant dialog. */
async function createAt(
  snap: Snap,
  origin: string,
  params: Record<string, Json>,
): Promise<{ response: unknown }> {
  return approvingDialogs(snap.request({ origin, method: 'l2_createAccount', params }));
}

async function stateRecords(
  snap: Snap,
  origin: string,
  senderAddress: string,
): Promise<TransactionRecord[]> {
  return resultOf<TransactionRecord[]>(
    await snap.request({
      origin,
      method: 'l2_getTransactions',
      params: { senderAddress, onlyFromState: true },
    }),
  );
}

describe('a site learns nothing about accounts it was not granted', () => {
  it("every method that names an account answers one of the user's accounts exactly as a stranger's address: one error, no dialog, no address", async () => {
    const own = await expectedAccount(DEFAULT_SRP, 0);
    const stranger = await expectedAccount(OTHER_SRP, 0);
    const snap = await installSnap();
    resultOf(await createGrantedAccount(snap, 0, SITE_A));

    const ownAnswers = accountMethods(own.address);
    const strangerAnswers = accountMethods(stranger.address);
    for (const [index, [method, params]] of ownAnswers.entries()) {
      // Awaited directly: a dialog would leave the request pending and the test would time out.
      const forOwn = responseOf(await snap.request({ origin: SITE_B, method, params }));
      const forStranger = responseOf(
        await snap.request({ origin: SITE_B, method, params: strangerAnswers[index][1] }),
      );
      expect({ method, answer: forOwn }).toEqual({ method, answer: forStranger });
      expect(forOwn.error?.code).toBe(-32602);
      expect(forOwn.error?.message).toMatch(
        /is not an account of this snap that this site may use/u,
      );
      expect(JSON.stringify(forOwn)).not.toContain(own.address.slice(2));
      expect(JSON.stringify(forOwn)).not.toContain(BigInt(own.address).toString(16));
    }

    // The granted site is served as before (control).
    expect(
      resultOf(
        await snap.request({
          origin: SITE_A,
          method: 'l2_extractPublicKey',
          params: { userAddress: own.address },
        }),
      ),
    ).toBe(own.publicKey);
  });

  it('the STRK-token attack on the stored history returns nothing of the user, and each site gets only its own accounts’ records', async () => {
    const zero = await expectedAccount(DEFAULT_SRP, 0);
    const one = await expectedAccount(DEFAULT_SRP, 1);
    const { snap, records } = await snapWithHistory(zero, one);
    const [sent, rejected, crossCall] = records;

    // The attack in docs/security.md#sites-are-granted-never-assumed: the token as "sender", only
    // from state, from a site with no grant.
    expect(await stateRecords(snap, SITE_B, STRK_TOKEN)).toEqual([]);
    expect(await stateRecords(snap, SITE_B, zero.address)).toEqual([]);
    expect(await stateRecords(snap, SITE_B, one.address)).toEqual([]);
    // Nor from a granted site, for accounts it was not granted.
    expect(await stateRecords(snap, SITE_A, STRK_TOKEN)).toEqual([]);
    expect(await stateRecords(snap, SITE_A, one.address)).toEqual([]);

    // Site A gets #0's records, and not #1's call to #0 (it names #1, which A was not granted).
    const forA = await stateRecords(snap, SITE_A, zero.address);
    expect(forA.map((item) => item.txnHash).sort()).toEqual(
      [sent.txnHash, rejected.txnHash].sort(),
    );
    expect(JSON.stringify(forA)).not.toContain(one.address.slice(2));
    // Site C gets #1's.
    expect((await stateRecords(snap, SITE_C, one.address)).map((item) => item.txnHash)).toEqual([
      crossCall.txnHash,
    ]);
  });

  it("l2_verifySignedMessage from a site without the grant goes to the chain for the user's account as for a stranger's", async () => {
    const own = await expectedAccount(DEFAULT_SRP, 0);
    const stranger = await expectedAccount(OTHER_SRP, 0);
    const snap = await installSnap();
    resultOf(await createGrantedAccount(snap, 0, SITE_A));
    const signing = snap.request({
      origin: SITE_A,
      method: 'l2_signMessage',
      params: { typedDataMessage: REV1_TYPED_DATA, signerAddress: own.address },
    });
    await asConfirmation(await signing.getInterface()).ok();
    const signature = resultOf<string>(await signing);

    // The granted site: checked locally with the key (control).
    expect(
      resultOf(
        await snap.request({
          origin: SITE_A,
          method: 'l2_verifySignedMessage',
          params: { typedDataMessage: REV1_TYPED_DATA, address: own.address, signature },
        }),
      ),
    ).toBe(true);
    // Another site: the chain is asked for both (here no node answers: the same error for both).
    const answers = [];
    for (const address of [own.address, stranger.address]) {
      answers.push(
        responseOf(
          await snap.request({
            origin: SITE_B,
            method: 'l2_verifySignedMessage',
            params: { typedDataMessage: REV1_TYPED_DATA, address, signature },
          }),
        ),
      );
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].error?.code).toBe(-32002);
  });
});

describe('grants and networks', () => {
  it('an index in use on one network is never offered as new on the other', async () => {
    const zero = await expectedAccount(DEFAULT_SRP, 0);
    const one = await expectedAccount(DEFAULT_SRP, 1);
    const snap = await installSnap();
    // Site A: "a new Mainnet account" is #0.
    expect(
      resultOf<{ addressIndex: number }>(await createAt(snap, SITE_A, { chainId: MAINNET }))
        .addressIndex,
    ).toBe(0);

    // Site B: "a new Testnet account" is #1 (index 0 is the user's Mainnet address), and the
    // dialog shows the address it grants.
    const creating = snap.request({
      origin: SITE_B,
      method: 'l2_createAccount',
      params: { chainId: TESTNET },
    });
    const ui = asConfirmation(await creating.getInterface());
    const text = dialogText(ui.content);
    expect(text).toContain('#1 (a new one)');
    expect(text).toContain(one.address);
    expect(text).not.toContain(zero.address);
    expect(text).toContain('Already your account on\nno network yet');
    expect(text).toContain('Other sites allowed\nnone');
    await ui.ok();
    expect(resultOf(await creating)).toEqual({ address: one.address, addressIndex: 1 });

    // Site B naming index 0 on Testnet: the dialog shows the address, that it is already the
    // user's account on Mainnet, and which site has it.
    const naming = snap.request({
      origin: SITE_B,
      method: 'l2_createAccount',
      params: { addressIndex: 0, chainId: TESTNET },
    });
    const namingUi = asConfirmation(await naming.getInterface());
    const namingText = dialogText(namingUi.content);
    expect(namingText).toContain(zero.address);
    expect(namingText).toContain('Already your account on\nMainnet');
    expect(namingText).toContain('Other sites allowed\na.example');
    await namingUi.cancel();
    expectError(await naming, 4001);
  });

  it('an index granted to another site, even unused, is never new; concurrent requests are offered different indexes', async () => {
    const snap = await installSnap();
    // Site C is granted index 0 through a deploy-fee estimate (no account stored: the offline
    // node fails after the grant).
    const estimating = snap.request({
      origin: SITE_C,
      method: 'l2_estimateAccountDeployFee',
      params: { addressIndex: 0 },
    });
    await asConfirmation(await estimating.getInterface()).ok();
    expectError(await estimating, -32002);

    // Two sites ask for "a new account" at once: the dialogs show #1 and #2.
    const first = snap.request({ origin: SITE_A, method: 'l2_createAccount' });
    const firstUi = asConfirmation(await first.getInterface());
    const second = snap.request({ origin: SITE_B, method: 'l2_createAccount' });
    expect(dialogText(firstUi.content)).toContain('#1 (a new one)');
    await firstUi.ok();
    expect(resultOf<{ addressIndex: number }>(await first).addressIndex).toBe(1);
    const secondUi = asConfirmation(await second.getInterface());
    expect(dialogText(secondUi.content)).toContain('#2 (a new one)');
    await secondUi.ok();
    expect(resultOf<{ addressIndex: number }>(await second).addressIndex).toBe(2);
  });

  it('a grant is per address: valid on both networks without asking again, refused on both to other sites, revoked on both', async () => {
    const zero = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await installSnap();
    resultOf(await createAt(snap, SITE_A, { addressIndex: 0, chainId: MAINNET }));
    for (const chainId of [MAINNET, TESTNET]) {
      const network = chainId === MAINNET ? 'Mainnet' : 'Testnet';
      // Site A: straight to the signing dialog on either network (no grant dialog first).
      const signing = snap.request({
        origin: SITE_A,
        method: 'l2_signMessage',
        params: {
          typedDataMessage: {
            ...REV1_TYPED_DATA,
            domain: { ...REV1_TYPED_DATA.domain, chainId },
          },
          signerAddress: zero.address,
          chainId,
        },
      });
      const ui = asConfirmation(await signing.getInterface());
      expect(dialogText(ui.content)).toContain('Sign message');
      expect(dialogText(ui.content)).toContain(network);
      await ui.ok();
      expect(resultOf<string>(await signing)).toMatch(/^0x[0-9a-f]+,0x[0-9a-f]+$/u);
      // Site B: refused on either network.
      expectError(
        await snap.request({
          origin: SITE_B,
          method: 'l2_getDeploymentData',
          params: { address: zero.address, chainId },
        }),
        -32602,
        /is not an account of this snap that this site may use/u,
      );
    }

    // Revoked on the home page: refused on both networks.
    const home = await snap.onHomePage();
    await home.getInterface().clickElement(`revoke:${SITE_A}`);
    for (const chainId of [MAINNET, TESTNET]) {
      expectError(
        await snap.request({
          origin: SITE_A,
          method: 'l2_extractPublicKey',
          params: { userAddress: zero.address, chainId },
        }),
        -32602,
      );
    }
  });

  it('l2_estimateAccountDeployFee asks for an index the site does not hold, the same dialog whatever the index holds', async () => {
    const zero = await expectedAccount(DEFAULT_SRP, 0);
    const five = await expectedAccount(DEFAULT_SRP, 5);
    const snap = await installSnap();
    resultOf(await createGrantedAccount(snap, 0, SITE_A));
    const texts = [];
    for (const [addressIndex, account] of [
      [0, zero],
      [5, five],
    ] as const) {
      const estimating = snap.request({
        origin: SITE_B,
        method: 'l2_estimateAccountDeployFee',
        params: { addressIndex },
      });
      const ui = asConfirmation(await estimating.getInterface());
      const text = dialogText(ui.content);
      expect(text).toContain('Allow this site to use an account?');
      expect(text).toContain(account.address);
      texts.push(text.replace(account.address, '<address>').replace(`#${addressIndex}`, '#<n>'));
      await ui.cancel();
      expectError(await estimating, 4001);
    }
    // The dialogs differ in what the user is told (account 0 is already theirs, on Testnet, and
    // site A has it); the site sees only that a dialog was shown and declined, either way.
    expect(texts[0]).toContain('Already your account on\nTestnet');
    expect(texts[1]).toContain('Already your account on\nno network yet');
  });
});
