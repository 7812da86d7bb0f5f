/**
 * The gateway over HTTP against a real anvil: the six documented methods
 * (docs/interface/gateway.md#methods) byte for byte against anvil itself, viem and ethers unchanged
 * through it, the documented semantics (docs/interface/gateway.md#semantics) anvil lacks, auth,
 * credits, errors, bad input and batches, with the ledger checked after each.
 */
import { type AnvilService, startAnvil } from '@l2wallet/testkit';
import { JsonRpcProvider } from 'ethers';
import { request } from 'undici';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { sha256 } from '../src/auth/keys';
import { BODY_LIMIT } from '../src/jsonrpc/errors';
import type { RunningGateway } from '../src/server';
import {
  addKey,
  call,
  errorStringData,
  gatewayConfig,
  post,
  revertingCode,
  type Seeded,
  seedChain,
  startWithKey,
  usageOf,
} from './helpers';

let anvil: AnvilService;
let gw: RunningGateway;
let key: string;
let rpcUrl: string;
let seeded: Seeded;
/** The gateway's clock: real time, or a fixed instant a test sets. */
let clock: number | undefined;

beforeAll(async () => {
  anvil = await startAnvil();
  seeded = await seedChain(anvil.url);
  ({ gw, key, rpcUrl } = await startWithKey(
    gatewayConfig(anvil.url, {
      chains: [
        { name: 'local', hosts: ['127.0.0.1', 'localhost'], upstreams: [anvil.url] },
        { name: 'dead', hosts: ['dead.test'], upstreams: ['http://127.0.0.1:9'] },
      ],
    }),
    { plan: 'team' },
    { now: () => clock ?? Date.now() },
  ));
});

afterAll(async () => {
  await gw?.close();
  await anvil?.stop();
});

const direct = (body: unknown) => post(anvil.url, body);

