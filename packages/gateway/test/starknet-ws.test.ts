/**
 * The Starknet WebSocket API through the gateway, in front of the project's devnet: starknet.js
 * WebSocketChannel with a key by path prefix, every notification checked against the spec's
 * starknet_ws_api.json, each subscribe call and notification charged per the cost table (a
 * reorg notice free, a refused subscription not charged), keys refused at the upgrade, and the
 * client's socket closed when the upstream socket is lost.
 */
import '@l2wallet/devnet/test/ws-global';
import { type DevnetServer } from '@l2wallet/devnet';
import { startDevnet } from '@l2wallet/testkit';
import { Account, CallData, config, hash, RpcProvider, uint256, WebSocketChannel } from 'starknet';
import WebSocket from 'ws';
import { notificationProblems } from '@l2wallet/devnet/test/spec/schemas';
import { NOTIFICATION_COSTS, STARKNET_COSTS } from '../src/credits/costs';
import { type RunningGateway, startGateway } from '../src/server';
import { addKey, call, gatewayConfig, post, usageOf } from './helpers';

// starknet.js warns on every Account call that a young chain has too few tips to average.
config.set('logLevel', 'ERROR');

type Devnet = DevnetServer & { stop(): Promise<void> };
let devnet: Devnet;
let gw: RunningGateway;
let key: string;

async function gatewayFor(upstream: Devnet): Promise<RunningGateway> {
  return startGateway(
    gatewayConfig(upstream.rpcUrl, {
      chains: [
        {
          name: 'starknet-sepolia',
          protocol: 'starknet',
          hosts: ['starknet.localhost'],
          upstreams: [upstream.rpcUrl],
        },
      ],
    }),
  );
}

beforeAll(async () => {
  devnet = await startDevnet<DevnetServer>({ blockTime: 3_600_000, preconfirmDelayMs: 3_600_000 });
  gw = await gatewayFor(devnet);
  key = await addKey(gw, { plan: 'team' });
});

afterAll(async () => {
  await gw?.close();
  await devnet?.stop();
});

const wsUrl = (apiKey: string) =>
  `${gw.url.replace('http', 'ws')}/starknet-sepolia/ws/v3/${apiKey}`;
const createBlock = () => post(devnet.rpcUrl, call('devnet_createBlock', []));

function transfer(to: string, amount: bigint) {
  const a = devnet.predeployedAccounts[0];
  const provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  const account = new Account({ provider, address: a.address, signer: a.private_key });
  return account.execute({
    contractAddress: '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
    entrypoint: 'transfer',
    calldata: CallData.compile({ recipient: to, amount: uint256.bnToUint256(amount) }),
  });
}

/* eslint-disable @typescript-eslint/no-explicit-any -- messages are checked field by field */
/** A raw client that keeps every message and checks each notification against the spec. */
async function connect(apiKey: string) {
  const ws = new WebSocket(wsUrl(apiKey));
  const inbox: any[] = [];
  const problems: string[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.method) problems.push(...notificationProblems(message.method, message.params));
    inbox.push(message);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const until = async <T>(find: () => T | undefined, ms = 5000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('no matching message');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const ask = async (method: string, params?: unknown): Promise<any> => {
    const sent = ++id;
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: sent, method, params }));
    return until(() => inbox.find((m) => m.id === sent));
  };
  const of = (sub: string) => inbox.filter((m) => m.params?.subscription_id === sub);
  return { ws, inbox, problems, ask, until, of };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Credits the notifications in `inbox` cost. */
function notificationCredits(inbox: { method?: string }[]): number {
  return inbox
    .filter((m) => m.method)
    .reduce((n, m) => n + NOTIFICATION_COSTS[m.method as keyof typeof NOTIFICATION_COSTS], 0);
}

