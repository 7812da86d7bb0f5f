/** The scripted upstream: a counting pass-through that refuses, errs, lags or hangs on request. */
import { postJson, serveHttp, startScriptedUpstream, type StubServer } from '@l2wallet/testkit';

let node: StubServer;
beforeAll(async () => {
  // A node that answers every call with its method name.
  node = await serveHttp((_request, response, body) => {
    const parsed = JSON.parse(body) as
      { id: number; method: string } | { id: number; method: string }[];
    const answer = (call: { id: number; method: string }) => ({
      jsonrpc: '2.0',
      id: call.id,
      result: call.method,
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
  });
});
afterAll(() => node.close());

const call = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] });

it('passes through and counts single calls apart from batches', async () => {
  const upstream = await startScriptedUpstream(node.url);
  try {
    expect((await postJson(upstream.url, call('eth_chainId'))).json.result).toBe('eth_chainId');
    const batch = await postJson(upstream.url, [call('eth_chainId', 1), call('eth_call', 2)]);
    expect(batch.json.map((a: { result: string }) => a.result)).toEqual([
      'eth_chainId',
      'eth_call',
    ]);
    expect(upstream.count('eth_chainId')).toBe(1);
    expect(
      upstream
        .calls()
        .filter((c) => c.batch)
        .map((c) => c.method),
    ).toEqual(['eth_chainId', 'eth_call']);
  } finally {
    await upstream.stop();
  }
});

it('answers a status, a JSON-RPC error or a body of its own while told to, for the methods named', async () => {
  const upstream = await startScriptedUpstream(node.url);
  try {
    upstream.set({
      status: 429,
      error: { code: -32005, message: 'rate limited' },
      headers: { 'retry-after': '2' },
      methods: ['eth_call'],
    });
    const refused = await postJson(upstream.url, call('eth_call', 7));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32005, message: 'rate limited' },
    });
    // Another method passes through meanwhile.
    expect((await postJson(upstream.url, call('eth_chainId'))).json.result).toBe('eth_chainId');
    upstream.set({ status: 502, body: 'bad gateway' });
    expect(await postJson(upstream.url, call('eth_chainId'))).toMatchObject({
      status: 502,
      text: 'bad gateway',
    });
    upstream.reset();
    expect((await postJson(upstream.url, call('eth_call'))).json.result).toBe('eth_call');
    expect(upstream.count('eth_call')).toBe(2);
  } finally {
    await upstream.stop();
  }
});

it('holds answers back, and hangs until stopped', async () => {
  const upstream = await startScriptedUpstream(node.url);
  upstream.set({ delayMs: 300 });
  const started = Date.now();
  expect((await postJson(upstream.url, call('eth_chainId'))).json.result).toBe('eth_chainId');
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  upstream.set({ hang: true });
  const hung = postJson(upstream.url, call('eth_chainId')).then(
    () => 'answered',
    () => 'dropped',
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  await upstream.stop();
  expect(await hung).toBe('dropped');
});
