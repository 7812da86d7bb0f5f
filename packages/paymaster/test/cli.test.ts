/**
 * The l2-paymaster CLI as an operator runs it: the relayer key, the node URL and the sponsor keys
 * only from the environment (or files), never its command line; a clear refusal (and exit code)
 * for every bad start, and no secret in anything it prints or answers: not the relayer key, not a
 * sponsor key, not the node URL's path or query (which may hold a key).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { DevnetServer } from '@l2wallet/devnet';
import {
  ensurePaymasterBuilt,
  ETH_TOKEN,
  paymasterCommand,
  postJson,
  rpc,
  spawnService,
  startDevnet,
  startPaymaster,
} from '@l2wallet/testkit';

import { type PredeployedAccount } from './helpers';

let devnet: DevnetServer & { stop(): Promise<void> };
let relayer: PredeployedAccount;
let other: PredeployedAccount;
let cli: string;
const SPONSOR = 'sponsor-secret-6d1e0c';

beforeAll(async () => {
  devnet = await startDevnet<DevnetServer>({ accounts: 2 });
  [other, relayer] = await rpc<PredeployedAccount[]>(
    devnet.rpcUrl,
    'devnet_getPredeployedAccounts',
    {},
  );
  cli = await ensurePaymasterBuilt();
});

afterAll(() => devnet?.stop());

/** Runs the CLI to its exit; its code and everything it printed. */
async function run(args: string[], env: Record<string, string> = {}) {
  const service = await spawnService({
    name: 'l2-paymaster',
    command: process.execPath,
    args: [cli, ...args],
    env,
  });
  const { code } = await service.waitForExit();
  return { code, output: service.output() };
}

const base = () => ['--relayer', relayer.address, '--port', '0', '--state-file', ':memory:'];

/**
 * Which relayer key the environment holds: none, the relayer's, another account's, or this text.
 */
type KeyIn = 'none' | 'relayer' | 'other' | { text: string };