describe('the Starknet WebSocket API through the gateway', () => {
  it('drives every WebSocketChannel subscription with a key', async () => {
    const channel = new WebSocketChannel({ nodeUrl: wsUrl(key), websocket: WebSocket as never });
    await channel.waitForConnection();
    try {
      const [a0, , a2] = devnet.predeployedAccounts.map((a) => a.address);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const seen: Record<string, any[]> = {};
      const track = (name: string, sub: { on(h: (d: unknown) => void): void }) => {
        seen[name] = [];
        sub.on((d) => seen[name].push(d));
      };
      track('heads', await channel.subscribeNewHeads());
      track(
        'events',
        await channel.subscribeEvents({
          keys: [[hash.getSelectorFromName('Transfer')]],
          finalityStatus: 'PRE_CONFIRMED',
        }),
      );
      track('receipts', await channel.subscribeNewTransactionReceipts({ senderAddress: [a0] }));
      track(
        'txs',
        await channel.subscribeNewTransactions({ finalityStatus: ['RECEIVED', 'ACCEPTED_ON_L2'] }),
      );
      const { transaction_hash: txHash } = await transfer(a2, 3n);
      const status = await channel.subscribeTransactionStatus({ transactionHash: txHash });
      track('status', status);
      await createBlock();
      const deadline = Date.now() + 5000;
      while (seen.status.length < 3 || seen.heads.length < 1 || seen.events.length < 4) {
        if (Date.now() > deadline) throw new Error(JSON.stringify(seen));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(seen.heads[0]).toMatchObject({ block_number: 1 });
      expect(seen.status.map((s) => s.status.finality_status)).toEqual([
        'RECEIVED',
        'PRE_CONFIRMED',
        'ACCEPTED_ON_L2',
      ]);
      expect(seen.txs.map((t) => t.finality_status)).toEqual(['RECEIVED', 'ACCEPTED_ON_L2']);
      expect(seen.receipts).toEqual([expect.objectContaining({ transaction_hash: txHash })]);
      expect(await status.unsubscribe()).toBe(true);
    } finally {
      channel.disconnect();
      await channel.waitForDisconnection();
    }
  });

  it('charges each subscribe call and notification, a reorg notice free, a refusal nothing', async () => {
    const own = await addKey(gw, { plan: 'team' });
    const c = await connect(own);
    const heads = (await c.ask('starknet_subscribeNewHeads', { block_id: { block_number: 0 } }))
      .result;
    const events = (await c.ask('starknet_subscribeEvents', { finality_status: 'PRE_CONFIRMED' }))
      .result;
    expect(typeof heads).toBe('string');
    const latest = devnet.devnet.latestBlock().number;
    await c.until(() => (c.of(heads).length === latest + 1 ? true : undefined));
    // Refused by the node: relayed, not charged.
    const refused = await c.ask('starknet_subscribeNewHeads', { block_id: { block_number: 9999 } });
    expect(refused.error).toEqual({ code: 24, message: 'Block not found' });
    const tooMany = await c.ask('starknet_subscribeEvents', {
      keys: [Array.from({ length: 101 }, (_, i) => `0x${i + 1}`)],
    });
    expect(tooMany.error.code).toBe(34);
    expect((await c.ask('starknet_unsubscribe', { subscription_id: '0x1' })).error.code).toBe(66);
    expect((await c.ask('starknet_subscribeNewHeads', { block: 1 })).error.code).toBe(-32602);

    const { transaction_hash: txHash } = await transfer(devnet.predeployedAccounts[3].address, 1n);
    await createBlock();
    const ofTx = () => c.of(events).filter((m) => m.params.result.transaction_hash === txHash);
    await c.until(() => (ofTx().length === 4 ? true : undefined));
    // A reorg: every subscription is told, for free.
    const aborted = await post(
      devnet.rpcUrl,
      call('devnet_abortBlocks', { starting_block_id: 'latest' }),
    );
    expect(aborted.json).toMatchObject({ result: { aborted: [expect.any(String)] } });
    await c.until(() =>
      c.of(heads).some((m) => m.method === 'starknet_subscriptionReorg') &&
      c.of(events).some((m) => m.method === 'starknet_subscriptionReorg')
        ? true
        : undefined,
    );
    expect((await c.ask('starknet_unsubscribe', { subscription_id: events })).result).toBe(true);
    expect(c.problems).toEqual([]);

    const usage = await usageOf(gw, own);
    // 2 subscriptions, 1 unsubscribe, the refused calls free; then every notification received.
    const calls =
      2 * STARKNET_COSTS.starknet_subscribeNewHeads + STARKNET_COSTS.starknet_unsubscribe;
    expect(usage.total).toBe(calls + notificationCredits(c.inbox));
    expect(usage.methods.starknet_subscriptionReorg ?? 0).toBe(0);
    c.ws.close();
  });

  it('refuses a bad or exhausted key at the upgrade', async () => {
    const status = (url: string) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.once('open', () => reject(new Error('upgraded')));
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => undefined);
      });
    expect(await status(wsUrl('0123456789abcdef0123456789abcdef'))).toBe(401);
    const poor = await addKey(gw, { plan: 'free', dailyCredits: 5 });
    const http = await post(`${gw.url}/starknet-sepolia/v3/${poor}`, call('starknet_chainId', []));
    expect(http.status).toBe(200);
    expect(await status(wsUrl(poor))).toBe(402);
  });

  it('closes with 1013 rather than skip a notification over the per-second limit', async () => {
    await createBlock();
    await createBlock();
    // 60 credits a second: the subscribe (5) and one header (50); the second header is over.
    const slow = await addKey(gw, { plan: 'free', creditsPerSecond: 60 });
    const c = await connect(slow);
    const closed = new Promise<number>((resolve) => c.ws.once('close', (code) => resolve(code)));
    const reply = await c.ask('starknet_subscribeNewHeads', { block_id: { block_number: 0 } });
    expect(reply.result).toEqual(expect.any(String));
    expect(await closed).toBe(1013);
    // One header per second's window fits (two if the replay straddles a second): never all of
    // them, and only those delivered are charged.
    const delivered = c.of(reply.result).length;
    expect(delivered).toBeGreaterThanOrEqual(1);
    expect(delivered).toBeLessThan(devnet.devnet.latestBlock().number + 1);
    expect((await usageOf(gw, slow)).total).toBe(5 + 50 * delivered);
  });

  it('answers the subscribe methods over HTTP with an error, free', async () => {
    const own = await addKey(gw, { plan: 'team' });
    const reply = await post(
      `${gw.url}/starknet-sepolia/v3/${own}`,
      call('starknet_subscribeNewHeads', {}),
    );
    expect((reply.json as { error: { code: number } }).error.code).toBe(-32601);
    expect((await usageOf(gw, own)).total).toBe(0);
  });

  it('serves by Host too; credit is reserved before the node subscribes, and runs out with 1008', async () => {
    const tight = await addKey(gw, { plan: 'free', dailyCredits: 7 });
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/ws/v3/${tight}`, {
      headers: { host: 'starknet.localhost' },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const inbox: { id?: number; result?: unknown; error?: { code: number } }[] = [];
    ws.on('message', (d) => inbox.push(JSON.parse(String(d))));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const answer = async (id: number) => {
      while (!inbox.some((m) => m.id === id)) await new Promise((r) => setTimeout(r, 20));
      return inbox.find((m) => m.id === id)!;
    };
    const before = devnet.webSocket.subscriptions;
    ws.send(JSON.stringify(call('starknet_subscribeNewHeads', {}, 1)));
    expect((await answer(1)).result).toEqual(expect.any(String));
    // 2 credits left: the second subscribe is refused before any upstream work.
    ws.send(JSON.stringify(call('starknet_subscribeNewHeads', {}, 2)));
    expect((await answer(2)).error?.code).toBe(-33000);
    expect(devnet.webSocket.subscriptions).toBe(before + 1);
    // A head costs 50: the balance is out, the stream ends (no gap): 1008.
    await createBlock();
    expect(await closed).toBe(1008);
    expect((await usageOf(gw, tight)).total).toBe(5);
  });

  it("follows a key's contract allowlist for events subscriptions", async () => {
    const strk = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
    const limited = await addKey(gw, { plan: 'team', allow: { contracts: [strk] } });
    const c = await connect(limited);
    const own = await c.ask('starknet_subscribeEvents', { from_address: strk });
    expect(own.result).toEqual(expect.any(String));
    const any = await c.ask('starknet_subscribeEvents', {});
    const other = await c.ask('starknet_subscribeEvents', { from_address: '0x1234' });
    for (const refused of [any, other]) expect(refused.error.code).toBe(-32002);
    expect((await usageOf(gw, limited)).total).toBe(STARKNET_COSTS.starknet_subscribeEvents);
    c.ws.close();
  });

  it('refunds a subscription no node could be asked for (no WebSocket upstream)', async () => {
    const noWs = await startGateway(
      gatewayConfig(devnet.rpcUrl, {
        chains: [
          {
            name: 'starknet-sepolia',
            protocol: 'starknet',
            hosts: ['*'],
            upstreams: [devnet.rpcUrl],
            wsUpstream: devnet.url.replace('http', 'ws') + '/not-a-websocket',
          },
        ],
      }),
    );
    try {
      const k = await addKey(noWs, { plan: 'team' });
      const ws = new WebSocket(`${noWs.url.replace('http', 'ws')}/ws/v3/${k}`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const reply = new Promise((resolve) =>
        ws.once('message', (d) => resolve(JSON.parse(String(d)))),
      );
      ws.send(JSON.stringify(call('starknet_subscribeNewHeads', {}, 1)));
      expect(await reply).toMatchObject({ id: 1, error: { code: -32010 } });
      expect((await usageOf(noWs, k)).total).toBe(0);
      ws.close();
    } finally {
      await noWs.close();
    }
  });

  it('closes the client socket (1012) when the upstream socket is lost', async () => {
    const own = await startDevnet<DevnetServer>();
    const ownGw = await gatewayFor(own);
    try {
      const ownKey = await addKey(ownGw, { plan: 'team' });
      const ws = new WebSocket(
        `${ownGw.url.replace('http', 'ws')}/starknet-sepolia/ws/v3/${ownKey}`,
      );
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const answer = new Promise((resolve) =>
        ws.once('message', (d) => resolve(JSON.parse(String(d)))),
      );
      ws.send(JSON.stringify(call('starknet_subscribeNewHeads', {}, 1)));
      expect(await answer).toMatchObject({ id: 1, result: expect.any(String) });
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      await own.stop();
      expect(await closed).toBe(1012);
    } finally {
      await ownGw.close();
    }
  });
  it('WebSocketChannel comes back by itself after a 1012: reconnects, subscribes again', async () => {
    const first = await startDevnet<DevnetServer>();
    const ownGw = await gatewayFor(first);
    let second: Devnet | undefined;
    const ownKey = await addKey(ownGw, { plan: 'team' });
    const channel = new WebSocketChannel({
      nodeUrl: `${ownGw.url.replace('http', 'ws')}/starknet-sepolia/ws/v3/${ownKey}`,
      websocket: WebSocket as never,
      reconnectOptions: { retries: 50, delay: 100, exponential: false },
    });
    try {
      await channel.waitForConnection();
      const heads: { block_number: number }[] = [];
      (await channel.subscribeNewHeads()).on((head) => heads.push(head));
      await first.stop();
      // The node comes back on the same port (a restarted node, a new chain from genesis).
      second = await startDevnet<DevnetServer>({ port: first.port });
      const deadline = Date.now() + 15_000;
      while (heads.length === 0) {
        if (Date.now() > deadline) throw new Error('no head after the reconnect');
        await post(second.rpcUrl, call('devnet_createBlock', []));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(heads[0].block_number).toBeGreaterThanOrEqual(1);
    } finally {
      channel.disconnect();
      await ownGw.close();
      await second?.stop();
    }
  });
});
