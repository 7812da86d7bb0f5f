import './ws-global';
import { hash, WebSocketChannel } from 'starknet';
import WebSocket from 'ws';
import { STRK_TOKEN_ADDRESS } from '../src';
import { rpc, startTestDevnet, TestDevnet, transferCall } from './helpers';
import { notificationProblems } from './spec/schemas';

const TRANSFER = hash.getSelectorFromName('Transfer');

/** Collects a subscription's events and waits for a count of them. */
function collect<T>(subscription: { on(handler: (data: T) => void): void }) {
  const seen: T[] = [];
  subscription.on((data) => seen.push(data));
  return {
    seen,
    async count(n: number, ms = 5000): Promise<T[]> {
      const deadline = Date.now() + ms;
      while (seen.length < n) {
        if (Date.now() > deadline) throw new Error(`got ${seen.length} of ${n} notifications`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return seen;
    },
  };
}

describe("starknet.js WebSocketChannel against the devnet's /ws", () => {
  let t: TestDevnet;
  let channel: WebSocketChannel;
  const problems: string[] = [];
  beforeAll(async () => {
    t = await startTestDevnet({ seed: 6, blockTime: 3_600_000, preconfirmDelayMs: 3_600_000 });
    channel = new WebSocketChannel({ nodeUrl: t.devnet.wsUrl, websocket: WebSocket as never });
    await channel.waitForConnection();
    // Every raw notification the channel receives, checked against starknet_ws_api.json.
    channel.websocket.addEventListener('message', (event: { data: unknown }) => {
      const message = JSON.parse(String(event.data));
      if (message.method)
        problems.push(
          ...notificationProblems(message.method, message.params).map(
            (p) => `${message.method}: ${p}`,
          ),
        );
    });
  });
  afterAll(async () => {
    channel.disconnect();
    await channel.waitForDisconnection();
    await t.devnet.close();
  });

  test('every subscription, driven by a transfer and a block', async () => {
    const [a0, , a2] = t.devnet.predeployedAccounts.map((a) => a.address);
    const heads = collect(await channel.subscribeNewHeads());
    const events = collect(
      await channel.subscribeEvents({
        fromAddress: STRK_TOKEN_ADDRESS,
        keys: [[TRANSFER]],
        finalityStatus: 'PRE_CONFIRMED',
      }),
    );
    const receipts = collect(
      await channel.subscribeNewTransactionReceipts({ senderAddress: [a0] }),
    );
    const txs = collect(
      await channel.subscribeNewTransactions({
        finalityStatus: ['RECEIVED', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
        senderAddress: [a0],
      }),
    );

    const { transaction_hash: txHash } = await t.account(0).execute(transferCall(a2, 9n));
    const status = await channel.subscribeTransactionStatus({ transactionHash: txHash });
    const statuses = collect(status);
    await statuses.count(1);
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock');

    expect((await heads.count(1))[0]).toMatchObject({ block_number: 1 });
    expect((await statuses.count(3)).map((s) => s.status.finality_status)).toEqual([
      'RECEIVED',
      'PRE_CONFIRMED',
      'ACCEPTED_ON_L2',
    ]);
    expect((await txs.count(3)).map((tx) => [tx.transaction_hash, tx.finality_status])).toEqual([
      [txHash, 'RECEIVED'],
      [txHash, 'PRE_CONFIRMED'],
      [txHash, 'ACCEPTED_ON_L2'],
    ]);
    const [receipt] = await receipts.count(1);
    expect(receipt).toMatchObject({ transaction_hash: txHash, finality_status: 'ACCEPTED_ON_L2' });
    // The transfer and the fee transfer, pre-confirmed then accepted.
    expect((await events.count(4)).map((e) => e.finality_status)).toEqual([
      'PRE_CONFIRMED',
      'PRE_CONFIRMED',
      'ACCEPTED_ON_L2',
      'ACCEPTED_ON_L2',
    ]);
    expect(problems).toEqual([]);

    expect(await status.unsubscribe()).toBe(true);
    expect(status.isClosed).toBe(true);
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock');
    await heads.count(2);
    expect(statuses.seen).toHaveLength(3);
  });

  test('a refused subscription rejects with the spec error', async () => {
    await expect(channel.subscribeNewHeads({ blockIdentifier: 99_999 })).rejects.toThrow(
      /"code":24/,
    );
  });
});
