import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash, num } from 'starknet';
import WebSocket from 'ws';
import { STRK_TOKEN_ADDRESS } from '../src';
import { postRaw, rpc, startTestDevnet, TestDevnet, transferCall, WAIT } from './helpers';
import { errorProblems } from './spec/schemas';
import { WsClient, WsMessage } from './ws-client';

const TRANSFER = hash.getSelectorFromName('Transfer');
/** Block time and pre-confirmation delay long enough that only devnet_createBlock moves things. */
const MANUAL = { blockTime: 3_600_000, preconfirmDelayMs: 3_600_000 };

const results = (messages: WsMessage[]) => messages.map((m) => m.params!.result);

/** Checks a refusal: its code, and the spec's error for that method (message, data). */
function expectError(method: string, reply: WsMessage, code: number): void {
  expect(reply.error?.code).toBe(code);
  expect(errorProblems(method, reply.error!)).toEqual([]);
}

describe('WebSocket API: heads, replays and errors (a block per transaction)', () => {
  let t: TestDevnet;
  let c: WsClient;
  beforeAll(async () => {
    t = await startTestDevnet({ seed: 3 });
    c = await WsClient.open(t.devnet.wsUrl);
  });
  afterEach(() => expect(c.problems).toEqual([]));
  afterAll(async () => {
    await c.close();
    await t.devnet.close();
  });

  test('/ws only: another path is refused at the upgrade', async () => {
    const ws = new WebSocket(t.devnet.wsUrl.replace('/ws', '/nope'));
    await expect(
      new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
        ws.once('error', reject);
      }),
    ).rejects.toThrow('404');
  });

  test('subscribeNewHeads: each new block, as getBlockWithTxHashes has it', async () => {
    const id = await c.subscribe('starknet_subscribeNewHeads');
    expect(id).toMatch(/^\d+$/);
    expect(c.of(id)).toHaveLength(0); // latest: new blocks only, nothing replayed
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock');
    const [head] = results(await c.until(() => c.of(id).length === 1 && c.of(id)));
    const block = (await rpc(t.devnet.rpcUrl, 'starknet_getBlockWithTxHashes', ['latest']))
      .result as Record<string, unknown>;
    const { status, transactions, ...header } = block;
    expect([status, transactions]).toEqual(['ACCEPTED_ON_L2', []]);
    expect(head).toEqual(header);
    expect((await c.call('starknet_unsubscribe', { subscription_id: id })).result).toBe(true);
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock');
    await c.call('starknet_chainId'); // a one-time request: its answer comes after any notification
    expect(c.of(id)).toHaveLength(1);
  });

  test('subscribeNewHeads from a block number or hash replays up to the latest', async () => {
    const latest = (await rpc(t.devnet.rpcUrl, 'starknet_blockNumber')).result as number;
    const byNumber = await c.subscribe('starknet_subscribeNewHeads', {
      block_id: { block_number: 0 },
    });
    const heads = results(
      await c.until(() => c.of(byNumber).length === latest + 1 && c.of(byNumber)),
    );
    expect(heads.map((h) => h.block_number)).toEqual([...Array(latest + 1).keys()]);
    const hash1 = heads[1].block_hash;
    const byHash = await c.subscribe('starknet_subscribeNewHeads', [{ block_hash: hash1 }]);
    await c.until(() => c.of(byHash).length === latest);
    expect(results(c.of(byHash))[0]).toEqual(heads[1]);
  });

  test('spec errors: unknown block 24, pre_confirmed and bad params -32602, unknown id 66', async () => {
    const method = 'starknet_subscribeNewHeads';
    expectError(method, await c.call(method, { block_id: { block_number: 99_999 } }), 24);
    expectError(method, await c.call(method, { block_id: { block_hash: '0x1234' } }), 24);
    expectError(method, await c.call(method, { block_id: 'pre_confirmed' }), -32602);
    expectError(method, await c.call(method, { block_id: 'l1_accepted' }), -32602);
    expectError(method, await c.call(method, { block: 'latest' }), -32602);
    const events = 'starknet_subscribeEvents';
    expectError(events, await c.call(events, { from_address: 'STRK' }), -32602);
    expectError(events, await c.call(events, { finality_status: 'ACCEPTED_ON_L1' }), -32602);
    const keys = [Array.from({ length: 101 }, (_, i) => `0x${i.toString(16)}`)];
    expectError(events, await c.call(events, { keys }), 34);
    for (const m of [
      'starknet_subscribeNewTransactions',
      'starknet_subscribeNewTransactionReceipts',
    ]) {
      const senders = Array.from({ length: 1025 }, (_, i) => `0x${(i + 1).toString(16)}`);
      expectError(m, await c.call(m, { sender_address: senders }), 67);
      expectError(m, await c.call(m, { finality_status: ['ACCEPTED_ON_L1'] }), -32602);
    }
    const status = 'starknet_subscribeTransactionStatus';
    expectError(status, await c.call(status, {}), -32602);
    const un = 'starknet_unsubscribe';
    expectError(un, await c.call(un, { subscription_id: '12345' }), 66);
    expectError(un, await c.call(un, { subscription_id: 12345 }), -32602);
    expect((await c.call('starknet_nope')).error?.code).toBe(-32601);
    c.ws.send('{not json');
    await c.until(() => c.messages.find((m) => m.error?.code === -32700));
  });

  test('TOO_MANY_BLOCKS_BACK (68) past 1024 blocks back', async () => {
    const batch = Array.from({ length: 1030 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'devnet_createBlock',
    }));
    await postRaw(t.devnet.rpcUrl, JSON.stringify(batch));
    const latest = (await rpc(t.devnet.rpcUrl, 'starknet_blockNumber')).result as number;
    const method = 'starknet_subscribeEvents';
    expectError(method, await c.call(method, { block_id: { block_number: latest - 1025 } }), 68);
    const ok = await c.call(method, { block_id: { block_number: latest - 1024 } });
    expect(typeof ok.result).toBe('string');
  });
});

