/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * After the snap has sent a signed outside execution to the paymaster, no failure means nothing
 * happened. A proxy in front of the real paymaster (packages/paymaster's l2-paymaster on this
 * file's devnet) relays paymaster_executeTransaction, so the relayer submits it, and then answers
 * the snap a 502 or a JSON-RPC error instead of the result. The dapp is told the transaction may
 * have been submitted, with its tracking id; the transaction lands; the snap keeps a RECEIVED
 * record, and l2_getTransactionStatus / l2_getTransactions resolve it through
 * paymaster_trackingIdToLatestHash to the relayer's transaction. A refusal before anything was
 * sent still says nothing was signed or sent.
 */
import {
  mintEth,
  postJson,
  serveHttp,
  startDevnetPaymaster,
  type DevnetPaymaster,
  type StubServer,
} from '@l2wallet/testkit';

import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import {
  approve,
  balanceOf,
  closeChain,
  dialogOf,
  ETH,
  erc20Transfer,
  installChainSnap,
  serveE2eSnap,
  startChainDevnet,
  storedRecords,
  type DevnetServer,
  type Snap,
  type SnapServer,
  type TxRecord,
} from '../harness/devnet';

const RECIPIENT = '0x0123456789abcdef';
const FEE_IN_ETH = { mode: 'default', gasToken: ETH };

/** What the proxy answers the snap once it relayed an execute to the paymaster. */
type Lie = 'none' | '502' | 'json-rpc-error';

let devnet: DevnetServer | undefined;
let paymaster: DevnetPaymaster | undefined;
let proxy: StubServer | undefined;
let server: SnapServer | undefined;
let lie: Lie = 'none';
/** Answer every tracking id as unknown (160), as a paymaster whose ids are its own would. */
let unknownIds = false;
let relayed: { transaction_hash: string; tracking_id: string } | undefined;

beforeAll(async () => {
  devnet = await startChainDevnet();
  paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
    gasTokens: [{ address: ETH, priceInStrk: '2500' }],
  });
  const target = paymaster.url;
  proxy = await serveHttp(async (request, response, body) => {
    if (unknownIds && body.includes('paymaster_trackingIdToLatestHash')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: JSON.parse(body).id,
          error: { code: 160, message: 'An error occurred (INVALID_ID)' },
        }),
      );
      return;
    }
    const answer = await postJson(target, body);
    const isExecute = body.includes('paymaster_executeTransaction');
    if (isExecute) {
      relayed = answer.json?.result;
    }
    if (isExecute && lie === '502') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    if (isExecute && lie === 'json-rpc-error') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: answer.json?.id ?? null,
          error: { code: 155, message: 'An error occurred (CLASS_HASH_NOT_SUPPORTED)' },
        }),
      );
      return;
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.text);
  });
  server = await serveE2eSnap({ paymasterUrl: proxy.url });
});

afterAll(async () => {
  await proxy?.close();
  await paymaster?.stop();
  await closeChain(devnet, server);
});

const chain = (): DevnetServer => devnet as DevnetServer;

/** l2_executeTxn of one ETH transfer, the fee in ETH through the paymaster, approved. */
function sendApproved(snap: Snap, address: string, amount: bigint) {
  return approve(
    snap.request({
      method: 'l2_executeTxn',
      params: {
        address,
        calls: [erc20Transfer(RECIPIENT, amount, ETH)],
        details: { feeMode: FEE_IN_ETH },
      },
    }),
  );
}

