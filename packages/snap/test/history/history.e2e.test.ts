/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_getTransactions / l2_getTransaction, l2_getTransactionStatus and pending balances end to
 * end, against a packages/devnet node on this file's own port whose blocks close only when the test
 * says so (devnet_createBlock), so every status can be observed. The snap's explorer is a closed
 * port: the history comes from the node (fee-token Transfer events) and snap state only.
 */
import { Account, hash } from 'starknet';

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
  closeChainDevnet,
  devnetHost,
  nodeReceipt,
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
} from '../harness/devnet';

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
  server = await serveE2eSnap({ explorer: 'closed' });
  // Blocks close only on devnet_createBlock (an hour between automatic blocks).
  devnet = await startChainDevnet({ blockTime: 3_600_000 });
  ({ snap, sender, deployTxnHash } = await deployedSender(server, devnet));
  await closeBlock();
}, 300_000);

afterAll(() => closeChain(devnet, server));

describe('l2_getTransactionStatus', () => {
  it('moves the stored record from RECEIVED/PENDING to ACCEPTED_ON_L2', async () => {
    const txHash = await execute([transferCall(10n)]);
    // The devnet moves a transaction from RECEIVED to PRE_CONFIRMED on a timer: the snap's answer
    // is the node's status at some moment between the test's two reads of it.
    const nodeStatus = async () => {
      const { finality_status: status } = (await provider(devnet).getTransactionStatus(txHash)) as {
        finality_status: string;
      };
      return status === 'RECEIVED' ? 'RECEIVED' : 'PENDING';
    };
    const before = await nodeStatus();
    const early = resultOf<string>(
      await snap.request({
        method: 'l2_getTransactionStatus',
        params: { transactionHash: txHash },
      }),
    );
    const after = await nodeStatus();
    expect(['RECEIVED', 'PENDING']).toContain(early);
    expect([before, after]).toContain(early);
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
  let incomingHash: string;
  let revertedHash: string;
  let other: string;

  beforeAll(async () => {
    // A transaction the snap never saw: sent with the same key straight through starknet.js.
    const account = starknetJsAccount(devnet, sender);
    directHash = (await account.execute([transferCall(1n)])).transaction_hash;
    await closeBlock();
    ethHash = await execute([transferCall(0n, OTHER_CONTRACT)]);
    await closeBlock();
    // An incoming transfer from another wallet (a predeployed account of the devnet).
    const [funder] = devnet.predeployedAccounts;
    other = funder.address;
    const funderAccount = new Account({
      provider: provider(devnet),
      address: funder.address,
      signer: funder.private_key,
    });
    incomingHash = (await funderAccount.execute([erc20Transfer(sender.address, 777n)]))
      .transaction_hash;
    await closeBlock();
    // A transfer of more than the account holds reverts on chain; given resource bounds, the
    // snap signs and sends it without an estimate (which would refuse it).
    revertedHash = resultOf<{ transaction_hash: string }>(
      await approve(
        snap.request({
          method: 'l2_executeTxn',
          params: {
            address: sender.address,
            calls: [transferCall(10n ** 30n)],
            details: {
              resourceBounds: {
                l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
                l2_gas: { max_amount: '0x2000000', max_price_per_unit: '0x2540be400' },
                l1_data_gas: { max_amount: '0x400', max_price_per_unit: '0x2540be400' },
              },
            },
          },
        }),
      ),
    ).transaction_hash;
    await closeBlock();
  });

  /**
   * The hashes the devnet's own chain holds for the account, read from its core (not through
   * RPC): every transaction with a STRK or ETH Transfer from or to the account.
   */
  function expectedHashes(withDeploy: boolean): string[] {
    const account = BigInt(sender.address);
    const tokens = [BigInt(STRK), BigInt(ETH)];
    const transfer = BigInt(hash.getSelectorFromName('Transfer'));
    const hashes: string[] = [];
    for (const record of devnet.devnet.allTransactions()) {
      if (record.blockNumber >= devnet.devnet.pending.number) {
        continue;
      }
      const involved = record.events.some(
        (event) =>
          tokens.includes(event.fromAddress) &&
          event.keys[0] === transfer &&
          (event.keys[1] === account || event.keys[2] === account),
      );
      if (involved && (withDeploy || record.tx.type !== 'DEPLOY_ACCOUNT')) {
        hashes.push(norm(`0x${record.hash.toString(16)}`));
      }
    }
    return hashes.sort();
  }

  it('lists from the node what the account sent and received: transaction records, newest first', async () => {
    const items = await list({ pageSize: 25 });
    const hashes = items.map((item) => item.txnHash);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect([...hashes].sort()).toEqual(expectedHashes(false));
    for (const expected of [directHash, ethHash, incomingHash, revertedHash]) {
      expect(hashes).toContain(norm(expected));
    }
    expect(hashes).not.toContain(norm(deployTxnHash));
    for (let index = 1; index < items.length; index += 1) {
      expect(items[index - 1].timestamp).toBeGreaterThanOrEqual(items[index].timestamp);
    }
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
      expect(item.eventIds.length).toBeGreaterThan(0);
    }
    const direct = items.find((item) => item.txnHash === norm(directHash));
    expect(direct).toMatchObject({
      txnType: 'invoke',
      contractFuncName: 'transfer',
      status: 'ACCEPTED_ON_L2',
      failureReason: null,
      contractCallData: [norm(RECIPIENT), '0x1', '0x0'],
    });
    expect(BigInt(direct?.senderAddress ?? 0)).toBe(BigInt(sender.address));
    expect(BigInt(direct?.contractAddress ?? 0)).toBe(BigInt(STRK));
    const { block_number: blockNumber } = await nodeReceipt<{ block_number: number }>(
      devnet,
      directHash,
    );
    const block = await provider(devnet).getBlockWithTxHashes(blockNumber);
    expect(direct?.timestamp).toBe(block.timestamp);
  });

  it('shows an incoming transfer with the other account as sender and the token as contract', async () => {
    const incoming = (await list({})).find((item) => item.txnHash === norm(incomingHash));
    expect(incoming).toMatchObject({ txnType: 'invoke', contractFuncName: 'transfer' });
    expect(BigInt(incoming?.senderAddress ?? 0)).toBe(BigInt(other));
    expect(BigInt(incoming?.contractAddress ?? 0)).toBe(BigInt(STRK));
  });

  it('shows a reverted transaction as REJECTED with its revert reason', async () => {
    const receipt = await nodeReceipt<{ execution_status: string; revert_reason: string }>(
      devnet,
      revertedHash,
    );
    expect(receipt.execution_status).toBe('REVERTED');
    const reverted = (await list({})).find((item) => item.txnHash === norm(revertedHash));
    expect(reverted).toMatchObject({ status: 'REJECTED', failureReason: receipt.revert_reason });
  });

  it('includes the deployment with withDeployTxn', async () => {
    const items = await list({ withDeployTxn: true });
    expect(items.map((item) => item.txnHash).sort()).toEqual(expectedHashes(true));
    expect(items.find((item) => item.txnHash === norm(deployTxnHash))).toMatchObject({
      txnType: 'deploy_account',
      status: 'ACCEPTED_ON_L2',
    });
  });

  it('answers only snap state with onlyFromState', async () => {
    const items = await list({ onlyFromState: true });
    const hashes = items.map((item) => item.txnHash);
    expect(hashes).toContain(norm(ethHash));
    expect(hashes).not.toContain(norm(directHash));
    expect(hashes).not.toContain(norm(incomingHash));
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

  it('shows the home page: accounts with balances and deploy state, the last five transactions', async () => {
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 1 } }));
    const undeployed = await expectedAccount(DEFAULT_SRP, 1);
    const page = await snap.onHomePage();
    const text = dialogText(page.getInterface().content);
    expect(text).toContain(sender.address);
    expect(text).toContain(undeployed.address);
    const strk = await balanceOf(devnet, STRK, sender.address);
    const whole = strk / 10n ** 18n;
    const fraction = (strk % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/u, '');
    expect(text).toContain(`${whole}${fraction ? `.${fraction}` : ''} STRK`);
    expect(text).toMatch(/Deployed\s*yes[\s\S]*Deployed\s*not yet/u);
    const latest = (await list({ txnsInLastNumOfDays: 30, withDeployTxn: true })).slice(0, 5);
    for (const record of latest) {
      expect(text).toContain(record.txnHash);
    }
    expect(text).toContain(`REJECTED (`);
  });

  it('answers from snap state when the node is down too, and -32002 only with nothing to answer', async () => {
    await closeChainDevnet(devnet);
    try {
      const items = await list({});
      expect(items.map((item) => item.txnHash)).toContain(norm(ethHash));
      expect(items.map((item) => item.txnHash)).not.toContain(norm(directHash));
      const stranger = await snap.request({
        method: 'l2_getTransactions',
        params: { senderAddress: '0x0777' },
      });
      expectError(stranger, -32002, new RegExp((await devnetHost()).replace(/\./gu, '\\.'), 'u'));
    } finally {
      devnet = await startChainDevnet({ blockTime: 3_600_000 });
    }
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
