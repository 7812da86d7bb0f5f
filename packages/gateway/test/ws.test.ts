/**
 * WebSocket transport against a real anvil: the same answers and errors per message as HTTP,
 * newHeads and logs subscriptions with charged notifications, client ids that survive an
 * upstream restart, and subscriptions that end with an error when the balance runs out.
 */
import { type AnvilService, startAnvil } from '@l2wallet/testkit';
import WebSocket from 'ws';
import { sha256 } from '../src/auth/keys';
import type { RunningGateway } from '../src/server';
import { addKey, call, gatewayConfig, post, seedChain, startWithKey, usageOf } from './helpers';

let anvil: AnvilService;
let gw: RunningGateway;
let key: string;

beforeAll(async () => {
  anvil = await startAnvil();
  ({ gw, key } = await startWithKey(gatewayConfig(anvil.url, { wsUpstream: anvil.wsUrl })));
});

afterAll(async () => {
  await gw?.close();
  await anvil?.stop();
});

/* eslint-disable @typescript-eslint/no-explicit-any -- messages are checked field by field */
/** A client socket that queues every message it receives. */
async function connect(apiKey: string): Promise<{
  ws: WebSocket;
  next(match?: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  ask(body: unknown): Promise<any>;
}> {
  const ws = new WebSocket(`${gw.url.replace('http', 'ws')}/ws/v3/${apiKey}`);
  const inbox: unknown[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = async (match: (m: any) => boolean = () => true, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = inbox.findIndex(match);
      if (index !== -1) return inbox.splice(index, 1)[0];
      if (Date.now() > deadline) throw new Error('no matching message');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  let id = 1000;
  const ask = (body: unknown) => {
    const withId = { ...(body as object), id: ++id };
    ws.send(JSON.stringify(withId));
    return next((m) => m.id === withId.id);
  };
  return { ws, next, ask };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const mine = (url: string) => post(url, call('evm_mine', []));

it('answers calls and errors per message exactly as HTTP does', async () => {
  const client = await connect(key);
  const viaHttp = await post(
    `${gw.url}/v3/${key}`,
    call('eth_getBlockByNumber', ['0x0', false], 1001),
  );
  expect(JSON.stringify(await client.ask(call('eth_getBlockByNumber', ['0x0', false])))).toBe(
    viaHttp.text,
  );
  expect((await client.ask(call('eth_nope'))).error.code).toBe(-32601);
  expect((await client.ask(call('eth_getBlockByHash', ['0x12', false]))).error.code).toBe(-32602);
  client.ws.send('{not json');
  expect((await client.next((m) => m.error?.code === -32700)).id).toBeNull();
  const batch = [call('eth_chainId', [], 'a'), call('net_version', [], 'b')];
  client.ws.send(JSON.stringify(batch));
  const answer = await client.next((m) => Array.isArray(m));
  expect(answer.map((a: { result: string }) => a.result)).toEqual(['0x7a69', '31337']);
  client.ws.close();
});

it('answers subscription errors with the request id', async () => {
  const client = await connect(key);
  const refused = await client.ask(call('eth_subscribe', ['nope']));
  expect(refused.error.code).toBe(-32602);
  expect(typeof refused.id).toBe('number');
  expect((await client.ask(call('eth_unsubscribe', []))).error.code).toBe(-32602);
  client.ws.close();
});

it('refuses the upgrade for a missing or unknown key with 401', async () => {
  for (const path of ['/ws/v3/', `/ws/v3/${'f'.repeat(32)}`]) {
    const ws = new WebSocket(`${gw.url.replace('http', 'ws')}${path}`);
    const status = await new Promise((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.once('open', () => resolve(101));
      ws.once('error', () => undefined);
    });
    expect(status).toBe(401);
  }
});

it('delivers charged newHeads and logs notifications, and keeps client ids across an upstream restart', async () => {
  const subscriber = await addKey(gw, { plan: 'team' });
  const client = await connect(subscriber);
  const heads = (await client.ask(call('eth_subscribe', ['newHeads']))).result;
  expect(heads).toMatch(/^0x[0-9a-f]{32}$/);
  const seeded = await seedChain(anvil.url);
  const logs = (await client.ask(call('eth_subscribe', ['logs', { address: seeded.contract }])))
    .result;
  const head = await client.next((m) => m.params?.subscription === heads);
  expect(head.params.result.number).toMatch(/^0x/);
  const before = await usageOf(gw, subscriber);
  expect(before.methods.eth_subscribe).toBe(10);
  expect(before.methods.eth_subscription).toBeGreaterThanOrEqual(50);

  // Drain pending heads, then a call to the contract emits one log.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await post(
    anvil.url,
    call('eth_sendTransaction', [
      { from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', to: seeded.contract, data: '0x01' },
    ]),
  );
  const log = await client.next((m) => m.params?.subscription === logs);
  expect(log.params.result.address).toBe(seeded.contract.toLowerCase());

  // The upstream node goes away and comes back on the same port: same ids, new notifications.
  const port = anvil.port;
  await anvil.stop();
  anvil = await startAnvil({ port });
  // The gateway re-subscribes after a reconnect backoff of up to 2 s: mine until a head of the
  // restarted node (known by its hash) arrives on the same id.
  const restarted = new Set<string>();
  let after: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- a message
  for (let i = 1; i <= 100 && !after; i++) {
    await mine(anvil.url);
    const block = await post(
      anvil.url,
      call('eth_getBlockByNumber', [`0x${i.toString(16)}`, false]),
    );
    restarted.add(block.json.result.hash);
    after = await client
      .next((m) => m.params?.subscription === heads && restarted.has(m.params.result.hash), 200)
      .catch(() => undefined);
  }
  expect(after).toBeDefined();
  expect((await client.ask(call('eth_unsubscribe', [heads]))).result).toBe(true);
  expect((await client.ask(call('eth_unsubscribe', [heads]))).result).toBe(false);
  client.ws.close();
});

it('ends subscriptions with an error notification when the daily balance runs out', async () => {
  const small = await addKey(gw, { plan: 'free', dailyCredits: 5 + 50 });
  const client = await connect(small);
  const id = (await client.ask(call('eth_subscribe', ['newHeads']))).result;
  await mine(anvil.url);
  await client.next((m) => m.params?.subscription === id && m.params.result);
  await mine(anvil.url);
  const stopped = await client.next((m) => m.params?.subscription === id && m.params.error);
  expect(stopped.params.error.code).toBe(-33000);
  expect(await usageOf(gw, small)).toMatchObject({ total: 55 });
  const refused = await client.ask(call('eth_blockNumber'));
  expect(refused.error.code).toBe(-33000);
  client.ws.close();
});

it('closes an open connection within a second of its key being revoked', async () => {
  const revoked = await addKey(gw, { plan: 'free' });
  const client = await connect(revoked);
  const id = (await client.ask(call('eth_subscribe', ['newHeads']))).result;
  await gw.gateway.keys.revoke(sha256(revoked));
  const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
  await new Promise((resolve) => setTimeout(resolve, 600));
  await mine(anvil.url);
  const ended = await client.next((m) => m.params?.subscription === id && m.params.error);
  expect(ended.params.error.code).toBe(-32001);
  expect(await closed).toBe(1008);
});