describe('the six methods of docs/interface/gateway.md', () => {
  it('answer byte for byte as anvil does, found and not found, and charge their documented costs', async () => {
    const missing = '0x' + 'ab'.repeat(32);
    const { blockHash, calls, contract } = seeded;
    const cases: [string, unknown[], number][] = [
      ['eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0'], 150],
      ['eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0'], 150],
      ['eth_getTransactionByBlockNumberAndIndex', ['finalized', '0x5'], 150],
      ['eth_getTransactionByBlockHashAndIndex', [blockHash, '0x0'], 150],
      ['eth_getTransactionByBlockHashAndIndex', [missing, '0x0'], 150],
      ['eth_getBlockByHash', [blockHash, false], 80],
      ['eth_getBlockByHash', [blockHash, true], 80],
      ['eth_getBlockByHash', [missing, false], 80],
      ['eth_call', [{ to: contract, data: '0x' }, 'latest'], 80],
      [
        'eth_call',
        [
          { from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', to: contract, data: '0x01' },
          'pending',
        ],
        80,
      ],
      ['eth_getTransactionReceipt', [calls[1]], 80],
      ['eth_getTransactionReceipt', [missing], 80],
      ['eth_getProof', [contract, ['0x' + '00'.repeat(32)], 'latest'], 150],
      ['eth_getProof', [contract, [], '0x1'], 150],
    ];
    const before = (await usageOf(gw, key)).total;
    let expected = 0;
    for (const [method, params, cost] of cases) {
      const body = call(method, params, 42);
      const [mine, theirs] = await Promise.all([post(rpcUrl, body), direct(body)]);
      expect({ method, params, text: mine.text }).toEqual({ method, params, text: theirs.text });
      expect(mine.status).toBe(200);
      expected += cost;
    }
    // The not-found answers really are null (docs/interface/gateway.md#semantics).
    expect(
      (await post(rpcUrl, call('eth_getBlockByHash', [missing, false]))).json.result,
    ).toBeNull();
    expected += 80;
    // Cached answers come back identical and are charged again.
    const again = await post(rpcUrl, call('eth_getBlockByHash', [blockHash, false], 42));
    expect(again.text).toBe(
      (await direct(call('eth_getBlockByHash', [blockHash, false], 42))).text,
    );
    expected += 80;
    for (let i = 0; i < 2; i++) {
      await post(rpcUrl, call('eth_getTransactionByBlockHashAndIndex', [missing, '0x0']));
      await post(rpcUrl, call('eth_getTransactionReceipt', [missing]));
      expected += 150 + 80;
    }
    expect((await usageOf(gw, key)).total - before).toBe(expected);
    const metrics = await (await request(`${gw.url}/metrics`)).body.text();
    expect(metrics).toMatch(/gateway_cache_hits_total\{method="eth_getBlockByHash"\} [1-9]/);
    // null answers (asked three times each) never come from the cache.
    expect(metrics).not.toMatch(
      /cache_hits_total\{method="eth_getTransactionByBlockHashAndIndex"\}/,
    );
    expect(metrics).not.toMatch(/cache_hits_total\{method="eth_getTransactionReceipt"\}/);
  });

  it('caches a receipt once its block is at or below finalized, and still charges it', async () => {
    const receipt = call('eth_getTransactionReceipt', [seeded.transfers[0]], 3);
    const hits = async () => {
      const text = await (await request(`${gw.url}/metrics`)).body.text();
      return Number(
        /cache_hits_total\{method="eth_getTransactionReceipt"\} (\d+)/.exec(text)?.[1] ?? 0,
      );
    };
    await post(rpcUrl, receipt);
    await post(rpcUrl, receipt);
    expect(await hits()).toBe(0); // not final yet: anvil finalizes 64 blocks behind latest
    await direct(call('anvil_mine', ['0x50']));
    // Until a health check has read a `finalized` at or past the receipt's block.
    const block = BigInt((await direct(receipt)).json.result.blockNumber);
    const upstream = gw.gateway.router.chains[0].upstreams[0];
    while ((upstream.finalized ?? -1n) < block) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = (await usageOf(gw, key)).total;
    const first = await post(rpcUrl, receipt);
    const second = await post(rpcUrl, receipt);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe((await direct(receipt)).text);
    expect(await hits()).toBe(1);
    expect((await usageOf(gw, key)).total - before).toBe(160);
  });

  it('left-pads short eth_getProof storage keys, which anvil alone refuses', async () => {
    // One block for the three reads: the gateway's view of `latest` may trail anvil's by a block.
    const block = (await direct(call('eth_blockNumber', []))).json.result as string;
    const short = await post(rpcUrl, call('eth_getProof', [seeded.contract, ['0x0'], block]));
    const refused = await direct(call('eth_getProof', [seeded.contract, ['0x0'], block]));
    expect(refused.json.error).toBeDefined();
    const full = await direct(
      call('eth_getProof', [seeded.contract, ['0x' + '00'.repeat(32)], block]),
    );
    expect(short.json.result).toEqual(full.json.result);
    expect(short.json.result.storageProof[0].value).toBe('0x2a');
  });

  it('refuses `safe` for eth_getTransactionByBlockNumberAndIndex only, free of charge', async () => {
    const before = (await usageOf(gw, key)).total;
    const safe = await post(
      rpcUrl,
      call('eth_getTransactionByBlockNumberAndIndex', ['safe', '0x0']),
    );
    expect(safe.json.error.code).toBe(-32602);
    expect(safe.json.error.message).toContain('finalized');
    expect((await usageOf(gw, key)).total).toBe(before);
    const ok = await post(rpcUrl, call('eth_call', [{ to: seeded.contract }, 'safe']));
    expect(ok.json.error).toBeUndefined();
  });

  it('normalises reverts to code 3 with Error(string) and Panic(uint256) decoded', async () => {
    const reason = 'not enough credit for this';
    const data = errorStringData(reason);
    const reverted = await post(
      rpcUrl,
      call('eth_call', [{ data: revertingCode(data) }, 'latest'], 9),
    );
    expect(reverted.json).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: 3, message: `execution reverted: ${reason}`, data },
    });
    const panicData = '0x4e487b71' + '11'.padStart(64, '0');
    const panic = await post(
      rpcUrl,
      call('eth_call', [{ data: revertingCode(panicData) }, 'latest']),
    );
    expect(panic.json.error).toEqual({
      code: 3,
      message: 'execution reverted: panic: arithmetic underflow or overflow (0x11)',
      data: panicData,
    });
  });

  it('caps eth_call gas at 10x the block gas limit (anvil alone does not) and still runs it', async () => {
    // Init code returning gasleft() as a 32-byte word.
    const gasLeft = '0x5a60005260206000f3';
    const limit = BigInt(
      (await direct(call('eth_getBlockByNumber', ['latest', false]))).json.result.gasLimit,
    );
    const gas = '0x' + (limit * 11n).toString(16);
    const uncapped = await direct(call('eth_call', [{ data: gasLeft, gas }, 'latest']));
    expect(BigInt(uncapped.json.result)).toBeGreaterThan(limit * 10n);
    const capped = await post(rpcUrl, call('eth_call', [{ data: gasLeft, gas }, 'latest']));
    expect(BigInt(capped.json.result)).toBeLessThanOrEqual(limit * 10n);
    expect(BigInt(capped.json.result)).toBeGreaterThan(limit * 9n);
    const estimate = await post(rpcUrl, call('eth_estimateGas', [{ to: seeded.contract, gas }]));
    expect(estimate.json.result).toMatch(/^0x[0-9a-f]+$/);
  });
});