it.each<[string, string[], KeyIn, number, RegExp]>([
  ['no relayer key in the environment', [], 'none', 2, /L2_PAYMASTER_RELAYER_KEY is not set/],
  ['a key that is not hex', [], { text: 'correct horse battery' }, 1, /not a hex private key/],
  ["another account's key", [], 'other', 1, /does not sign for the relayer account/],
  [
    'a relayer with nothing deployed',
    ['--relayer=0x1234'],
    'relayer',
    1,
    /no account is deployed at the relayer address 0x1234/,
  ],
  [
    'a gas token that is no ERC-20',
    ['--gas-token', '0x5678=2'],
    'relayer',
    1,
    /gas token 0x5678 has no decimals/,
  ],
  [
    'a gas token without a price',
    ['--gas-token', ETH_TOKEN],
    'relayer',
    2,
    /--gas-token takes <address>=<price in STRK>/,
  ],
  [
    'a price that is no number',
    ['--gas-token', `${ETH_TOKEN}=lots`],
    'relayer',
    1,
    /is not a decimal price in STRK/,
  ],
  ['the key as an option', ['--relayer-key', 'KEY'], 'relayer', 2, /unknown option --relayer-key/],
  ['an option without its value', ['--port'], 'relayer', 2, /--port needs a value/],
  [
    'a node that does not answer',
    ['--node-file', 'FILE:http://127.0.0.1:9'],
    'relayer',
    1,
    /the Starknet node does not answer/,
  ],
  ['the node URL as an option', ['--node', 'NODE'], 'relayer', 2, /--node is not an option/],
  ['a sponsor key as an option', ['--api-key', 'k'], 'relayer', 2, /--api-key is not an option/],
  ['no node URL', ['--node-file', 'FILE:'], 'relayer', 2, /the node URL is required/],
  ['the Redis URL as an option', ['--redis', 'x'], 'relayer', 2, /--redis is not an option/],
  [
    // Its password is never shown: the URL shows as its scheme, host and port.
    'a Redis that does not answer',
    ['--redis-url-file', 'FILE:redis://:correct%20horse@127.0.0.1:9/0'],
    'relayer',
    1,
    /cannot reach Redis at redis:\/\/127\.0\.0\.1:9 \(/,
  ],
  ['a node file that is not there', ['--node-file', '/nonexistent'], 'relayer', 2, /ENOENT/],
])('refuses to start with %s', async (_name, extra, keyIn, code, message) => {
  const key =
    keyIn === 'none'
      ? ''
      : keyIn === 'relayer'
        ? relayer.private_key
        : keyIn === 'other'
          ? other.private_key
          : keyIn.text;
  // `--name=value` in `extra` stands for the base's --name.
  const replaced = extra
    .filter((arg) => arg.includes('=') && arg.startsWith('--'))
    .map((arg) => arg.split('=')[0]);
  const kept = base().filter(
    (arg, i, all) => !replaced.includes(arg) && !replaced.includes(all[i - 1]),
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'l2-paymaster-cli-'));
  const args = [...kept, ...extra].map((arg) => {
    if (arg === 'KEY') return relayer.private_key;
    if (arg === 'NODE') return devnet.rpcUrl;
    if (!arg.startsWith('FILE:')) return arg;
    const file = path.join(dir, 'node-url');
    writeFileSync(file, `${arg.slice(5)}\n`);
    return file;
  });
  const result = await run(args, {
    L2_PAYMASTER_RELAYER_KEY: key,
    L2_PAYMASTER_NODE_URL: devnet.rpcUrl,
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  expect(result.code).toBe(code);
  expect(result.output).toMatch(message);
  expect(result.output).not.toContain(relayer.private_key.slice(2));
  expect(result.output).not.toContain(other.private_key.slice(2));
  expect(result.output).not.toContain('correct horse');
  expect(result.output).not.toContain('correct%20horse');
});

it('serves, refuses and stops without ever showing a secret', async () => {
  const lines: string[] = [];
  const nodeUrl = `${devnet.rpcUrl}?apikey=node-secret-91aa`;
  // Nothing secret on its command line (which ps shows to every user of the machine).
  const command = paymasterCommand(cli, {
    nodeUrl,
    relayer: { address: relayer.address, privateKey: relayer.private_key },
    apiKeys: [SPONSOR],
  });
  for (const secret of [relayer.private_key.slice(2), SPONSOR, 'node-secret-91aa']) {
    expect(command.args.join(' ')).not.toContain(secret);
    expect(Object.values(command.env).join(' ')).toContain(secret);
  }
  const paymaster = await startPaymaster({
    nodeUrl,
    relayer: { address: relayer.address, privateKey: relayer.private_key },
    apiKeys: [SPONSOR],
    gasTokens: [{ address: ETH_TOKEN, priceInStrk: '2500.5' }],
    echo: (line) => lines.push(line),
  });
  const answers: string[] = [];
  try {
    expect(paymaster.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const started = lines.find((line) => line.includes('listening'))!;
    expect(started).toContain(`node http://127.0.0.1:${devnet.port}`);
    expect(started).toContain('1 sponsor key(s)');

    const health = await fetch(`${paymaster.url}/health`);
    expect(health.status).toBe(200);
    const report = await health.json();
    expect(report).toMatchObject({ status: 'ok', relayer: { address: expect.any(String) } });
    answers.push(JSON.stringify(report));

    // Refusals of every kind, with and without the sponsor key.
    const bodies = [
      {
        method: 'paymaster_buildTransaction',
        params: { transaction: { type: 'deploy' }, parameters: {} },
      },
      { method: 'paymaster_executeTransaction', params: [{ type: 'invoke', invoke: {} }] },
      { method: 'paymaster_trackingIdToLatestHash', params: { tracking_id: '0x1' } },
      { method: 'starknet_chainId', params: [] },
    ];
    const keys: Record<string, string>[] = [
      {},
      { 'x-paymaster-api-key': SPONSOR },
      { 'x-paymaster-api-key': 'wrong' },
    ];
    for (const headers of keys) {
      for (const body of bodies) {
        const reply = await postJson(paymaster.url, { jsonrpc: '2.0', id: 1, ...body }, headers);
        expect(reply.json.error).toBeDefined();
        answers.push(reply.text);
      }
    }
  } finally {
    await paymaster.stop();
  }
  const { code } = await paymaster.waitForExit();
  expect(code).toBe(0);
  const everything = [paymaster.output(), ...answers].join('\n');
  for (const secret of [relayer.private_key.slice(2), SPONSOR, 'node-secret-91aa', 'apikey']) {
    expect(everything).not.toContain(secret);
  }
  // Each refusal was logged, with its reason.
  expect(paymaster.output()).toMatch(/refused paymaster_trackingIdToLatestHash: 160/);
});

it('takes the node URL and the sponsor keys from files named by --node-file and --api-keys-file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'l2-paymaster-cli-'));
  try {
    writeFileSync(path.join(dir, 'node'), `${devnet.rpcUrl}\n`);
    writeFileSync(path.join(dir, 'keys'), `${SPONSOR}\nsecond-key-55\n`);
    const service = await spawnService({
      name: 'l2-paymaster',
      command: process.execPath,
      args: [
        cli,
        ...base(),
        '--node-file',
        path.join(dir, 'node'),
        '--api-keys-file',
        path.join(dir, 'keys'),
      ],
      env: { L2_PAYMASTER_RELAYER_KEY: relayer.private_key },
      readyLine: /l2-paymaster listening on http/,
    });
    try {
      expect(service.output()).toContain('2 sponsor key(s)');
      const url = /listening on (http:\/\/\S+)/.exec(service.output())![1];
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
    } finally {
      await service.stop();
    }
    expect(service.output()).not.toContain(SPONSOR);
    expect(service.output()).not.toContain('second-key-55');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
