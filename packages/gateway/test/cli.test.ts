/**
 * The l2-gateway CLI as a user drives it: keys create/list/usage/revoke and serve, against a
 * real anvil, plus the durability promise (kill -9 right after the responses loses no debit) on
 * SQLite and on Redis, where a busy key is debited from leases: a kill -9 costs at most the
 * unused lease, a clean shutdown nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { call, post, tempDir } from './helpers';
import {
  type AnvilService,
  createGatewayKey as createKey,
  ensureGatewayBuilt as ensureBuilt,
  gatewayCli as cli,
  type RedisService,
  serveGateway as serve,
  startAnvil,
  startRedis,
  writeGatewayConfig as writeConfig,
} from '@l2wallet/testkit';
import { newKey } from '../src/auth/keys';
import { KEY_TTL_MS } from '../src/calls';
import { maxLease } from '../src/credits/leaseStore';

/** What `keys usage` shows of a key nothing was refused to. */
const NONE_REFUSED = { secret: 0, jwt: 0, allowlist: 0, credit: 0, rate: 0 };

let anvil: AnvilService;
let dir: string;
let configFile: string;

beforeAll(async () => {
  await ensureBuilt();
  anvil = await startAnvil();
  dir = tempDir();
  configFile = writeConfig(dir, {
    listen: { host: '127.0.0.1', port: 1 },
    ledger: { sqlite: 'ledger.db' },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
  });
});

afterAll(async () => {
  await anvil?.stop();
});

describe('l2-gateway keys', () => {
  it('create --secret prints the secret and the key, each on its own labelled line, and stores only hashes', async () => {
    const { stdout } = await cli([
      'keys',
      'create',
      '--config',
      configFile,
      '--plan',
      'developer',
      '--secret',
    ]);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^secret: [0-9a-f]{32}$/);
    expect(lines[1]).toMatch(/^key: [0-9a-f]{32}$/);
    const [secret, key] = lines.map((line) => line.split(' ')[1]);
    const files = readdirSync(dir).filter((f) => f.startsWith('ledger.db'));
    expect(files).toContain('ledger.db');
    for (const file of files) {
      const text = readFileSync(path.join(dir, file)).toString('latin1');
      expect(text).not.toContain(key);
      expect(text).not.toContain(secret);
    }
    const list = await cli(['keys', 'list', '--config', configFile]);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).not.toContain(secret);
    expect(JSON.parse(list.stdout)).toContainEqual(
      expect.objectContaining({
        plan: 'developer',
        dailyCredits: 15_000_000,
        creditsPerSecond: 4000,
        secret: { set: true, required: true },
      }),
    );
  });

  it("overrides the plan per key, and usage prints today's total, limit and methods", async () => {
    const key = await createKey(configFile, [
      '--plan',
      'free',
      '--daily-credits',
      '1000',
      '--credits-per-second',
      '900',
    ]);
    const usage0 = JSON.parse((await cli(['keys', 'usage', key, '--config', configFile])).stdout);
    expect(usage0).toEqual({ total: 0, limit: 1000, methods: {}, refused: NONE_REFUSED });
    const list = JSON.parse((await cli(['keys', 'list', '--config', configFile])).stdout);
    expect(list.at(-1)).toMatchObject({
      plan: 'free',
      dailyCredits: 1000,
      creditsPerSecond: 900,
      failover: false,
    });
    const failover = await createKey(configFile, ['--plan', 'free', '--failover']);
    const listed = JSON.parse((await cli(['keys', 'list', '--config', configFile])).stdout);
    expect(listed.at(-1).failover).toBe(true);
    expect(failover).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses a bad plan and an unknown key', async () => {
    await expect(cli(['keys', 'create', '--config', configFile, '--plan', 'gold'])).rejects.toThrow(
      /--plan/,
    );
    await expect(cli(['keys', 'usage', '0'.repeat(32), '--config', configFile])).rejects.toThrow(
      /unknown API key/,
    );
  });
});