describe('clients', () => {
  it('viem and ethers work unchanged through the gateway', async () => {
    const client = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
    expect(await client.getChainId()).toBe(31337);
    const block = await client.getBlock({ blockHash: seeded.blockHash });
    expect(block.hash).toBe(seeded.blockHash);
    const receipt = await client.getTransactionReceipt({ hash: seeded.calls[0] });
    expect(receipt.logs).toHaveLength(1);
    expect(await client.getCode({ address: seeded.contract })).toBe('0x602a60005560006000a000');
    const logs = await client.getLogs({ address: seeded.contract, fromBlock: 0n });
    expect(logs).toHaveLength(2);
    await client.estimateFeesPerGas();

    const provider = new JsonRpcProvider(rpcUrl, 31337, { staticNetwork: true, batchMaxCount: 1 });
    expect(await provider.getBlockNumber()).toBeGreaterThan(3);
    expect(await provider.getStorage(seeded.contract, 0)).toBe('0x' + '2a'.padStart(64, '0'));
    const tx = await provider.getTransaction(seeded.transfers[0]);
    expect(tx?.value).toBe(10n ** 15n);
    expect(await provider.call({ to: seeded.contract })).toBe('0x');
    provider.destroy();
  });
});

describe('auth and allowlists', () => {
  it('answers 401 for a missing, unknown or revoked key and for a wrong secret', async () => {
    const missing = await post(`${gw.url}/v3/`, call('eth_chainId'));
    expect([missing.status, missing.json.error.message]).toEqual([
      401,
      'project id required in the url',
    ]);
    const unknown = await post(`${gw.url}/v3/${'0'.repeat(32)}`, call('eth_chainId'));
    expect([unknown.status, unknown.json.error.message]).toEqual([401, 'invalid project id']);

    const created = await addKey(gw, { plan: 'free', secret: true });
    const record = await gw.gateway.keys.get(sha256(created));
    expect(record?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    const noSecret = await post(`${gw.url}/v3/${created}`, call('eth_chainId'));
    expect([noSecret.status, noSecret.json.error.message]).toEqual([
      401,
      'invalid project id or project secret',
    ]);
    const wrong = await post(`${gw.url}/v3/${created}`, call('eth_chainId'), {
      authorization: 'Basic ' + Buffer.from(':nope').toString('base64'),
    });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.json)).not.toContain(created);
  });

  it("refuses calls outside a key's origin, method and contract allowlists with 403 -32002", async () => {
    const allowed = await addKey(gw, {
      plan: 'free',
      allow: {
        origins: ['*.example.com'],
        methods: ['eth_call', 'eth_chainId'],
        contracts: [seeded.contract],
      },
    });
    const url = `${gw.url}/v3/${allowed}`;
    const origin = { origin: 'https://app.example.com' };
    expect((await post(url, call('eth_chainId'), origin)).status).toBe(200);
    const badOrigin = await post(url, call('eth_chainId'), { origin: 'https://evil.test' });
    expect([badOrigin.status, badOrigin.json.error]).toEqual([
      403,
      {
        code: -32002,
        message: 'rejected due to project ID settings: Origin not in the origin allowlist',
        data: { allowlist: 'origins' },
      },
    ]);
    expect((await post(url, call('eth_blockNumber'), origin)).status).toBe(403);
    expect(
      (await post(url, call('eth_call', [{ to: seeded.contract }, 'latest']), origin)).status,
    ).toBe(200);
    const otherContract = call('eth_call', [{ to: '0x' + '11'.repeat(20) }, 'latest']);
    expect((await post(url, otherContract, origin)).status).toBe(403);
    const usage = await gw.gateway.ledger.usage(sha256(allowed), Date.now());
    expect(usage.total).toBe(5 + 80);
  });

  it('routes by Host: an unknown host gets 404 with a JSON-RPC error', async () => {
    const response = await post(rpcUrl, call('eth_chainId'), { host: 'nowhere.test:8545' });
    expect(response.status).toBe(404);
    expect(response.json.error.message).toContain('nowhere.test');
  });
});

