import { Socket } from 'node:net';
import { postRaw, rpc, startTestDevnet, TestDevnet } from './helpers';
import { WsClient } from './ws-client';

async function until(predicate: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function createBlocks(t: TestDevnet, n: number): Promise<unknown> {
  const batch = Array.from({ length: n }, (_, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'devnet_createBlock',
  }));
  return postRaw(t.devnet.rpcUrl, JSON.stringify(batch));
}

describe('WebSocket API: disconnects, restarts, slow consumers, shutdown', () => {
  test('a client that leaves takes its subscriptions; a restart ends them, the socket stays', async () => {
    const t = await startTestDevnet();
    try {
      const a = await WsClient.open(t.devnet.wsUrl);
      const b = await WsClient.open(t.devnet.wsUrl);
      await a.subscribe('starknet_subscribeNewHeads');
      await a.subscribe('starknet_subscribeEvents');
      const bHeads = await b.subscribe('starknet_subscribeNewHeads');
      expect(t.devnet.webSocket).toMatchObject({ connections: 2, subscriptions: 3 });
      a.ws.terminate(); // no close handshake: the TCP connection just ends
      await until(() => t.devnet.webSocket.connections === 1);
      expect(t.devnet.webSocket.subscriptions).toBe(1);
      await createBlocks(t, 1);
      await b.until(() => b.of(bHeads).length === 1);

      await rpc(t.devnet.rpcUrl, 'devnet_restart');
      expect(t.devnet.webSocket).toMatchObject({ connections: 1, subscriptions: 0 });
      const again = await b.subscribe('starknet_subscribeNewHeads');
      await createBlocks(t, 1);
      await b.until(() => b.of(again).length === 1);
      expect(b.of(again)[0].params!.result.block_number).toBe(1); // the restarted chain
      expect(b.of(bHeads)).toHaveLength(1);
      expect(b.problems).toEqual([]);
      await b.close();
    } finally {
      await t.devnet.close();
    }
  });

  test('a client that does not read is dropped; the others are served', async () => {
    const t = await startTestDevnet({ webSocket: { maxBufferedBytes: 256 * 1024 } });
    try {
      const slow = await WsClient.open(t.devnet.wsUrl);
      const fast = await WsClient.open(t.devnet.wsUrl);
      await Promise.all(
        Array.from({ length: 1000 }, () => slow.subscribe('starknet_subscribeNewHeads')),
      );
      const heads = await fast.subscribe('starknet_subscribeNewHeads');
      // The slow client stops reading: its socket's data stays in the kernel, then in the devnet.
      (slow.ws as unknown as { _socket: Socket })._socket.pause();
      await createBlocks(t, 60); // 60 x 1000 headers, ~55 MB for the slow client
      await until(() => t.devnet.webSocket.dropped === 1);
      expect(t.devnet.webSocket).toMatchObject({ connections: 1, subscriptions: 1 });
      await fast.until(() => fast.of(heads).length === 60);
      expect(fast.problems).toEqual([]);
      await fast.close();
    } finally {
      await t.devnet.close();
    }
  });

  test('close() ends every socket with 1001 and resolves', async () => {
    const t = await startTestDevnet();
    const c = await WsClient.open(t.devnet.wsUrl);
    await c.subscribe('starknet_subscribeNewHeads');
    const code = new Promise<number>((resolve) => c.ws.once('close', (n) => resolve(n)));
    await t.devnet.close();
    expect(await code).toBe(1001);
  });
});