describe('WebSocket API: a transaction from RECEIVED to ACCEPTED_ON_L2 (block time)', () => {
  let t: TestDevnet;
  let c: WsClient;
  beforeAll(async () => {
    t = await startTestDevnet({ seed: 4, ...MANUAL });
    c = await WsClient.open(t.devnet.wsUrl);
  });
  afterEach(() => expect(c.problems).toEqual([]));
  afterAll(async () => {
    await c.close();
    await t.devnet.close();
  });

  test('every subscription, with its filters', async () => {
    const [a0, a1, a2] = t.devnet.predeployedAccounts.map((a) => a.address);
    const allTxs = await c.subscribe('starknet_subscribeNewTransactions', {
      finality_status: ['RECEIVED', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
    });
    const fromA1 = await c.subscribe('starknet_subscribeNewTransactions', {
      sender_address: [a1],
    });
    const receipts = await c.subscribe('starknet_subscribeNewTransactionReceipts', {
      finality_status: ['PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
      sender_address: [a0],
    });
    const acceptedReceipts = await c.subscribe('starknet_subscribeNewTransactionReceipts');
    const strkEvents = await c.subscribe('starknet_subscribeEvents', {
      from_address: STRK_TOKEN_ADDRESS,
      keys: [[TRANSFER], [a0]],
      finality_status: 'PRE_CONFIRMED',
    });
    const acceptedEvents = await c.subscribe('starknet_subscribeEvents', {
      keys: [[TRANSFER], [], [a2]],
    });
    const heads = await c.subscribe('starknet_subscribeNewHeads');

    const { transaction_hash: txHash } = await t
      .account(0)
      .execute(transferCall(a2, 5n), { tip: 0n });
    const status = await c.subscribe('starknet_subscribeTransactionStatus', {
      transaction_hash: txHash,
    });
    await c.until(() => c.of(status).length === 1);
    expect(results(c.of(status))).toEqual([
      { transaction_hash: txHash, status: { finality_status: 'RECEIVED' } },
    ]);
    expect(results(c.of(allTxs))).toEqual([
      expect.objectContaining({ transaction_hash: txHash, finality_status: 'RECEIVED' }),
    ]);

    await rpc(t.devnet.rpcUrl, 'devnet_createBlock');
    await c.until(() => c.of(heads).length === 1);
    await c.call('starknet_chainId');

    expect(results(c.of(status)).map((r) => r.status)).toEqual([
      { finality_status: 'RECEIVED' },
      { finality_status: 'PRE_CONFIRMED', execution_status: 'SUCCEEDED' },
      { finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' },
    ]);
    const tx = (await rpc(t.devnet.rpcUrl, 'starknet_getTransactionByHash', [txHash])).result;
    expect(results(c.of(allTxs))).toEqual(
      ['RECEIVED', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'].map((s) => ({
        ...(tx as object),
        finality_status: s,
      })),
    );
    expect(c.of(fromA1)).toHaveLength(0); // sent by a0
    const receipt = (await rpc(t.devnet.rpcUrl, 'starknet_getTransactionReceipt', [txHash])).result;
    expect(results(c.of(receipts)).map((r) => r.finality_status)).toEqual([
      'PRE_CONFIRMED',
      'ACCEPTED_ON_L2',
    ]);
    expect(results(c.of(receipts))[1]).toEqual(receipt);
    expect(results(c.of(acceptedReceipts))).toEqual([receipt]);

    // The transfer's event (a0 -> a2) twice for PRE_CONFIRMED, once for ACCEPTED_ON_L2; the
    // fee transfer (a0 -> sequencer) matches the first filter only.
    const strk = results(c.of(strkEvents));
    expect(strk.map((e) => [e.finality_status, e.keys])).toEqual([
      [
        'PRE_CONFIRMED',
        [TRANSFER, a0, a2].map((x) => expect.stringMatching(new RegExp(x.slice(3), 'i'))),
      ],
      ['PRE_CONFIRMED', expect.any(Array)],
      ['ACCEPTED_ON_L2', expect.any(Array)],
      ['ACCEPTED_ON_L2', expect.any(Array)],
    ]);
    expect(strk[0]).not.toHaveProperty('block_hash');
    expect(strk[2]).toMatchObject({ transaction_hash: txHash, block_number: 1, event_index: 0 });
    const accepted = results(c.of(acceptedEvents));
    expect(accepted).toEqual([strk[2]]);

    // A new events subscription from block 1 replays them; PRE_CONFIRMED also the pending ones.
    const replay = await c.subscribe('starknet_subscribeEvents', {
      keys: [[TRANSFER], [], [a2]],
      block_id: { block_number: 1 },
    });
    await c.until(() => c.of(replay).length === 1);
    expect(results(c.of(replay))).toEqual(accepted);
    // A status subscription to an accepted transaction gets its status at once.
    const late = await c.subscribe('starknet_subscribeTransactionStatus', [txHash]);
    await c.until(() => c.of(late).length === 1);
    expect(results(c.of(late))[0].status).toEqual({
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'SUCCEEDED',
    });

    // devnet_acceptOnL1 takes the followed transaction on to ACCEPTED_ON_L1, for both status
    // subscriptions; the other subscriptions' filters end at ACCEPTED_ON_L2, so they hear nothing.
    const before = c.messages.length;
    await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', { starting_block_id: 'latest' });
    await c.until(() => c.of(status).length === 4 && c.of(late).length === 2);
    const onL1 = { finality_status: 'ACCEPTED_ON_L1', execution_status: 'SUCCEEDED' };
    expect(results(c.of(status))[3]).toEqual({ transaction_hash: txHash, status: onL1 });
    expect(results(c.of(late))[1].status).toEqual(onL1);
    await c.call('starknet_chainId');
    const notes = c.messages.slice(before).filter((m) => m.method);
    expect(notes.map((m) => m.method)).toEqual([
      'starknet_subscriptionTransactionStatus',
      'starknet_subscriptionTransactionStatus',
    ]);
  });

  test('one-time requests over the socket answer as over HTTP', async () => {
    const reply = await c.call('starknet_getBlockWithTxHashes', { block_id: 'latest' });
    const http = await rpc(t.devnet.rpcUrl, 'starknet_getBlockWithTxHashes', ['latest']);
    expect(reply.result).toEqual(http.result);
  });
});

describe('devnet_abortBlocks and starknet_subscriptionReorg', () => {
  let t: TestDevnet;
  let c: WsClient;
  beforeAll(async () => {
    t = await startTestDevnet({ seed: 5 });
    c = await WsClient.open(t.devnet.wsUrl);
  });
  afterEach(() => expect(c.problems).toEqual([]));
  afterAll(async () => {
    await c.close();
    await t.devnet.close();
  });

  test('aborts blocks 2..latest: reorg notified, transactions gone, state back', async () => {
    const url = t.devnet.rpcUrl;
    const to = t.devnet.predeployedAccounts[4].address;
    const balance = async () =>
      BigInt(
        (
          (await rpc(url, 'devnet_getAccountBalance', { address: to, unit: 'FRI' })).result as {
            amount: string;
          }
        ).amount,
      );
    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { transaction_hash } = await t.account(0).execute(transferCall(to, 7n));
      await t.provider.waitForTransaction(transaction_hash, WAIT);
      sent.push(transaction_hash);
    }
    const blocks = await Promise.all(
      [1, 2, 3].map(
        async (n) => (await t.provider.getBlockWithTxHashes(n)) as { block_hash: string },
      ),
    );
    const before = await balance();
    const heads = await c.subscribe('starknet_subscribeNewHeads');
    const status = await c.subscribe('starknet_subscribeTransactionStatus', [sent[2]]);
    await c.until(() => c.of(status).length === 1);

    const reply = await rpc(url, 'devnet_abortBlocks', {
      starting_block_id: { block_hash: blocks[1].block_hash },
    });
    expect(reply.result).toEqual({ aborted: [blocks[2].block_hash, blocks[1].block_hash] });
    await c.until(() => c.of(heads).length === 1);
    const reorg = {
      starting_block_hash: blocks[1].block_hash,
      starting_block_number: 2,
      ending_block_hash: blocks[2].block_hash,
      ending_block_number: 3,
    };
    for (const id of [heads, status]) {
      expect(c.of(id).at(-1)).toMatchObject({ method: 'starknet_subscriptionReorg' });
      expect(c.of(id).at(-1)!.params!.result).toEqual(reorg);
    }

    expect((await rpc(url, 'starknet_blockNumber')).result).toBe(1);
    expect((await rpc(url, 'starknet_getTransactionStatus', [sent[1]])).error?.code).toBe(29);
    expect((await rpc(url, 'starknet_getTransactionStatus', [sent[0]])).result).toMatchObject({
      finality_status: 'ACCEPTED_ON_L2',
    });
    const gone = { block_id: { block_hash: blocks[1].block_hash } };
    expect((await rpc(url, 'starknet_getBlockWithTxHashes', gone)).error?.code).toBe(24);
    expect(await balance()).toBe(before - 14n);
    // The chain goes on from block 1: the same transfer again is a new block 2.
    const again = await t.account(0).execute(transferCall(to, 7n));
    await t.provider.waitForTransaction(again.transaction_hash, WAIT);
    expect((await rpc(url, 'starknet_blockNumber')).result).toBe(2);
    // A dump is the chain without the aborted blocks.
    const path = join(mkdtempSync(join(tmpdir(), 'devnet-ws-')), 'dump.json');
    await rpc(url, 'devnet_dump', { path });
    await rpc(url, 'devnet_load', { path });
    expect((await rpc(url, 'starknet_blockNumber')).result).toBe(2);
  });

  test('a class declared in an aborted block is gone, and can be declared again', async () => {
    const url = t.devnet.rpcUrl;
    const contract = JSON.parse(
      readFileSync(join(__dirname, 'fixtures/counter.contract_class.json'), 'utf8'),
    );
    const compiledClassHash = num.toHex(hash.computePoseidonHashOnElements(['0xc0ffee']));
    const declared = await t.account(1).declare({ contract, compiledClassHash });
    await t.provider.waitForTransaction(declared.transaction_hash, WAIT);
    const getClass = () => rpc(url, 'starknet_getClass', ['latest', declared.class_hash]);
    expect((await getClass()).result).toBeDefined();
    const nonce = (
      await rpc(url, 'starknet_getNonce', ['latest', t.devnet.predeployedAccounts[1].address])
    ).result;
    await rpc(url, 'devnet_abortBlocks', { starting_block_id: 'latest' });
    expect((await getClass()).error?.code).toBe(28);
    expect(
      BigInt(
        (await rpc(url, 'starknet_getNonce', ['latest', t.devnet.predeployedAccounts[1].address]))
          .result as string,
      ),
    ).toBe(BigInt(nonce as string) - 1n);
    const again = await t.account(1).declare({ contract, compiledClassHash });
    await t.provider.waitForTransaction(again.transaction_hash, WAIT);
    expect((await getClass()).result).toBeDefined();
  });

  test('genesis cannot be aborted; an unknown block is 24', async () => {
    const url = t.devnet.rpcUrl;
    const genesis = await rpc(url, 'devnet_abortBlocks', {
      starting_block_id: { block_number: 0 },
    });
    expect(genesis.error).toEqual({ code: -32600, message: "Genesis block can't be aborted" });
    const unknown = await rpc(url, 'devnet_abortBlocks', [{ block_number: 500 }]);
    expect(unknown.error?.code).toBe(24);
  });
});