describe.each<[Lie, RegExp]>([
  ['502', /HTTP 502|502/u],
  ['json-rpc-error', /error 155/u],
])('a paymaster that relays the execute and then answers %s', (kind, said) => {
  let snap: Snap;
  let account: ExpectedAccount;
  const index = kind === '502' ? 0 : 1;

  beforeAll(async () => {
    snap = await installChainSnap((server as SnapServer).snapId);
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: index } }));
    account = await expectedAccount(DEFAULT_SRP, index);
    await mintEth(chain().rpcUrl, account.address, 10n ** 18n);
  });

  afterEach(() => {
    lie = 'none';
  });

  it('tells the dapp it may have been submitted, the transaction lands, the record resolves', async () => {
    lie = kind;
    relayed = undefined;
    const response = (await sendApproved(snap, account.address, 700n)) as {
      response: { error?: { code: number; message: string; data?: Record<string, unknown> } };
    };
    const { error } = response.response;
    expect(error?.message).toMatch(/may have been submitted/u);
    expect(error?.message).toMatch(said);
    expect(error?.message).not.toMatch(/Nothing was (signed|changed)|nothing was sent/iu);
    const trackingId = /tracking id is (0x[0-9a-f]+)/u.exec(error?.message ?? '')?.[1];
    expect(trackingId).toBeDefined();
    expect(error?.data).toMatchObject({ mayHaveBeenSubmitted: true, trackingId });

    // The relayer did submit it, under the tracking id the snap named.
    expect(relayed).toBeDefined();
    const { transaction_hash: hash, tracking_id: paymasterTrackingId } = relayed!;
    expect(BigInt(paymasterTrackingId)).toBe(BigInt(trackingId!));
    expect(await balanceOf(chain(), ETH, RECIPIENT)).toBe(kind === '502' ? 700n : 1400n);

    // The record is there, RECEIVED, before anything resolves it.
    const stored = await snap.request({
      method: 'l2_getTransactions',
      params: { senderAddress: account.address, onlyFromState: true },
    });
    expect(resultOf<TxRecord[]>(stored)).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'RECEIVED' })]),
    );

    // The status asked by tracking id is the relayer's transaction's.
    expect(
      resultOf(
        await snap.request({
          method: 'l2_getTransactionStatus',
          params: { transactionHash: trackingId! },
        }),
      ),
    ).toBe('ACCEPTED_ON_L2');
    const records = await storedRecords(snap, account.address);
    const record = records.find((r) => BigInt(r.txnHash) === BigInt(hash));
    expect(record).toMatchObject({ senderAddress: account.address, status: 'ACCEPTED_ON_L2' });
    expect(records.filter((r) => BigInt(r.txnHash) === BigInt(trackingId!))).toEqual([]);
    // And the history has it once, under the relayer's hash.
    const history = resultOf<TxRecord[]>(
      await snap.request({
        method: 'l2_getTransactions',
        params: { senderAddress: account.address, txnsInLastNumOfDays: 1 },
      }),
    );
    expect(history.filter((r) => BigInt(r.txnHash) === BigInt(hash))).toHaveLength(1);
    expect(history.filter((r) => BigInt(r.txnHash) === BigInt(trackingId!))).toEqual([]);
  });
});

describe('a paymaster that does not know the tracking id (its ids are its own)', () => {
  afterAll(() => {
    unknownIds = false;
  });

  it('resolves the record from the account: its SNIP-9 nonce is used, so the execution ran', async () => {
    const snap = await installChainSnap((server as SnapServer).snapId);
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 3 } }));
    const account = await expectedAccount(DEFAULT_SRP, 3);
    await mintEth(chain().rpcUrl, account.address, 10n ** 18n);
    lie = '502';
    unknownIds = true;
    relayed = undefined;
    const response = (await sendApproved(snap, account.address, 300n)) as {
      response: { error?: { message: string; data?: { trackingId?: string } } };
    };
    lie = 'none';
    const trackingId = response.response.error?.data?.trackingId;
    expect(response.response.error?.message).toMatch(/may have been submitted/u);
    expect(relayed).toBeDefined();
    const records = await storedRecords(snap, account.address);
    expect(records.find((r) => BigInt(r.txnHash) === BigInt(trackingId!))).toMatchObject({
      status: 'ACCEPTED_ON_L2',
      senderAddress: account.address,
    });
  });
});

describe('a refusal before anything was sent', () => {
  it('still says nothing was signed or sent', async () => {
    const snap = await installChainSnap((server as SnapServer).snapId);
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 2 } }));
    const account = await expectedAccount(DEFAULT_SRP, 2);
    // No ETH at all: the paymaster refuses to build, and the preview's simulation reverts, so
    // the dialog warns; approved, the paymaster is asked again and refuses again.
    const pending = snap.request({
      method: 'l2_executeTxn',
      params: {
        address: account.address,
        calls: [erc20Transfer(RECIPIENT, 1n, ETH)],
        details: { feeMode: FEE_IN_ETH },
      },
    });
    const dialog = await dialogOf(pending);
    expect(dialogText(dialog.content)).toContain('This transaction is expected to fail');
    await dialog.ok();
    const response = await pending;
    const { error } = response.response as { error?: { message: string } };
    expect(error?.message).not.toMatch(/may have been submitted/u);
    expect(await storedRecords(snap, account.address)).toEqual([]);
  });
});
