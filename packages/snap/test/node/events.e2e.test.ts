/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_getTransactions on a long chain, from the node alone (the snap's explorer is a closed
 * port): a devnet of 20,000 blocks a minute apart (built with one batch of devnet_increaseTime
 * per stretch), with the account's transactions spread over it. The window
 * (`txnsInLastNumOfDays`) must hold exactly the transactions whose block is in it, and pages of
 * `pageSize` events must be followed to the end. Then the node's JSON-RPC version: 0.9 works,
 * anything else is a clear error.
 */
import { jsonRpcRequest, postJson } from '@l2wallet/testkit';
import { config, hash } from 'starknet';

import { expectError, resultOf, type ExpectedAccount } from '../harness/snap';
import {
  closeChain,
  closeChainDevnet,
  deployedSender,
  erc20Transfer,
  installChainSnap,
  serveE2eSnap,
  startChainDevnet,
  starknetJsAccount,
  STRK,
  ETH,
  type DevnetServer,
  type Snap,
  type SnapServer,
  type TxRecord,
} from '../harness/devnet';

// starknet.js warns on every Account call that a young chain has too few tips to average.
config.set('logLevel', 'ERROR');

const BLOCKS = 20_000;
const BLOCK_SECONDS = 60;
const STRETCHES = 10;
const RECIPIENT = '0x0999';

let devnet: DevnetServer;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;
const sent: string[] = [];

const norm = (value: string): string => `0x${BigInt(value).toString(16)}`;

async function increaseTime(blocks: number): Promise<void> {
  const batch = Array.from({ length: blocks }, (_, id) =>
    jsonRpcRequest('devnet_increaseTime', { time: BLOCK_SECONDS }, id),
  );
  expect((await postJson(devnet.rpcUrl, batch)).status).toBe(200);
}

async function list(snapUnderTest: Snap, params: Record<string, unknown>): Promise<TxRecord[]> {
  return resultOf<TxRecord[]>(
    await snapUnderTest.request({
      method: 'l2_getTransactions',
      params: { senderAddress: sender.address, ...params } as never,
    }),
  );
}

/**
 * From the devnet's core: the account's transactions (a fee-token Transfer from or to it) since
 * `since`.
 */
function expectedSince(since: number): string[] {
  const account = BigInt(sender.address);
  const tokens = [BigInt(STRK), BigInt(ETH)];
  const transfer = BigInt(hash.getSelectorFromName('Transfer'));
  const chain = devnet.devnet;
  const hashes: string[] = [];
  for (const record of chain.allTransactions()) {
    const block = chain.blocks[record.blockNumber];
    if (!block || block.timestamp < since || record.tx.type === 'DEPLOY_ACCOUNT') {
      continue;
    }
    if (
      record.events.some(
        (event) =>
          tokens.includes(event.fromAddress) &&
          event.keys[0] === transfer &&
          (event.keys[1] === account || event.keys[2] === account),
      )
    ) {
      hashes.push(norm(`0x${record.hash.toString(16)}`));
    }
  }
  return hashes.sort();
}

beforeAll(async () => {
  server = await serveE2eSnap({ explorer: 'closed' });
  const now = Math.floor(Date.now() / 1000);
  devnet = await startChainDevnet({ startTime: now - BLOCKS * BLOCK_SECONDS - 3600 });
  ({ snap, sender } = await deployedSender(server, devnet));
  const account = starknetJsAccount(devnet, sender);
  const stretch = Math.floor((BLOCKS - devnet.devnet.latestBlock().number) / STRETCHES);
  for (let index = 0; index < STRETCHES; index += 1) {
    await increaseTime(stretch);
    // One multicall of 12 transfers: 13 Transfer events from the account in one transaction,
    // more than a page of 10.
    const calls =
      index === STRETCHES - 2
        ? Array.from({ length: 12 }, (_, n) => erc20Transfer(RECIPIENT, BigInt(n + 1)))
        : [erc20Transfer(RECIPIENT, BigInt(index + 1))];
    sent.push(norm((await account.execute(calls)).transaction_hash));
  }
  await increaseTime(BLOCKS - devnet.devnet.latestBlock().number);
}, 300_000);

afterAll(() => closeChain(devnet, server));