describe('credits', () => {
  it('402 when the daily balance cannot take the call: no upstream call, not charged', async () => {
    const small = await addKey(gw, { plan: 'free', dailyCredits: 200 });
    const url = `${gw.url}/v3/${small}`;
    expect((await post(url, call('eth_call', [{ to: seeded.contract }]))).status).toBe(200);
    expect((await post(url, call('eth_call', [{ to: seeded.contract }]))).status).toBe(200);
    const refused = await post(url, call('eth_call', [{ to: seeded.contract }]));
    expect(refused.status).toBe(402);
    expect(refused.json.error.code).toBe(-33000);
    expect(refused.json.error.message).toContain('daily credit limit of 200');
    // 40 left: a 5-credit call still fits.
    expect((await post(url, call('eth_chainId'))).status).toBe(200);
    expect(await usageOf(gw, small)).toMatchObject({
      total: 165,
      limit: 200,
      left: 35,
      methods: { eth_call: 160, eth_chainId: 5 },
    });
  });

  it('429 with backoff_seconds over the credits per second, not charged', async () => {
    const slow = await addKey(gw, { plan: 'free', creditsPerSecond: 100 });
    const url = `${gw.url}/v3/${slow}`;
    // One instant on the gateway's clock for the three calls: one window, however slow they run.
    clock = Date.now();
    let answers: Awaited<ReturnType<typeof post>>[];
    try {
      answers = await Promise.all([1, 2, 3].map(() => post(url, call('eth_blockNumber'))));
    } finally {
      clock = undefined;
    }
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 429, 429]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.json.error).toMatchObject({ code: -33200, data: { backoff_seconds: 1 } });
    expect((await usageOf(gw, slow)).total).toBe(80);
  });

  it('does not charge an upstream failure, and a dead upstream never hangs the request', async () => {
    const before = (await usageOf(gw, key)).total;
    const failed = await post(rpcUrl, call('eth_blockNumber'), { host: 'dead.test' });
    // 503, not the 504 every wait (connect or answer) ends in: the refusal itself was answered.
    expect(failed.status).toBe(503);
    expect(failed.json.error.message).toBe('upstream unavailable; not charged');
    expect((await usageOf(gw, key)).total).toBe(before);
  });

  it('serves usage for free with CORS, including the last hour per minute', async () => {
    const response = await request(`${gw.url}/v3/${key}/usage`, {
      headers: { origin: 'http://x.test' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const usage = (await response.body.json()) as Awaited<ReturnType<typeof usageOf>>;
    expect(usage.lastHour).toHaveLength(60);
    expect(usage.lastHour.reduce((sum, m) => sum + m.credits, 0)).toBe(usage.total);
    expect((await usageOf(gw, key)).total).toBe(usage.total);
  });
});

describe('bad input', () => {
  it('answers -32700, -32600, -32601 and -32602 without charging, and 413 over 1 MB', async () => {
    const before = (await usageOf(gw, key)).total;
    const parse = await post(rpcUrl, '{"jsonrpc":"2.0",');
    expect([parse.status, parse.json.error.code]).toEqual([400, -32700]);
    const invalid = await post(rpcUrl, { jsonrpc: '1.0', id: 1, method: 'eth_chainId' });
    expect([invalid.status, invalid.json.error.code]).toEqual([400, -32600]);
    const unknown = await post(rpcUrl, call('eth_sign', ['0x00', '0x00']));
    expect(unknown.json.error.code).toBe(-32601);
    const wsOnly = await post(rpcUrl, call('eth_subscribe', ['newHeads']));
    expect(wsOnly.json.error.code).toBe(-32601);
    const badParam = await post(rpcUrl, call('eth_getBlockByHash', ['0x1234', false]));
    expect(badParam.json.error).toEqual({
      code: -32602,
      message: 'invalid params: param 0 (blockHash) must be a 32-byte hex string',
    });
    const missingParam = await post(rpcUrl, call('eth_getTransactionReceipt', []));
    expect(missingParam.json.error.message).toContain('transactionHash');
    const tooMany = await post(rpcUrl, call('eth_chainId', [1]));
    expect(tooMany.json.error.code).toBe(-32602);
    const huge = await post(
      rpcUrl,
      JSON.stringify(call('eth_call', [{ data: '0x' + '00'.repeat(BODY_LIMIT) }])),
    );
    expect(huge.status).toBe(413);
    expect((await usageOf(gw, key)).total).toBe(before);
  });

  it('charges each call of a batch, refuses batches over 100 whole, and survives a fuzzed batch', async () => {
    const before = (await usageOf(gw, key)).total;
    const batch = await post(rpcUrl, [
      call('eth_chainId', [], 1),
      call('eth_blockNumber', [], 2),
      call('nope', [], 3),
    ]);
    expect(batch.status).toBe(200);
    expect(batch.json.map((a: { id: number }) => a.id)).toEqual([1, 2, 3]);
    expect(batch.json[2].error.code).toBe(-32601);
    expect((await usageOf(gw, key)).total - before).toBe(85);

    const tooBig = await post(
      rpcUrl,
      Array.from({ length: 101 }, (_, i) => call('eth_chainId', [], i)),
    );
    expect([tooBig.status, tooBig.json.error.code]).toEqual([400, -32600]);
    expect((await usageOf(gw, key)).total - before).toBe(85);

    // Fuzz: random junk mixed with valid calls; the charge is exactly the valid calls' cost.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const junk = [
      null,
      42,
      'x',
      [],
      {},
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', id: {}, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: 1, method: 'eth_getBlockByHash', params: 'x' },
      { jsonrpc: '2.0', id: 1, method: 'eth_getProof', params: ['0x00', [], 'latest'] },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getTransactionByBlockNumberAndIndex',
        params: ['soon', '0x0'],
      },
      { jsonrpc: '2.0', id: 1, method: '__proto__' },
      { jsonrpc: '2.0', id: 1, method: 'constructor' },
    ];
    const fuzzed: unknown[] = [];
    let validCost = 0;
    for (let i = 0; i < 100; i++) {
      if (random() < 0.3) {
        fuzzed.push(call('eth_chainId', [], `ok-${i}`));
        validCost += 5;
      } else fuzzed.push(junk[Math.floor(random() * junk.length)]);
    }
    const mid = (await usageOf(gw, key)).total;
    const answer = await post(rpcUrl, fuzzed);
    expect(answer.json).toHaveLength(100);
    expect((await usageOf(gw, key)).total - mid).toBe(validCost);
    expect((await post(rpcUrl, call('eth_chainId'))).json.result).toBe('0x7a69');
  });
});

describe('operations', () => {
  it('/healthz reports upstreams and /metrics counts per method, never naming a key', async () => {
    const health = await request(`${gw.url}/healthz`);
    const body = (await health.body.json()) as { chains: { name: string; healthy: boolean }[] };
    expect(body.chains.find((c) => c.name === 'local')?.healthy).toBe(true);
    expect(body.chains.find((c) => c.name === 'dead')?.healthy).toBe(false);
    expect(health.statusCode).toBe(503);
    const metrics = await (await request(`${gw.url}/metrics`)).body.text();
    expect(metrics).toMatch(/gateway_requests_total\{method="eth_call",status="200"\} \d+/);
    expect(metrics).toMatch(/gateway_credits_total\{method="eth_getProof"\} \d+/);
    expect(metrics).toMatch(/gateway_upstream_latency_seconds_count\{upstream="local\/0"\} \d+/);
    expect(metrics).not.toContain(key);
    expect(metrics).not.toContain(anvil.url);
  });
});
