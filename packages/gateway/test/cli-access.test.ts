/**
 * A key's access controls as an operator sets them with the built CLI: `keys create
 * --require-secret` (labelled lines), `keys allow`, `keys jwt`, `keys show` (never the secret),
 * refusals by cause in `keys usage`, and keys defined in the config by hashes; each applied by
 * a running `serve`.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AnvilService,
  ensureGatewayBuilt,
  gatewayCli as cli,
  serveGateway as serve,
  startAnvil,
  writeGatewayConfig as writeConfig,
} from '@l2wallet/testkit';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { sha256 } from '../src/auth/keys';
import { call, post, tempDir } from './helpers';

const NONE_REFUSED = { secret: 0, jwt: 0, allowlist: 0, credit: 0, rate: 0 };

let anvil: AnvilService;
let dir: string;
let configFile: string;

beforeAll(async () => {
  ensureGatewayBuilt();
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

describe('access controls from the CLI', () => {
  it('create --require-secret, allow, jwt and show, applied by a running gateway; usage counts refusals', async () => {
    const created = await cli([
      'keys',
      'create',
      '--config',
      configFile,
      '--plan',
      'developer',
      '--require-secret',
    ]);
    const [secretLine, keyLine] = created.stdout.trim().split('\n');
    expect(secretLine).toMatch(/^secret: [0-9a-f]{32}$/);
    const secret = secretLine.slice('secret: '.length);
    const key = keyLine.slice('key: '.length);
    // What create printed goes to the next commands on stdin: its key line is read.
    const input = created.stdout;
    const allowed = await cli(
      [
        'keys',
        'allow',
        '-',
        '--config',
        configFile,
        '--origin',
        '*.example.com',
        '--user-agent',
        'MyDapp/',
        '--contract',
        '0x' + 'AB'.repeat(20),
        '--method',
        'eth_chainId',
        '--method',
        'eth_call',
      ],
      { input },
    );
    expect(JSON.parse(allowed.stdout).allow).toEqual({
      origins: ['*.example.com'],
      methods: ['eth_chainId', 'eth_call'],
      contracts: ['0x' + 'ab'.repeat(20)],
      userAgents: ['MyDapp/'],
    });
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pemFile = path.join(dir, 'jwt.pem');
    writeFileSync(pemFile, await exportSPKI(publicKey));
    await cli(['keys', 'jwt', '-', '--config', configFile, '--add-public-key', 'ec-1', pemFile], {
      input,
    });
    const shown = JSON.parse(
      (await cli(['keys', 'show', '-', '--config', configFile], { input })).stdout,
    );
    expect(shown).toMatchObject({
      secret: { set: true, required: true },
      jwt: { required: false, publicKeys: [{ name: 'ec-1', alg: 'ES256' }] },
    });
    expect(JSON.stringify(shown)).not.toContain(secret);
    // A bad change is refused with its reason, and changes nothing.
    await expect(
      cli(['keys', 'allow', '-', '--config', configFile, '--contract', 'not-an-address'], {
        input,
      }),
    ).rejects.toThrow(/not a contract address/);

    const gateway = await serve(configFile);
    try {
      const url = `${gateway.url}/v3/${key}`;
      expect((await post(url, call('eth_chainId'))).status).toBe(401);
      const withSecret = { authorization: `Basic ${Buffer.from(`:${secret}`).toString('base64')}` };
      expect((await post(url, call('eth_blockNumber'), withSecret)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 400)); // refusals written
    } finally {
      await gateway.stop();
    }
    expect(gateway.output()).not.toContain(secret);
    const usage = JSON.parse(
      (await cli(['keys', 'usage', '-', '--config', configFile], { input })).stdout,
    );
    expect(usage).toMatchObject({ total: 80, refused: { ...NONE_REFUSED, secret: 1 } });
  });
});

it('keys defined in the config (by hashes) get its plan and controls when serve starts', async () => {
  const keyDir = tempDir();
  const key = randomBytes(16).toString('hex');
  const secret = randomBytes(16).toString('hex');
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  writeFileSync(path.join(keyDir, 'signer.pem'), await exportSPKI(publicKey));
  const file = writeConfig(keyDir, {
    listen: { host: '127.0.0.1', port: 1 },
    ledger: { sqlite: 'ledger.db' },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
    keys: [
      {
        sha256: sha256(key),
        plan: 'free',
        secretSha256: sha256(secret),
        requireSecret: false,
        allow: { methods: ['eth_chainId'] },
        jwt: { require: true, publicKeys: [{ name: 'rsa-1', file: 'signer.pem' }] },
      },
    ],
  });
  const gateway = await serve(file);
  try {
    const url = `${gateway.url}/v3/${key}`;
    expect((await post(url, call('eth_chainId'))).status).toBe(401); // no JWT
    const token = await new SignJWT({ aud: key })
      .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
      .setExpirationTime('1m')
      .sign(privateKey);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await post(url, call('eth_chainId'), bearer)).status).toBe(200);
    expect((await post(url, call('eth_blockNumber'), bearer)).status).toBe(403);
    const basic = { authorization: `Basic ${Buffer.from(`:${secret}`).toString('base64')}` };
    expect((await post(url, call('eth_blockNumber'), basic)).status).toBe(200);
  } finally {
    await gateway.stop();
  }
  const listed = JSON.parse((await cli(['keys', 'list', '--config', file])).stdout);
  expect(listed).toEqual([
    expect.objectContaining({ plan: 'free', secret: { set: true, required: false } }),
  ]);
  // A malformed key is refused at start, naming it.
  const bad = writeConfig(tempDir(), {
    ledger: { sqlite: 'ledger.db' },
    chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
    keys: [{ sha256: 'abc' }],
  });
  await expect(cli(['keys', 'list', '--config', bad])).rejects.toThrow(/keys\[0\]\.sha256/);
});
