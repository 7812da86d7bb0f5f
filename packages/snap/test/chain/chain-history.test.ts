/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_getTransactions / l2_getTransaction, l2_getTransactionStatus and pending balances end to
 * end, against a packages/devnet node on 127.0.0.1:5059 whose blocks close only when the test
 * says so (devnet_createBlock), so every status can be observed.
 */
import { expectError, resultOf, type ExpectedAccount } from '../helpers';
import {
  approve,
  closeChain,
  deployedSender,
  devnetRpc,
  erc20Transfer,
  ETH,
  provider,
  serveE2eSnap,
  startChainDevnet,
  starknetJsAccount,
  STRK,
  type DevnetServer,
  type Snap,
  type SnapServer,
  type TxRecord,
} from './harness';

const RECIPIENT = '0x0777';
const OTHER_CONTRACT = ETH;

let devnet: DevnetServer;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;
let deployTxnHash: string;

function transferCall(amount: bigint, token = STRK) {
  return erc20Transfer(RECIPIENT, amount, token);
}

async function closeBlock(): Promise<void> {
  await devnetRpc(devnet, 'devnet_createBlock', {});
}

async function execute(calls: ReturnType<typeof transferCall>[]): Promise<string> {
  return resultOf<{ transaction_hash: string }>(
    await approve(
      snap.request({ method: 'l2_executeTxn', params: { address: sender.address, calls } }),
    ),
  ).transaction_hash;
}

async function list(params: Record<string, unknown>): Promise<TxRecord[]> {
  return resultOf<TxRecord[]>(
    await snap.request({
      method: 'l2_getTransactions',
      params: { senderAddress: sender.address, ...params } as never,
    }),
  );
}

const norm = (value: string): string => `0x${BigInt(value).toString(16)}`;

beforeAll(async () => {
  server = await serveE2eSnap();
  // Blocks close only on devnet_createBlock (an hour between automatic blocks).
  devnet = await startChainDevnet({ blockTime: 3_600_000 });
  ({ snap, sender, deployTxnHash } = await deployedSender(server, devnet));
  await closeBlock();
}, 300_000);

afterAll(() => closeChain(devnet, server));

describe('l2_getTransactionStatus', () => {
  it('moves the stored record from RECEIVED/PENDING to ACCEPTED_ON_L2', async () => {
    const txHash = await execute([transferCall(10n)]);
    const early = resultOf<string>(
      await snap.request({
        method: 'l2_getTransactionStatus',
        params: { transactionHash: txHash },
      }),
    );
    expect(['RECEIVED', 'PENDING']).toContain(early);
    const node = (await provider(devnet).getTransactionStatus(txHash)) as {
      finality_status: string;
    };
    expect(early).toBe(node.finality_status === 'RECEIVED' ? 'RECEIVED' : 'PENDING');
    expect(
      (await list({ onlyFromState: true })).find((r) => r.txnHash === norm(txHash))?.status,
    ).toBe(early);

    await closeBlock();
    expect(
      resultOf<string>(
        await snap.request({
          method: 'starkNet_getTransactionStatus',
          params: { transactionHash: txHash },
        }),
      ),
    ).toBe('ACCEPTED_ON_L2');
    const record = (await list({ onlyFromState: true })).find((r) => r.txnHash === norm(txHash));
    expect(record).toMatchObject({ status: 'ACCEPTED_ON_L2', failureReason: null });
  });

  it('gives a clear error for a hash the node and the snap do not know', async () => {
    expectError(
      await snap.request({
        method: 'l2_getTransactionStatus',
        params: { transactionHash: '0x1234' },
      }),
      -32001,
      /0x1234 is not known on Testnet/u,
    );
  });

  it.each([
    [{}, /"transactionHash" is required/u],
    [{ transactionHash: 'hash' }, /"transactionHash"/u],
    [{ transactionHash: '0x1', chainId: 'x' }, /"chainId"/u],
  ])('rejects invalid params %j with -32602', async (params, message) => {
    expectError(await snap.request({ method: 'l2_getTransactionStatus', params }), -32602, message);
  });
});

describe('l2_getErc20TokenBalance with a block open', () => {
  it('shows the pending transfer in balancePending only', async () => {
    const before = BigInt(
      resultOf<{ balanceLatest: string }>(
        await snap.request({
          method: 'l2_getErc20TokenBalance',
          params: { tokenAddress: STRK, userAddress: RECIPIENT },
        }),
      ).balanceLatest,
    );
    await execute([transferCall(500n)]);
    const balance = resultOf<{ balanceLatest: string; balancePending: string }>(
      await snap.request({
        method: 'l2_getErc20TokenBalance',
        params: { tokenAddress: STRK, userAddress: RECIPIENT },
      }),
    );
    expect(BigInt(balance.balanceLatest)).toBe(before);
    expect(BigInt(balance.balancePending)).toBe(before + 500n);
    await closeBlock();
  });
});

