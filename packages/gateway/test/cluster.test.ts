/**
 * The ledger on a real Redis Cluster: three masters of redis-server on loopback (created with
 * `redis-cli --cluster create`), two gateway processes in front of one anvil. Exact totals when
 * calls of many keys (spread over every master's slots) race across both instances; slots moved
 * under load (ASK, then MOVED) and a master killed and restarted under load are survived without
 * restarting a gateway: the keys of the lost master answer a retryable 503 meanwhile, and no
 * answer is ever free. Busy keys are debited from leases (src/credits/leases.ts): five instances
 * sharing one key near its daily limit send upstream exactly the calls it paid for.
 */
import {
  type AnvilService,
  ensureGatewayBuilt,
  gatewayCli,
  type GatewayProcess,
  postJson,
  type RedisClusterService,
  redisCommand,
  serveGateway,
  startAnvil,
  startRedisCluster,
  startScriptedUpstream,
  writeGatewayConfig,
} from '@l2wallet/testkit';
import { Command } from 'ioredis';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { newKey, type NewKeyOptions, sha256 } from '../src/auth/keys';
import { loadConfig } from '../src/config';
import { openStores, type Stores } from '../src/stores/open';
import { call, tempDir } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let anvil: AnvilService;
let cluster: RedisClusterService;
let configFile: string;
let gateways: GatewayProcess[] = [];
/**
 * The cluster's key registry and ledger, opened here as `keys create` and `keys usage` open them
 * (one connection for the file instead of a CLI process per key and per look).
 */
let stores: Stores;