describe('the API key off the command line', () => {
  /** What `ps` shows of a running process: its command line. */
  const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');

  it('usage and revoke read the key from stdin (-) or L2_GATEWAY_KEY, never needing it in argv', async () => {
    const { stdout } = await cli(['keys', 'create', '--config', configFile, '--plan', 'free']);
    const key = stdout.trim().split('\n').at(-1)!;
    let seen = '';
    const fromStdin = await cli(['keys', 'usage', '-', '--config', configFile], {
      input: `${key}\n`,
      beforeInput: async (pid) => {
        // Right after the spawn the process may not have exec'd the CLI yet.
        for (let i = 0; i < 100 && !seen.includes('usage'); i++) {
          seen = commandLine(pid);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
    });
    expect(JSON.parse(fromStdin.stdout)).toEqual({
      total: 0,
      limit: 3_000_000,
      methods: {},
      refused: NONE_REFUSED,
    });
    expect(seen).toContain('usage');
    expect(seen).not.toContain(key);
    const fromEnv = await cli(['keys', 'usage', '--config', configFile], {
      env: { L2_GATEWAY_KEY: key },
    });
    expect(JSON.parse(fromEnv.stdout).limit).toBe(3_000_000);
    // No key anywhere: a usage error that says where to put it.
    await expect(cli(['keys', 'usage', '--config', configFile])).rejects.toThrow(
      /pass - and write it to stdin, or set L2_GATEWAY_KEY/,
    );
    await expect(
      cli(['keys', 'usage', '-', '--config', configFile], { input: 'not-a-key\n' }),
    ).rejects.toThrow(/32 lowercase hex characters/);
    const revoked = await cli(['keys', 'revoke', '-', '--config', configFile], { input: key });
    expect(revoked.stdout.trim()).toBe('revoked');
    const list = JSON.parse((await cli(['keys', 'list', '--config', configFile])).stdout);
    expect(list.at(-1).revokedAt).toBeTruthy();
  });

  it('create --env prints L2_GATEWAY_KEY= (and the secret) for an env file; the other commands take it', async () => {
    const { stdout } = await cli([
      'keys',
      'create',
      '--config',
      configFile,
      '--plan',
      'developer',
      '--secret',
      '--env',
    ]);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^L2_GATEWAY_SECRET=[0-9a-f]{32}$/);
    expect(lines[1]).toMatch(/^L2_GATEWAY_KEY=[0-9a-f]{32}$/);
    const key = lines[1].split('=')[1];
    const usage = await cli(['keys', 'usage', '--config', configFile], {
      env: { L2_GATEWAY_KEY: key },
    });
    expect(JSON.parse(usage.stdout).limit).toBe(15_000_000);
  });
});

describe('l2-gateway serve', () => {
  it('serves keys created before it started; a revoke lands while it runs', async () => {
    const key = await createKey(configFile, ['--plan', 'team']);
    const gateway = await serve(configFile);
    try {
      const url = `${gateway.url}/v3/${key}`;
      const answer = await post(url, call('eth_chainId'));
      expect(answer.json.result).toBe('0x7a69');
      const usage = JSON.parse((await cli(['keys', 'usage', key, '--config', configFile])).stdout);
      expect(usage).toEqual({
        total: 5,
        limit: 75_000_000,
        methods: { eth_chainId: 5 },
        refused: NONE_REFUSED,
      });
      await cli(['keys', 'revoke', key, '--config', configFile]);
      // It re-reads a key's record once KEY_TTL_MS old (access-redis.test shows it on the
      // gateway's clock); the deadline, 10 TTLs, is only so a revoke never seen fails here.
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200) {
        expect(Date.now() - revokedAt).toBeLessThan(10 * KEY_TTL_MS);
        status = (await post(url, call('eth_chainId'))).status;
      }
      expect(status).toBe(401);
      expect(gateway.output()).not.toContain(key);
    } finally {
      await gateway.stop();
    }
  });

  it('loses no debit when killed with SIGKILL right after its responses (SQLite)', async () => {
    const key = await createKey(configFile, ['--plan', 'team']);
    const gateway = await serve(configFile);
    const url = `${gateway.url}/v3/${key}`;
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(url, call('eth_blockNumber', [], i))),
    );
    gateway.killNow();
    await gateway.stop();
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const usage = JSON.parse((await cli(['keys', 'usage', key, '--config', configFile])).stdout);
    expect(usage.total).toBe(200 * 80);
  });
});

describe('l2-gateway serve on Redis (leases)', () => {
  let redis: RedisService;
  let redisConfig: string;
  beforeAll(async () => {
    const redisDir = tempDir();
    redis = await startRedis({ persistDir: redisDir });
    redisConfig = writeConfig(redisDir, {
      listen: { host: '127.0.0.1', port: 1 },
      ledger: { redis: redis.url },
      chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
    });
  });
  afterAll(() => redis?.stop());

  const PER_SECOND = 1_000_000;
  /** A gateway, and a new key of it made busy: 2000 calls, 16 at a time (served from leases). */
  async function busyGateway() {
    const key = await createKey(redisConfig, [
      '--plan',
      'team',
      '--credits-per-second',
      String(PER_SECOND),
    ]);
    const gateway = await serve(redisConfig);
    const statuses = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const mine = [];
        for (let i = 0; i < 125; i++) {
          const reply = await post(`${gateway.url}/v3/${key}`, call('eth_blockNumber', [], i));
          mine.push(reply.status);
        }
        return mine;
      }),
    );
    return { key, gateway, answered: statuses.flat().filter((status) => status === 200).length };
  }
  const usageTotal = async (key: string) =>
    JSON.parse((await cli(['keys', 'usage', '-', '--config', redisConfig], { input: key })).stdout)
      .total as number;

  it('loses no debit when killed with SIGKILL right after its responses; at most its unused lease is kept', async () => {
    const { key, gateway, answered } = await busyGateway();
    gateway.killNow();
    await gateway.stop();
    expect(answered).toBe(2000);
    // A lease left unsettled counts as charged once its second is two seconds past.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const total = await usageTotal(key);
    expect(total).toBeGreaterThanOrEqual(answered * 80);
    const { record } = newKey({ plan: 'team', creditsPerSecond: PER_SECOND });
    expect(total - answered * 80).toBeLessThanOrEqual(1.25 * maxLease(record));
  });

  it('gives unused leases back on a clean shutdown (SIGTERM): the total is exact at once', async () => {
    const { key, gateway, answered } = await busyGateway();
    await gateway.stop('SIGTERM');
    expect(answered).toBe(2000);
    expect(await usageTotal(key)).toBe(answered * 80);
  });
});