describe('l2_getTransactions', () => {
  let directHash: string;
  let ethHash: string;

  beforeAll(async () => {
    // A transaction the snap never saw: sent with the same key straight through starknet.js.
    const account = starknetJsAccount(devnet, sender);
    directHash = (await account.execute([transferCall(1n)])).transaction_hash;
    await closeBlock();
    ethHash = await execute([transferCall(0n, OTHER_CONTRACT)]);
    await closeBlock();
  });

  it('merges the explorer and snap state: every hash once, newest first, records of SPEC 2.4', async () => {
    const items = await list({ pageSize: 25 });
    const hashes = items.map((item) => item.txnHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(hashes).toContain(norm(directHash));
    expect(hashes).toContain(norm(ethHash));
    expect(hashes).not.toContain(norm(deployTxnHash));
    for (let index = 1; index < items.length; index += 1) {
      expect(items[index - 1].timestamp).toBeGreaterThanOrEqual(items[index].timestamp);
    }
    // The same set as the devnet's explorer lists (deployment excluded by default).
    const response = await fetch(`${devnet.url}/api/txns?to=${sender.address}&ps=50&p=1`);
    const explorer = (await response.json()) as { items: { hash: string; type: string }[] };
    expect([...hashes].sort()).toEqual(
      explorer.items
        .filter((item) => item.type !== 'DEPLOY_ACCOUNT')
        .map((item) => norm(item.hash))
        .sort(),
    );
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(
        [
          'chainId',
          'contractAddress',
          'contractCallData',
          'contractFuncName',
          'eventIds',
          'failureReason',
          'senderAddress',
          'status',
          'timestamp',
          'txnHash',
          'txnType',
        ].sort(),
      );
      expect(item.chainId).toBe('0x534e5f5345504f4c4941');
      expect(item.status).toBe('ACCEPTED_ON_L2');
    }
    const direct = items.find((item) => item.txnHash === norm(directHash));
    expect(direct).toMatchObject({ txnType: 'invoke', contractFuncName: 'transfer' });
    expect(BigInt(direct?.contractAddress ?? 0)).toBe(BigInt(STRK));
  });

  it('includes the deployment with withDeployTxn', async () => {
    const items = await list({ withDeployTxn: true });
    expect(items.map((item) => item.txnHash)).toContain(norm(deployTxnHash));
    expect(items.find((item) => item.txnHash === norm(deployTxnHash))?.txnType).toBe(
      'deploy_account',
    );
  });

  it('answers only snap state with onlyFromState', async () => {
    const items = await list({ onlyFromState: true });
    const hashes = items.map((item) => item.txnHash);
    expect(hashes).toContain(norm(ethHash));
    expect(hashes).not.toContain(norm(directHash));
  });

  it('filters by contractAddress, and l2_getTransaction is the same method', async () => {
    const items = resultOf<TxRecord[]>(
      await snap.request({
        method: 'l2_getTransaction',
        params: { senderAddress: sender.address, contractAddress: OTHER_CONTRACT },
      }),
    );
    expect(items.map((item) => item.txnHash)).toEqual([norm(ethHash)]);
  });

  it('keeps only the last txnsInLastNumOfDays days', async () => {
    const now = Math.floor(Date.now() / 1000);
    const items = await list({ txnsInLastNumOfDays: 1 });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.timestamp >= now - 86_400 - 5)).toBe(true);
  });

  it('requires senderAddress', async () => {
    expectError(
      await snap.request({ method: 'l2_getTransactions', params: { pageSize: 10 } }),
      -32602,
      /"senderAddress" is required/u,
    );
  });

  it.each([
    [{ pageSize: 11 }, /"pageSize".*10, 25 or 50/u],
    [{ pageSize: '10' }, /"pageSize"/u],
    [{ txnsInLastNumOfDays: 0 }, /"txnsInLastNumOfDays"/u],
    [{ withDeployTxn: 'yes' }, /"withDeployTxn"/u],
    [{ onlyFromState: 1 }, /"onlyFromState"/u],
    [{ contractAddress: 'x' }, /"contractAddress"/u],
  ])('rejects invalid params %j with -32602', async (params, message) => {
    expectError(
      await snap.request({
        method: 'l2_getTransactions',
        params: { senderAddress: sender.address, ...params } as never,
      }),
      -32602,
      message,
    );
  });
});