beforeAll(async () => {
  ensureGatewayBuilt();
  [anvil, cluster] = await Promise.all([startAnvil(), startRedisCluster({ masters: 3 })]);
  configFile = writeGatewayConfig(tempDir(), {
    listen: { host: '127.0.0.1', port: 1 },
    ledger: { redisCluster: [cluster.urls[0]] }, // one seed node: the client learns the rest
    chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
  });
  [gateways, stores] = await Promise.all([
    Promise.all([serveGateway(configFile), serveGateway(configFile)]),
    openStores({ redisCluster: [cluster.urls[0]] }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await stores?.close();
  await cluster?.stop();
  await anvil?.stop();
});

interface Charged {
  total: number;
  limit: number;
  methods: Record<string, number>;
}

/** `keys usage` of a key, by the CLI (the key on stdin), its refusals by cause left out. */
async function cliUsage(key: string): Promise<Charged> {
  const { stdout } = await gatewayCli(['keys', 'usage', '-', '--config', configFile], {
    input: key,
  });
  const { refused: _refused, ...charged } = JSON.parse(stdout);
  return charged;
}

/** What `keys usage` prints of a key's charges, read as it reads them (in this process). */
async function usage(key: string): Promise<Charged> {
  const record = (await stores.keys.get(sha256(key)))!;
  const { total, methods } = await stores.ledger.usage(record.hash, Date.now());
  return { total, limit: record.dailyCredits, methods };
}

/** A new key in the cluster's registry, as `keys create` makes it. */
async function createKey(options: NewKeyOptions): Promise<string> {
  const { key, record } = newKey(options);
  await stores.keys.add(record);
  return key;
}

/** The master (by index) that holds a key's ledger records: the slot of its hash tag. */
async function masterOf(key: string): Promise<number> {
  const slot = new Command('get', [`{${sha256(key)}}`]).getSlot() as number;
  const nodes = await redisCommand(cluster.nodes[0].port, ['CLUSTER', 'NODES']);
  for (const line of nodes.split('\n')) {
    const fields = line.split(' ');
    if (!fields[2]?.includes('master')) continue;
    const owns = fields.slice(8).some((range) => {
      const [from, to = from] = range.split('-').map(Number);
      return slot >= from && slot <= to;
    });
    if (owns) return cluster.nodes.findIndex((n) => fields[1].startsWith(`127.0.0.1:${n.port}@`));
  }
  return -1;
}

/**
 * New keys (created with `options`) until each master holds at least `perMaster` of them (a key's
 * slot is its hash's: random), `count` of them at least.
 */
async function keysOnEveryMaster(options: NewKeyOptions, count: number, perMaster: number) {
  const keys: string[] = [];
  const on = [0, 0, 0];
  while (keys.length < count || on.some((n) => n < perMaster)) {
    const batch = await Promise.all(Array.from({ length: 4 }, () => createKey(options)));
    for (const key of batch) {
      const master = await masterOf(key);
      on[master] += 1;
      if (keys.length < count || on[master] <= perMaster) keys.push(key);
    }
    expect(keys.length).toBeLessThan(60);
  }
  return keys;
}

it('gives each of many keys exactly its credit when calls race across both instances', async () => {
  const N = 8;
  // Spread over every master's slots.
  const keys = await keysOnEveryMaster({ plan: 'team', dailyCredits: N * 80 }, 12, 2);
  expect(new Set(await Promise.all(keys.map(masterOf)))).toEqual(new Set([0, 1, 2]));
  const answers = await Promise.all(
    keys.flatMap((key, k) =>
      Array.from({ length: 4 * N }, (_, i) =>
        postJson(
          `${gateways[(i + k) % 2].url}/v3/${key}`,
          call('eth_call', [{ to: '0x' + '00'.repeat(20) }, 'latest'], i),
        ).then((reply) => ({ key, reply })),
      ),
    ),
  );
  for (const key of keys) {
    const mine = answers.filter((a) => a.key === key).map((a) => a.reply);
    expect(mine.filter((r) => r.status === 200)).toHaveLength(N);
    expect(mine.filter((r) => r.status === 402)).toHaveLength(3 * N);
    expect(await usage(key)).toEqual({
      total: N * 80,
      limit: N * 80,
      methods: { eth_call: N * 80 },
    });
  }
  // The CLI reads the same from the cluster.
  expect(await cliUsage(keys[0])).toEqual({
    total: N * 80,
    limit: N * 80,
    methods: { eth_call: N * 80 },
  });
});

/**
 * Keeps calls of every key going through both instances until stopped; counts what each key was
 * answered with a result, and collects every error.
 */
function load(keys: string[]) {
  let running = true;
  const served = new Map(keys.map((key) => [key, 0]));
  const errors: { status: number; error: { code: number; data?: { retryable?: boolean } } }[] = [];
  const worker = async (w: number) => {
    for (let n = 0; running; n++) {
      const key = keys[(w + n) % keys.length];
      const reply = await postJson(
        `${gateways[n % 2].url}/v3/${key}`,
        call('eth_blockNumber', [], n),
      ).catch(() => undefined);
      if (reply?.json?.result !== undefined) served.set(key, served.get(key)! + 80);
      else if (reply?.json?.error) errors.push({ status: reply.status, error: reply.json.error });
      await sleep(2);
    }
  };
  const done = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
  return {
    served,
    errors,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** Waits until every key's ledger total is what it was served (voids of lost answers land). */
async function expectExact(served: Map<string, number>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const totals = await Promise.all(
      [...served.keys()].map(async (key) => (await usage(key)).total),
    );
    const expected = [...served.values()];
    if (totals.every((total, i) => total === expected[i]) || Date.now() > deadline) {
      expect(totals).toEqual(expected);
      return;
    }
    await sleep(500);
  }
}

it('moves slots between masters under load (ASK, then MOVED): every answer charged once', async () => {
  const keys = await keysOnEveryMaster({ plan: 'team' }, 9, 2);
  const running = load(keys);
  try {
    await sleep(500);
    await cluster.reshard(0, 2, 2000);
    await sleep(500);
  } finally {
    await running.stop();
  }
  for (const error of running.errors) {
    expect(error).toMatchObject({
      status: 503,
      error: { code: -32603, data: { retryable: true } },
    });
  }
  expect([...running.served.values()].every((credits) => credits > 0)).toBe(true);
  await expectExact(running.served);
});

it('survives a master killed and restarted under load: 503 retryable meanwhile, never a free answer', async () => {
  const keys = await keysOnEveryMaster({ plan: 'team' }, 9, 2);
  expect((await Promise.all(keys.map(masterOf))).filter((m) => m === 1).length).toBeGreaterThan(1);
  const running = load(keys);
  try {
    await sleep(800);
    await cluster.restart(1, { signal: 'SIGKILL', downMs: 1500 });
    await sleep(1500);
  } finally {
    await running.stop();
  }
  // The outage was seen, and only as "retry later" (the ledger's 503), never as a free answer.
  expect(running.errors.length).toBeGreaterThan(0);
  for (const error of running.errors) {
    expect(error).toMatchObject({
      status: 503,
      error: { code: -32603, data: { retryable: true } },
    });
  }
  // No gateway was restarted: both serve every key again, the victim's included.
  for (const gateway of gateways) {
    for (const key of keys) {
      expect((await postJson(`${gateway.url}/v3/${key}`, call('eth_chainId'))).status).toBe(200);
    }
  }
  const served = new Map([...running.served].map(([key, credits]) => [key, credits + 2 * 5]));
  await expectExact(served);
  for (const gateway of gateways) {
    expect(gateway.output()).not.toMatch(/unhandled rejection|Unhandled error event/i);
  }
});

/** A gateway's counter `gateway_ledger_debits_total{via}` from its /metrics. */
async function debitsVia(gateway: GatewayProcess, via: 'lease' | 'ledger'): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return Number(
    new RegExp(`gateway_ledger_debits_total\\{via="${via}"\\} (\\d+)`).exec(text)?.[1] ?? 0,
  );
}

it('gives one key near its daily limit exactly its credit across five instances: nothing unpaid goes upstream', async () => {
  const upstream = await startScriptedUpstream(anvil.url);
  const shared = writeGatewayConfig(tempDir(), {
    listen: { host: '127.0.0.1', port: 1 },
    ledger: { redisCluster: [cluster.urls[1]] },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [upstream.url] }],
  });
  const five = await Promise.all(Array.from({ length: 5 }, () => serveGateway(shared)));
  try {
    const N = 1000; // leased while the day has 16 leases left, then call by call
    const key = await createKey({
      plan: 'team',
      dailyCredits: N * 80,
      creditsPerSecond: 1_000_000,
    });
    let distinct = 0;
    const statuses: number[] = [];
    // Six clients per instance, each calling (a call nobody else makes) until refused.
    const answered = await Promise.all(
      five.flatMap((gateway) =>
        Array.from({ length: 6 }, async () => {
          let ok = 0;
          for (;;) {
            const data = `0x${(++distinct).toString(16).padStart(8, '0')}`;
            const reply = await postJson(
              `${gateway.url}/v3/${key}`,
              call('eth_call', [{ to: '0x' + '11'.repeat(20), data }, 'latest']),
            );
            if (reply.status !== 200) {
              statuses.push(reply.status);
              return ok;
            }
            ok += 1;
          }
        }),
      ),
    );
    expect(statuses.every((status) => status === 402)).toBe(true);
    expect(answered.reduce((a, b) => a + b, 0)).toBe(N);
    expect(upstream.count('eth_call')).toBe(N);
    // Leases served most calls; the last ones went call by call.
    const leased = await Promise.all(five.map((g) => debitsVia(g, 'lease')));
    const ledger = await Promise.all(five.map((g) => debitsVia(g, 'ledger')));
    expect(leased.reduce((a, b) => a + b, 0)).toBeGreaterThan(N / 2);
    expect(ledger.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Once every lease is settled, the day's total is the sum of the answered calls.
    const deadline = Date.now() + 10_000;
    let settled = await usage(key);
    while (settled.total !== N * 80 && Date.now() < deadline) {
      await sleep(200);
      settled = await usage(key);
    }
    expect(settled).toEqual({ total: N * 80, limit: N * 80, methods: { eth_call: N * 80 } });
  } finally {
    await Promise.all(five.map((g) => g.stop()));
    await upstream.stop();
  }
});

it('refuses a cluster ledger without seed nodes, or with seeds that are not redis:// URLs', () => {
  const dir = tempDir();
  const write = (ledger: unknown) => {
    const file = path.join(dir, 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({ ledger, chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }] }),
    );
    return file;
  };
  expect(() => loadConfig(write({ redisCluster: [] }))).toThrow(
    /ledger must be .*\{ "redisCluster": \[URL, \.\.\.\] \}/,
  );
  expect(() => loadConfig(write({ redisCluster: ['127.0.0.1:7001'] }))).toThrow(
    /redisCluster must list redis:\/\/host:port URLs/,
  );
  expect(() => loadConfig(write({ redis: cluster.urls[0], redisCluster: cluster.urls }))).toThrow(
    /ledger must be/,
  );
  expect(loadConfig(write({ redisCluster: cluster.urls })).ledger).toEqual({
    redisCluster: cluster.urls,
  });
});
