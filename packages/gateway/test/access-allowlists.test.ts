/**
 * A key's allowlists (origins, User-Agent substrings, contracts, methods) with viem, ethers and
 * `ws` over HTTP, batches and WebSocket, against anvil behind a counting proxy: AND across
 * types, OR within one; each call of a batch judged alone; a refusal names its list, never
 * reaches the upstream and is never charged; refusals by cause on the usage page.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC answers checked field by field */
import { FetchRequest, JsonRpcProvider } from 'ethers';
import { createPublicClient, type Hex, http } from 'viem';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import { newKey } from '../src/auth/keys';
import { forwarded, ledgerOf, makeKey, sleep, type Stack, startStack } from './accessHelpers';
import { call, post, seedChain, usageOf } from './helpers';

let stack: Stack;
let contract: Hex;
const OTHER = `0x${'11'.repeat(20)}`;
/** The gateway's clock: real time, or a fixed instant a test sets. */
let clock: number | undefined;
beforeAll(async () => {
  stack = await startStack({ now: () => clock ?? Date.now() });
  ({ contract } = await seedChain(stack.anvil.url));
});
afterAll(async () => {
  await stack?.stop();
});

const PAGE = { origin: 'https://app.example.com', 'user-agent': 'Mozilla/5.0 MyDapp/2.1' };
const restricted = () =>
  makeKey(stack.gw, {
    allow: {
      origins: ['https://app.example.com', '*.dapp.test'],
      userAgents: ['MyDapp/', 'our-indexer'],
      contracts: [contract],
      methods: ['eth_call', 'eth_getLogs', 'eth_getProof', 'eth_chainId', 'eth_subscribe'],
    },
  });

