/**
 * A key's secret and JWTs, with viem, ethers and `ws` as clients over HTTP (single calls and
 * batches) and WebSocket, against anvil behind a counting proxy: each control allowing and
 * refusing; a refused call never reaching the upstream and never charged, and counted by cause;
 * the secret bypassing the allowlists; JWTs made with jose accepted, and expired, `alg: none`,
 * wrong-audience and wrong-signer tokens refused; the credit headers on every answer.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC answers checked field by field */
import { FetchRequest, JsonRpcProvider, WebSocketProvider } from 'ethers';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import {
  basic,
  forwarded,
  ledgerOf,
  makeKey,
  signer,
  type Signer,
  sleep,
  type Stack,
  startStack,
  unsignedToken,
} from './accessHelpers';
import { call, post, usageOf } from './helpers';

let stack: Stack;
/** How far the gateway's clock is ahead of Date.now(): moved to pass a token's expiry. */
let ahead = 0;
beforeAll(async () => {
  stack = await startStack({ now: () => Date.now() + ahead });
});
afterAll(async () => {
  await stack?.stop();
});

const who = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const;
let next = 1;
/** A balance read nobody asked before: never in the cache, so an allowed one goes upstream. */
const freshBalance = () => call('eth_getBalance', [who(next++), 'latest']);

/** A viem client on `url` sending `headers` (batching its calls when `batch`). */
const viemClient = (url: string, headers: Record<string, string> = {}, batch = false) =>
  createPublicClient({
    chain: foundry,
    transport: http(url, { fetchOptions: { headers }, batch, retryCount: 0 }),
  });

/** The status an upgrade gets, or 101 when it opens (then it is closed). */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

/** Sends one message on an open `ws` and resolves with the answer. */
function ask(socket: WebSocket, message: unknown): Promise<any> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve(JSON.parse(data.toString())));
    socket.send(JSON.stringify(message));
  });
}

/** An upgrade's status and response headers, read by `ws` (an opened socket is closed). */
function upgradeResponse(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('upgrade', (response) => {
      socket.once('open', () => socket.close());
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
      response.resume();
    });
    socket.once('error', reject);
  });
}