describe('a 20,000-block chain', () => {
  it('is what the test built', () => {
    const chain = devnet.devnet;
    expect(chain.latestBlock().number).toBeGreaterThanOrEqual(BLOCKS);
    expect(chain.latestBlock().timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(chain.latestBlock().timestamp - chain.blocks[0].timestamp).toBeGreaterThanOrEqual(
      (BLOCKS - 20) * BLOCK_SECONDS,
    );
  });

  it.each([
    [7, 10],
    [3, 25],
    [30, 50],
  ])(
    'txnsInLastNumOfDays %i, pageSize %i: exactly the transactions of the window, newest first',
    async (days, pageSize) => {
      const sinceBefore = Math.floor(Date.now() / 1000) - days * 86_400;
      const items = await list(snap, { txnsInLastNumOfDays: days, pageSize });
      const sinceAfter = Math.floor(Date.now() / 1000) - days * 86_400;
      const hashes = items.map((item) => item.txnHash);
      expect(new Set(hashes).size).toBe(hashes.length);
      const widest = expectedSince(sinceBefore);
      const narrowest = expectedSince(sinceAfter);
      expect(hashes.every((txHash) => widest.includes(txHash))).toBe(true);
      expect(narrowest.every((txHash) => hashes.includes(txHash))).toBe(true);
      expect(hashes.length).toBeGreaterThan(0);
      expect(hashes.length).toBeLessThan(expectedSince(0).length + (days === 30 ? 1 : 0));
      for (let index = 1; index < items.length; index += 1) {
        expect(items[index - 1].timestamp).toBeGreaterThanOrEqual(items[index].timestamp);
      }
    },
  );

  it('follows continuation tokens: the 12-transfer multicall is listed with every call', async () => {
    const multicall = sent[STRETCHES - 2];
    const items = await list(snap, { txnsInLastNumOfDays: 30, pageSize: 10 });
    const record = items.find((item) => item.txnHash === multicall);
    expect(record?.contractFuncName.split(',')).toEqual(Array(12).fill('transfer'));
    expect(items.filter((item) => sent.includes(item.txnHash)).length).toBe(STRETCHES);
  });

  it('reads a warm window in few round trips (block timestamps are kept per network)', async () => {
    await list(snap, { txnsInLastNumOfDays: 7, pageSize: 50 });
    const before = devnet.metrics.httpRequests;
    await list(snap, { txnsInLastNumOfDays: 7, pageSize: 50 });
    expect(devnet.metrics.httpRequests - before).toBeLessThanOrEqual(4);
  });
});

describe('the node JSON-RPC version', () => {
  it('0.9: history (one getEvents address per filter) and the chain methods work', async () => {
    await closeChainDevnet(devnet);
    devnet = await startChainDevnet({ rpcVersion: '0.9.0' });
    const fresh = await deployedSender(server, devnet);
    const direct = await starknetJsAccount(devnet, fresh.sender).execute([
      erc20Transfer(RECIPIENT, 5n),
    ]);
    const items = resultOf<TxRecord[]>(
      await fresh.snap.request({
        method: 'l2_getTransactions',
        params: { senderAddress: fresh.sender.address, withDeployTxn: true },
      }),
    );
    const hashes = items.map((item) => item.txnHash);
    expect(hashes).toContain(norm(direct.transaction_hash));
    expect(hashes).toContain(norm(fresh.deployTxnHash));
    expect(devnet.metrics.rpcCalls.starknet_specVersion).toBe(1);
  });

  it('anything else: a clear error naming the version found and the versions supported', async () => {
    await closeChainDevnet(devnet);
    devnet = await startChainDevnet({ rpcVersion: '0.8.1' });
    const fresh = await installChainSnap(server.snapId);
    resultOf(await fresh.request({ method: 'l2_createAccount', params: { addressIndex: 0 } }));
    for (const [method, params] of [
      ['l2_getTransactions', { senderAddress: sender.address }],
      ['l2_getErc20TokenBalance', { tokenAddress: STRK, userAddress: sender.address }],
      ['l2_estimateAccountDeployFee', { addressIndex: 0 }],
      ['l2_getTransactionStatus', { transactionHash: '0x1234' }],
    ] as const) {
      expectError(
        await fresh.request({ method, params: params as never }),
        -32002,
        /speaks JSON-RPC 0\.8\.1; the snap supports 0\.9\.x and 0\.10\.x/u,
      );
    }
    // Checked once for the snap's execution, however many methods needed the node.
    expect(devnet.metrics.rpcCalls.starknet_specVersion).toBe(1);
  });
});