describe('origin and User-Agent lists, judged per request', () => {
  it('AND across the types, OR within one; a missing Origin fails an origin list', async () => {
    const { url, key, wsUrl } = await restricted();
    const chainId = call('eth_chainId');
    const status = async (headers: Record<string, string>) =>
      (await post(url, chainId, headers)).status;
    expect(await status(PAGE)).toBe(200);
    expect(await status({ origin: 'https://x.dapp.test', 'user-agent': 'our-indexer/1' })).toBe(
      200,
    );
    expect(await status({ ...PAGE, origin: 'https://dapp.test' })).toBe(403); // not a subdomain
    expect(await status({ ...PAGE, origin: 'https://evil-app.example.com' })).toBe(403);
    expect(await status({ 'user-agent': PAGE['user-agent'] })).toBe(403); // no Origin
    const ua = await post(url, chainId, { ...PAGE, 'user-agent': 'curl/8' });
    expect([ua.status, ua.json.error.data]).toEqual([403, { allowlist: 'userAgents' }]);
    const origin = await post(url, chainId, { ...PAGE, origin: 'https://evil.test' });
    expect([origin.status, origin.json.error.data]).toEqual([403, { allowlist: 'origins' }]);
    // viem and ethers as a page would send them.
    const viem = createPublicClient({
      chain: foundry,
      transport: http(url, { fetchOptions: { headers: PAGE }, retryCount: 0 }),
    });
    expect(await viem.getChainId()).toBe(31337);
    const bare = createPublicClient({ chain: foundry, transport: http(url, { retryCount: 0 }) });
    await expect(bare.getChainId()).rejects.toThrow(/rejected due to project ID settings/);
    // A WebSocket upgrade from another origin is refused before it opens.
    const refusedStatus = await new Promise<number>((resolve) => {
      const socket = new WebSocket(wsUrl, { headers: { ...PAGE, origin: 'https://evil.test' } });
      socket.once('unexpected-response', (_q, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
    });
    expect(refusedStatus).toBe(403);
    expect((await ledgerOf(stack.gw, key)).total).toBe(3 * 5);
  });
});

describe('contract and method lists, judged per call', () => {
  it('refuses each call of a batch alone, naming the list; refused calls are not sent or charged', async () => {
    const { proxy, gw } = stack;
    const { url, key } = await restricted();
    const calls = {
      listed: call('eth_call', [{ to: contract, data: '0x' }, 'latest'], 1),
      other: call('eth_call', [{ to: OTHER, data: '0x' }, 'latest'], 2),
      noTo: call('eth_call', [{ data: '0x' }, 'latest'], 3),
      method: call('eth_getBalance', [contract, 'latest'], 4),
      logs: call('eth_getLogs', [{ address: contract, fromBlock: '0x0' }], 5),
      logsOther: call('eth_getLogs', [{ address: [contract, OTHER], fromBlock: '0x0' }], 6),
      logsAny: call('eth_getLogs', [{ fromBlock: '0x0' }], 7),
      proof: call('eth_getProof', [contract, [], 'latest'], 8),
      proofOther: call('eth_getProof', [OTHER, [], 'latest'], 9),
    };
    const sent = () =>
      ['eth_call', 'eth_getBalance', 'eth_getLogs', 'eth_getProof'].map((m) => forwarded(proxy, m));
    const before = sent();
    const batch = await post(url, Object.values(calls), PAGE);
    expect(batch.status).toBe(200);
    const byId = new Map(batch.json.map((a: { id: number }) => [a.id, a]));
    for (const id of [1, 5, 8]) expect(byId.get(id)).toHaveProperty('result');
    for (const [id, list] of [
      [2, 'contracts'],
      [3, 'contracts'],
      [4, 'methods'],
      [6, 'contracts'],
      [7, 'contracts'],
      [9, 'contracts'],
    ] as const) {
      expect(byId.get(id)).toMatchObject({ error: { code: -32002, data: { allowlist: list } } });
    }
    expect(sent()).toEqual([before[0] + 1, before[1], before[2] + 1, before[3] + 1]);
    expect(batch.headers['x-credits-cost']).toBe(String(80 + 255 + 150));
    // The same calls one by one, with ethers as the client: the listed contract only.
    const request = new FetchRequest(url);
    for (const [name, value] of Object.entries(PAGE)) request.setHeader(name, value);
    const provider = new JsonRpcProvider(request, 31337, { staticNetwork: true });
    expect(await provider.call({ to: contract, data: '0x' })).toBe('0x');
    await expect(provider.call({ to: OTHER, data: '0x' })).rejects.toThrow(/contract allowlist/);
    await expect(provider.getBalance(contract)).rejects.toThrow(/method allowlist/);
    provider.destroy();
    await sleep(300);
    const { total, refused } = await ledgerOf(gw, key);
    expect(total).toBe(80 + 255 + 150 + 80);
    expect(refused.allowlist).toBe(6 + 2);
  });

  it('judges each WebSocket message and logs subscription by the same lists', async () => {
    const { proxy } = stack;
    const { wsUrl } = await restricted();
    const socket = new WebSocket(wsUrl, { headers: PAGE });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const answers = new Map<number, any>();
    socket.on('message', (data) => {
      const parsed = JSON.parse(data.toString());
      for (const answer of Array.isArray(parsed) ? parsed : [parsed]) {
        if (answer.id !== undefined) answers.set(answer.id, answer);
      }
    });
    const until = async (ids: number[]) => {
      for (let i = 0; i < 200 && !ids.every((id) => answers.has(id)); i++) await sleep(20);
    };
    try {
      const before = forwarded(proxy, 'eth_call');
      socket.send(JSON.stringify(call('eth_subscribe', ['logs', { address: contract }], 1)));
      socket.send(JSON.stringify(call('eth_subscribe', ['logs', { address: OTHER }], 2)));
      socket.send(JSON.stringify(call('eth_subscribe', ['logs', {}], 3)));
      socket.send(JSON.stringify(call('eth_subscribe', ['newHeads'], 4)));
      socket.send(
        JSON.stringify([
          call('eth_call', [{ to: contract, data: '0x05' }, 'latest'], 5), // not cached yet
          call('eth_call', [{ to: OTHER, data: '0x05' }, 'latest'], 6),
        ]),
      );
      await until([1, 2, 3, 4, 5, 6]);
      expect(answers.get(1).result).toMatch(/^0x/);
      expect(answers.get(2).error).toMatchObject({
        code: -32002,
        data: { allowlist: 'contracts' },
      });
      expect(answers.get(3).error).toMatchObject({ data: { allowlist: 'contracts' } });
      expect(answers.get(4).result).toMatch(/^0x/); // newHeads targets no contract
      expect(answers.get(5).result).toBe('0x');
      expect(answers.get(6).error).toMatchObject({ data: { allowlist: 'contracts' } });
      expect(forwarded(proxy, 'eth_call')).toBe(before + 1);
    } finally {
      socket.close();
    }
  });
});

describe('refusals by cause, and the limits of a list', () => {
  it('the usage page counts refusals by allowlist, credit and rate', async () => {
    const { gw } = stack;
    const small = await makeKey(gw, {
      dailyCredits: 100,
      creditsPerSecond: 1000,
      allow: { methods: ['eth_blockNumber', 'eth_chainId'] },
    });
    expect((await post(small.url, call('eth_blockNumber'))).status).toBe(200);
    expect((await post(small.url, call('eth_blockNumber'))).status).toBe(402);
    expect((await post(small.url, call('eth_gasPrice'))).status).toBe(403);
    const slow = await makeKey(gw, { creditsPerSecond: 100 });
    // One instant on the gateway's clock for both: one per-second window, however slow they run.
    clock = Date.now();
    let both: Awaited<ReturnType<typeof post>>[];
    try {
      both = await Promise.all([0, 1].map(() => post(slow.url, call('eth_blockNumber'))));
    } finally {
      clock = undefined;
    }
    expect(both.map((a) => a.status).sort()).toEqual([200, 429]);
    await sleep(300);
    const usage = (await usageOf(gw, small.key)) as unknown as { refused: object; controls: any };
    expect(usage.refused).toEqual({ secret: 0, jwt: 0, allowlist: 1, credit: 1, rate: 0 });
    expect(usage.controls.allow.methods).toEqual(['eth_blockNumber', 'eth_chainId']);
    expect(((await usageOf(gw, slow.key)) as any).refused.rate).toBe(1);
  });

  it('holds at most 30 entries of a type', () => {
    const origins = Array.from({ length: 31 }, (_, i) => `https://a${i}.example.com`);
    expect(() => newKey({ plan: 'free', allow: { origins } })).toThrow(/at most 30/);
    expect(() => newKey({ plan: 'free', allow: { origins: origins.slice(1) } })).not.toThrow();
  });
});