function open(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('the API key secret', () => {
  it('refuses a request without it or with a wrong one (HTTP, batches, WebSocket): 401, not sent, not charged', async () => {
    const { proxy, gw } = stack;
    const { key, secret, url, wsUrl } = await makeKey(gw, { requireSecret: true });
    const before = forwarded(proxy, 'eth_getBalance');
    const wrong = basic('0'.repeat(32));
    const variants: Record<string, string>[] = [
      {},
      { authorization: wrong },
      { authorization: 'Basic Og==' },
    ];
    for (const headers of variants) {
      const answer = await post(url, freshBalance(), headers);
      expect(answer.status).toBe(401);
      expect(answer.json.error).toEqual({
        code: -32001,
        message: 'invalid project id or project secret',
      });
      expect(answer.headers['x-credits-cost']).toBe('0');
      expect(answer.headers['x-credits-remaining']).toBeUndefined(); // not shown without it
      const batch = await post(url, [freshBalance(), freshBalance()], headers);
      expect(batch.status).toBe(401);
      expect(await upgradeStatus(wsUrl, headers)).toBe(401);
    }
    await expect(viemClient(url).getBlockNumber()).rejects.toThrow();
    await expect(viemClient(url, { authorization: wrong }, true).getChainId()).rejects.toThrow();
    expect(forwarded(proxy, 'eth_getBalance')).toBe(before);
    await sleep(300); // refusals are written within 250 ms
    const refused = await ledgerOf(gw, key);
    expect(refused.total).toBe(0);
    expect(refused.refused.secret).toBeGreaterThanOrEqual(3 * 3 + 2);

    // With it: viem single and batched, ethers, and a WebSocket opened with it.
    const authorization = basic(secret!);
    expect(await viemClient(url, { authorization }).getChainId()).toBe(31337);
    const batched = viemClient(url, { authorization }, true);
    const [a, b] = await Promise.all([batched.getBlockNumber(), batched.getChainId()]);
    expect(typeof a).toBe('bigint');
    expect(b).toBe(31337);
    const socket = await open(wsUrl, { authorization });
    try {
      expect((await ask(socket, freshBalance())).result).toBe('0x0');
    } finally {
      socket.close();
    }
    expect(forwarded(proxy, 'eth_getBalance')).toBe(before + 1);
    expect((await ledgerOf(gw, key)).total).toBe(5 + 80 + 5 + 80);
  });

  it('bypasses every allowlist when given, and is kept only as a hash', async () => {
    const { gw } = stack;
    const { key, secret, url, wsUrl } = await makeKey(gw, {
      secret: true,
      requireSecret: false, // the key serves a web page too, within its allowlists
      allow: { origins: ['https://app.example.com'], methods: ['eth_chainId'] },
    });
    const record = await gw.gateway.keys.get((await gw.gateway.keys.list()).at(-1)!.hash);
    expect(JSON.stringify(record)).not.toContain(secret);
    // Without it: the page's origin and methods only.
    const page = { origin: 'https://app.example.com' };
    expect((await post(url, call('eth_chainId'), page)).status).toBe(200);
    expect((await post(url, freshBalance(), page)).status).toBe(403);
    expect((await post(url, call('eth_chainId'))).status).toBe(403); // no Origin
    // With it, from a server: no Origin, any method.
    const authorization = basic(secret!);
    expect((await post(url, freshBalance(), { authorization })).json.result).toBe('0x0');
    const client = viemClient(url, { authorization }, true);
    expect(await client.getBalance({ address: who(next++) })).toBe(0n);
    const socket = await open(wsUrl, { authorization });
    try {
      expect((await ask(socket, freshBalance())).result).toBe('0x0');
    } finally {
      socket.close();
    }
    expect((await ledgerOf(gw, key)).total).toBe(5 + 80 * 3);
  });
});

describe('JWTs', () => {
  let rsa: Signer;
  let ec: Signer;
  let stranger: Signer;
  beforeAll(async () => {
    [rsa, ec, stranger] = await Promise.all([signer('RS256'), signer('ES256'), signer('RS256')]);
  });

  /** ethers on `url`, sending `authorization` with every request (batched as ethers does). */
  const ethersOn = (url: string, authorization: string) => {
    const request = new FetchRequest(url);
    request.setHeader('authorization', authorization);
    return new JsonRpcProvider(request, 31337, { staticNetwork: true });
  };

  it('accepts RS256 and ES256 tokens made with jose, by kid or not, on HTTP and WebSocket', async () => {
    const { gw } = stack;
    const { key, url, wsUrl } = await makeKey(gw, {
      jwt: {
        require: true,
        keys: [
          { name: 'rsa-1', pem: rsa.pem },
          { name: 'ec-1', pem: ec.pem },
        ],
      },
    });
    const rsaToken = await rsa.sign({ aud: key }, { kid: 'rsa-1' });
    const ecToken = await ec.sign({ aud: key });
    for (const token of [rsaToken, ecToken]) {
      const provider = ethersOn(url, `Bearer ${token}`);
      const [number, balance] = await Promise.all([
        provider.getBlockNumber(),
        provider.getBalance(who(next++)),
      ]);
      expect(number).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(0n);
      provider.destroy();
    }
    const ws = new WebSocketProvider(
      () => new WebSocket(wsUrl, { headers: { authorization: `Bearer ${ecToken}` } }),
      31337,
      { staticNetwork: true },
    );
    try {
      expect(await ws.getBalance(who(next++))).toBe(0n);
    } finally {
      await ws.destroy();
    }
    expect((await ledgerOf(gw, key)).total).toBe(2 * (80 + 80) + 80);
  });

  it('refuses missing, expired, alg none, wrong-audience and wrong-signer tokens: 401, not sent, not charged', async () => {
    const { proxy, gw } = stack;
    const { key, url, wsUrl } = await makeKey(gw, {
      jwt: { require: true, keys: [{ name: 'rsa-1', pem: rsa.pem }] },
    });
    const other = await makeKey(gw);
    const bad = {
      missing: undefined,
      expired: await rsa.sign({ aud: key, exp: Math.floor(Date.now() / 1000) - 10 }),
      algNone: unsignedToken({ aud: key, exp: Math.floor(Date.now() / 1000) + 300 }),
      wrongAudience: await rsa.sign({ aud: other.key }),
      wrongSigner: await stranger.sign({ aud: key }),
      unknownKid: await rsa.sign({ aud: key }, { kid: 'rsa-2' }),
      noExp: await rsa.sign({ aud: key }, { expiresIn: null }),
    };
    const before = forwarded(proxy, 'eth_getBalance');
    for (const [why, token] of Object.entries(bad)) {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const answer = await post(url, freshBalance(), headers);
      expect([why, answer.status]).toEqual([why, 401]);
      expect(answer.json.error.message).toMatch(/^invalid JWT/);
      const batch = await post(url, [freshBalance(), call('eth_chainId')], headers);
      expect([why, batch.status]).toEqual([why, 401]);
      expect([why, await upgradeStatus(wsUrl, headers)]).toEqual([why, 401]);
      if (token) {
        await expect(ethersOn(url, `Bearer ${token}`).getBalance(who(1))).rejects.toThrow();
      }
    }
    expect(forwarded(proxy, 'eth_getBalance')).toBe(before);
    await sleep(300);
    const { total, refused } = await ledgerOf(gw, key);
    expect(total).toBe(0);
    expect(refused.jwt).toBeGreaterThanOrEqual(Object.keys(bad).length * 3);
  });

  it("narrows the key's own allowlists by the token's, and refuses a WebSocket message once the token expired", async () => {
    const { proxy, gw } = stack;
    const { key, url, wsUrl } = await makeKey(gw, {
      allow: { methods: ['eth_getBalance', 'eth_chainId', 'eth_blockNumber'] },
      jwt: { require: false, keys: [{ name: 'ec-1', pem: ec.pem }] },
    });
    const narrow = await ec.sign({ aud: key, methods: ['eth_getBalance'] });
    const headers = { authorization: `Bearer ${narrow}` };
    expect((await post(url, freshBalance(), headers)).status).toBe(200);
    const refused = await post(url, call('eth_chainId'), headers);
    expect([refused.status, refused.json.error.data]).toEqual([403, { allowlist: 'methods' }]);
    expect((await post(url, call('eth_chainId'))).status).toBe(200); // no token: the key's lists
    // A token cannot widen the key's lists.
    const wide = await ec.sign({ aud: key, methods: ['eth_getCode'] });
    const code = call('eth_getCode', [who(next++), 'latest']);
    expect((await post(url, code, { authorization: `Bearer ${wide}` })).status).toBe(403);

    // A minute to live; then the gateway's clock passes it (however slowly the socket opens).
    const brief = await ec.sign({ aud: key }, { expiresIn: Math.floor(Date.now() / 1000) + 60 });
    const socket = await open(wsUrl, { authorization: `Bearer ${brief}` });
    try {
      expect((await ask(socket, freshBalance())).result).toBe('0x0');
      ahead = 61_000;
      const before = forwarded(proxy, 'eth_getBalance');
      const late = await ask(socket, { ...freshBalance(), id: 7 });
      expect(late).toMatchObject({ id: 7, error: { message: 'invalid JWT: expired' } });
      expect(forwarded(proxy, 'eth_getBalance')).toBe(before);
    } finally {
      ahead = 0;
      socket.close();
    }
    expect((await ledgerOf(gw, key)).total).toBe(80 + 5 + 80);
  });
});

describe('what each answer cost and what is left', () => {
  it('x-credits-cost and x-credits-remaining on single calls, batches and refusals', async () => {
    const { gw } = stack;
    const { url } = await makeKey(gw, { dailyCredits: 1000, allow: { methods: ['eth_chainId'] } });
    const first = await post(url, call('eth_chainId'));
    expect(first.headers['x-credits-cost']).toBe('5');
    expect(first.headers['x-credits-remaining']).toBe('995');
    expect(first.headers['access-control-expose-headers']).toContain('x-credits-remaining');
    const batch = await post(url, [call('eth_chainId'), call('eth_chainId'), freshBalance()]);
    expect(batch.headers['x-credits-cost']).toBe('10');
    expect(batch.headers['x-credits-remaining']).toBe('985');
    const refused = await post(url, freshBalance());
    expect([refused.status, refused.headers['x-credits-cost']]).toEqual([403, '0']);
    expect(refused.headers['x-credits-remaining']).toBe('985');
  });

  it("a WebSocket upgrade's 101 says cost 0 and what the key has left; its refusals say cost 0", async () => {
    const { gw, proxy } = stack;
    const { key, url, wsUrl } = await makeKey(gw, { dailyCredits: 1000 });
    expect((await post(url, call('eth_chainId'))).headers['x-credits-remaining']).toBe('995');
    const opened = await upgradeResponse(wsUrl);
    expect(opened.status).toBe(101);
    expect(opened.headers['x-credits-cost']).toBe('0');
    expect(opened.headers['x-credits-remaining']).toBe('995');
    expect((await usageOf(gw, key)).left).toBe(995);
    // A call over a socket has no headers; the next upgrade and the usage report agree on it.
    const socket = await open(wsUrl, {});
    try {
      expect((await ask(socket, freshBalance())).result).toBe('0x0');
    } finally {
      socket.close();
    }
    const after = await upgradeResponse(wsUrl);
    expect(after.headers['x-credits-remaining']).toBe(String((await usageOf(gw, key)).left));
    expect(after.headers['x-credits-remaining']).toBe(String(995 - 80));

    // Refused at the upgrade: 401 (secret), 403 (allowlist), 402 (no credit left): cost 0,
    // nothing left shown, nothing sent upstream, nothing charged.
    const before = forwarded(proxy, 'eth_getBalance');
    const secretKey = await makeKey(gw, { requireSecret: true });
    const origins = await makeKey(gw, { allow: { origins: ['https://app.example.com'] } });
    const spent = await makeKey(gw, { dailyCredits: 80 });
    expect((await post(spent.url, freshBalance())).headers['x-credits-remaining']).toBe('0');
    const cases: [string, number][] = [
      [secretKey.wsUrl, 401],
      [origins.wsUrl, 403],
      [spent.wsUrl, 402],
    ];
    for (const [refusedUrl, status] of cases) {
      const refused = await upgradeResponse(refusedUrl, { origin: 'https://evil.example' });
      expect([refused.status, refused.headers['x-credits-cost']]).toEqual([status, '0']);
      expect(refused.headers['x-credits-remaining']).toBeUndefined();
    }
    expect(forwarded(proxy, 'eth_getBalance')).toBe(before + 1); // the spending call only
    expect((await usageOf(gw, spent.key)).left).toBe(0);
  });
});
