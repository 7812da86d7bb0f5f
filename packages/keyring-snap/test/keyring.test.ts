/**
 * The keyring snap in snaps-jest, no chain needed: accounts and their events, origin rules,
 * export with a dialog, chain config management, and EOA signing (personal_sign, the three
 * transaction shapes, EIP-712) recovered by ethers and viem. Bad input names the field and
 * changes nothing.
 */
import { installSnap, type Snap } from '@metamask/snaps-jest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ethers } from 'ethers';
import type { Hex } from 'viem';

import {
  answerDialog,
  createAccount,
  keyring,
  keyringEvents,
  METAMASK,
  recoverPersonal,
  recoverTransaction,
  recoverTyped,
  resultOf,
  SCOPE,
  signed,
  SITE,
  submit,
  type Account,
  type TypedData,
} from './harness/snap';

const { TEST_SNAP_DIR } = require('./harness/build-test-snap.cjs') as { TEST_SNAP_DIR: string };

const IMPORTED_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const MESSAGE = `0x${Buffer.from('Hello from the keyring test', 'utf8').toString('hex')}` as Hex;

const MAIL: TypedData = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amounts', type: 'uint256[]' },
    ],
  },
  primaryType: 'Mail',
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 31337,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  message: {
    from: { name: 'Cow', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826'] },
    to: [
      {
        name: 'Bob',
        wallets: [
          '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
          '0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57',
        ],
      },
    ],
    contents: 'Hello, Bob!',
    amounts: ['1', '1000000000000000000'],
  },
};

const TRANSACTIONS: Record<string, Record<string, unknown>> = {
  legacy: {
    type: '0x0',
    nonce: '0x0',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: '0xde0b6b3a7640000',
    data: '0x',
    gasLimit: '0x5208',
    gasPrice: '0x3b9aca00',
    chainId: '0x7a69',
  },
  eip2930: {
    type: '0x1',
    nonce: '0x1',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: '0x1',
    data: '0xdeadbeef',
    gasLimit: '0x7530',
    gasPrice: '0x3b9aca00',
    accessList: [
      {
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        storageKeys: [`0x${'00'.repeat(31)}01`],
      },
    ],
    chainId: '0x7a69',
  },
  eip1559: {
    type: '0x2',
    nonce: '0x2',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: '0x2',
    data: '0x',
    gasLimit: '0x5208',
    maxFeePerGas: '0x77359400',
    maxPriorityFeePerGas: '0x3b9aca00',
    accessList: [],
    chainId: '31337',
  },
};

let snap: Snap;
let derived: Account;
let second: Account;
let imported: Account;

async function accountCount(): Promise<number> {
  return resultOf<Account[]>(await keyring(snap, 'keyring_listAccounts')).length;
}

async function expectInvalid(answer: Promise<unknown> | unknown, field: string) {
  const { error } = (await answer) as { error?: { code: number; message: string } };
  expect(error).toBeDefined();
  expect(error?.code).toBe(-32602);
  expect(error?.message).toContain(`"${field}"`);
}

beforeAll(async () => {
  snap = await installSnap();
  derived = await createAccount(snap, { type: 'eip155:eoa' });
  second = await createAccount(snap, {});
  imported = await createAccount(snap, { type: 'eip155:eoa', privateKey: IMPORTED_KEY });
});

describe('accounts', () => {
  it('creates derived and imported EOAs in the Keyring API shape and announces each', async () => {
    expect(derived).toMatchObject({
      type: 'eip155:eoa',
      scopes: ['eip155:0'],
      methods: ['personal_sign', 'eth_signTransaction', 'eth_signTypedData_v4'],
    });
    expect(derived.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u,
    );
    expect(second.address).not.toBe(derived.address);
    expect(imported.address).toBe(ethers.computeAddress(IMPORTED_KEY));
    const created = keyringEvents().filter((event) => event.method === 'notify:accountCreated');
    expect(created.map((event) => (event.params.account as Account).id)).toEqual([
      derived.id,
      second.id,
      imported.id,
    ]);
    expect(JSON.stringify(keyringEvents())).not.toContain(IMPORTED_KEY.slice(2));
  });

  it('lists, gets and filters chains', async () => {
    const list = resultOf<Account[]>(await keyring(snap, 'keyring_listAccounts'));
    expect(list.map((account) => account.id)).toEqual([derived.id, second.id, imported.id]);
    expect(resultOf(await keyring(snap, 'keyring_getAccount', { id: second.id }))).toEqual(second);
    expect(
      resultOf(
        await keyring(snap, 'keyring_filterAccountChains', {
          id: derived.id,
          chains: ['eip155:1', 'eip155:31337', 'bip122:000000000019d6689c085ae165831e93'],
        }),
      ),
    ).toEqual(['eip155:1', 'eip155:31337']);
  });

  it('never puts a key in state in clear when it is derivable, and never echoes one', async () => {
    const answer = await keyring(snap, 'keyring_createAccount', {
      options: { type: 'eip155:eoa', privateKey: IMPORTED_KEY },
    });
    await expectInvalid(answer, 'options.privateKey');
    expect(JSON.stringify(answer)).not.toContain(IMPORTED_KEY.slice(2));
    const bad = await keyring(snap, 'keyring_createAccount', {
      options: { type: 'eip155:eoa', privateKey: `0x${'ff'.repeat(32)}` },
    });
    await expectInvalid(bad, 'options.privateKey');
    expect(JSON.stringify(bad)).not.toContain('ff'.repeat(32));
    await expectInvalid(
      keyring(snap, 'keyring_createAccount', { options: { type: 'eip155:bip122' } }),
      'options.type',
    );
    expect(await accountCount()).toBe(3);
  });

  it('updates options with an event; address, type, methods and scopes cannot change', async () => {
    const updated = { ...second, options: { ...second.options, label: 'savings' } };
    expect(resultOf(await keyring(snap, 'keyring_updateAccount', { account: updated }, SITE))).toBe(
      null,
    );
    expect(resultOf(await keyring(snap, 'keyring_getAccount', { id: second.id }))).toEqual(updated);
    expect(keyringEvents().at(-1)).toMatchObject({
      method: 'notify:accountUpdated',
      params: { account: updated },
    });
    await expectInvalid(
      keyring(
        snap,
        'keyring_updateAccount',
        { account: { ...updated, address: imported.address } },
        SITE,
      ),
      'account.address',
    );
    const unknown = await keyring(
      snap,
      'keyring_updateAccount',
      { account: { ...updated, id: '11111111-1111-4111-8111-111111111111' } },
      SITE,
    );
    expect(unknown.error?.message).toContain('not found');
  });

  it('exports a key only after a dialog that names the requesting origin', async () => {
    const pending = snap.onKeyringRequest({
      origin: SITE,
      method: 'keyring_exportAccount',
      params: { id: imported.id },
    });
    const shown = await answerDialog(pending, true);
    expect(shown).toContain(SITE);
    expect(shown).toContain(imported.address);
    expect(shown).not.toContain(IMPORTED_KEY.slice(2));
    const exported = resultOf<{ privateKey: string }>(
      ((await pending) as unknown as { response: never }).response,
    );
    expect(exported.privateKey).toBe(IMPORTED_KEY);

    const derivedExport = snap.onKeyringRequest({
      origin: SITE,
      method: 'keyring_exportAccount',
      params: { id: derived.id },
    });
    await answerDialog(derivedExport, true);
    const key = resultOf<{ privateKey: string }>(
      ((await derivedExport) as unknown as { response: never }).response,
    ).privateKey;
    expect(ethers.computeAddress(key)).toBe(derived.address);

    const rejected = snap.onKeyringRequest({
      origin: SITE,
      method: 'keyring_exportAccount',
      params: { id: derived.id },
    });
    await answerDialog(rejected, false);
    const { response } = (await rejected) as unknown as { response: { error?: { code: number } } };
    expect(response.error?.code).toBe(4001);
    expect(JSON.stringify(response)).not.toContain(key.slice(2));
  });
});

describe('origin rules', () => {
  it('the site manages accounts but can never submit a request', async () => {
    const answer = await submit(snap, derived, 'personal_sign', [MESSAGE, derived.address], {
      origin: SITE,
    });
    expect(answer.error?.code).toBe(4100);
    expect(answer.error?.message).toContain(SITE);
    const created = await createAccount(snap, {}, SITE);
    expect(created.type).toBe('eip155:eoa');
    expect(resultOf(await keyring(snap, 'keyring_deleteAccount', { id: created.id }, SITE))).toBe(
      null,
    );
    expect(keyringEvents().at(-1)).toMatchObject({
      method: 'notify:accountDeleted',
      params: { id: created.id },
    });
    expect(resultOf(await keyring(snap, 'keyring_getAccount', { id: created.id }))).toBeNull();
    const again = await keyring(snap, 'keyring_deleteAccount', { id: created.id }, SITE);
    expect(again.error?.code).toBe(-32001);
  });

  it('MetaMask may not export or update; other origins may call nothing', async () => {
    for (const method of ['keyring_exportAccount', 'keyring_updateAccount']) {
      const answer = await keyring(snap, method, { id: derived.id, account: derived });
      expect(answer.error?.code).toBe(4100);
    }
    for (const method of ['keyring_listAccounts', 'keyring_createAccount']) {
      const answer = await keyring(snap, method, { options: {} }, 'https://evil.example');
      expect(answer.error?.code).toBe(4100);
    }
    expect(await accountCount()).toBe(3);
  });

  it('MetaMask resolves the account a dapp request names', async () => {
    const resolved = resultOf(
      await keyring(snap, 'keyring_resolveAccountAddress', {
        scope: SCOPE,
        request: {
          jsonrpc: '2.0',
          id: 1,
          method: 'personal_sign',
          params: [MESSAGE, second.address.toLowerCase()],
        },
      }),
    );
    expect(resolved).toEqual({ address: `${SCOPE}:${second.address}` });
    expect(
      resultOf(await keyring(snap, 'keyring_setSelectedAccounts', { accounts: [derived.id] })),
    ).toBe(null);
  });
});

describe('personal_sign', () => {
  it('signs EIP-191 over the hex message, recovered by ethers and viem', async () => {
    for (const account of [derived, imported]) {
      const signature = await signed<Hex>(snap, account, 'personal_sign', [
        MESSAGE,
        account.address,
      ]);
      expect(await recoverPersonal(MESSAGE, signature)).toBe(account.address);
    }
  });

  it('signs a 32-byte message on an EOA: only an ERC-4337 account refuses one (methods/signUserOperation.e2e.test.ts)', async () => {
    const hash = `0x${'5a'.repeat(32)}` as Hex;
    for (const account of [derived, imported]) {
      const signature = await signed<Hex>(snap, account, 'personal_sign', [hash, account.address]);
      expect(await recoverPersonal(hash, signature)).toBe(account.address);
    }
  });

  it('refuses another address, a non-hex message, a wrong scope, an unknown account', async () => {
    await expectInvalid(
      submit(snap, derived, 'personal_sign', [MESSAGE, second.address]),
      'request.params[1]',
    );
    await expectInvalid(
      submit(snap, derived, 'personal_sign', ['hello', derived.address]),
      'request.params[0]',
    );
    await expectInvalid(
      submit(snap, derived, 'personal_sign', [MESSAGE, derived.address], {
        scope: 'bip122:000000000019d6689c085ae165831e93',
      }),
      'scope',
    );
    const unknown = await submit(
      snap,
      { ...derived, id: '22222222-2222-4222-8222-222222222222' },
      'personal_sign',
      [MESSAGE, derived.address],
    );
    expect(unknown.error?.code).toBe(-32001);
    expect(unknown.error?.message).toContain('22222222-2222-4222-8222-222222222222');
  });

  it('refuses methods the account type does not support', async () => {
    const answer = await submit(snap, derived, 'eth_prepareUserOperation', [
      { to: derived.address },
    ]);
    expect(answer.error?.code).toBe(-32004);
    expect(answer.error?.message).toContain('eip155:eoa');
    const unknown = await submit(snap, derived, 'eth_sign', [derived.address, MESSAGE]);
    expect(unknown.error?.code).toBe(-32601);
  });
});

describe('eth_signTransaction', () => {
  it.each(Object.keys(TRANSACTIONS))(
    'signs a %s transaction recoverable to the account',
    async (kind) => {
      const tx = { ...TRANSACTIONS[kind], from: derived.address };
      const signature = await signed<{ v: Hex; r: Hex; s: Hex }>(
        snap,
        derived,
        'eth_signTransaction',
        [tx],
      );
      expect(signature.r).toMatch(/^0x[0-9a-f]{64}$/u);
      expect(signature.s).toMatch(/^0x[0-9a-f]{64}$/u);
      if (kind === 'legacy') {
        expect([31337n * 2n + 35n, 31337n * 2n + 36n]).toContain(BigInt(signature.v));
      } else {
        expect(['0x0', '0x1']).toContain(signature.v);
      }
      const { from } = await recoverTransaction(tx, signature);
      expect(from).toBe(derived.address);
    },
  );

  it('accepts the `gas` and `input` spellings of gasLimit and data', async () => {
    const { gasLimit, data, ...rest } = TRANSACTIONS.eip1559;
    const tx = { ...rest, gas: gasLimit, input: data };
    const signature = await signed<{ v: Hex; r: Hex; s: Hex }>(
      snap,
      derived,
      'eth_signTransaction',
      [tx],
    );
    const { from } = await recoverTransaction({ ...rest, gasLimit, data }, signature);
    expect(from).toBe(derived.address);
  });

  it.each([
    [{ ...TRANSACTIONS.eip1559, chainId: undefined }, 'request.params[0].chainId'],
    [{ ...TRANSACTIONS.eip1559, chainId: '0x1' }, 'request.params[0].chainId'],
    [{ ...TRANSACTIONS.eip1559, type: undefined }, 'request.params[0].type'],
    [{ ...TRANSACTIONS.eip1559, type: '0x4' }, 'request.params[0].type'],
    [{ ...TRANSACTIONS.eip1559, maxFeePerGas: undefined }, 'request.params[0].maxFeePerGas'],
    [{ ...TRANSACTIONS.eip1559, gasPrice: '0x1' }, 'request.params[0].gasPrice'],
    [{ ...TRANSACTIONS.legacy, gasPrice: undefined }, 'request.params[0].gasPrice'],
    [{ ...TRANSACTIONS.legacy, to: '0x1234' }, 'request.params[0].to'],
    [{ ...TRANSACTIONS.legacy, nonce: '-1' }, 'request.params[0].nonce'],
    [{ ...TRANSACTIONS.legacy, data: '0xabc' }, 'request.params[0].data'],
    [
      { ...TRANSACTIONS.legacy, from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
      'request.params[0].from',
    ],
    [{ ...TRANSACTIONS.legacy, gasLimit: undefined }, 'request.params[0].gasLimit'],
    [
      { ...TRANSACTIONS.eip2930, accessList: [{ address: '0x1' }] },
      'request.params[0].accessList[0].address',
    ],
    [{ ...TRANSACTIONS.legacy, colour: 'blue' }, 'request.params[0].colour'],
  ])('refuses a malformed transaction, naming the field (%#)', async (tx, field) => {
    const clean = Object.fromEntries(Object.entries(tx).filter(([, value]) => value !== undefined));
    await expectInvalid(submit(snap, derived, 'eth_signTransaction', [clean]), field);
  });

  it('reads a hex scope reference (as the bridge builds one) and refuses another chain', async () => {
    const answer = await submit(snap, imported, 'eth_signTransaction', [TRANSACTIONS.legacy], {
      scope: 'eip155:0x7a69',
    });
    expect(answer.error).toBeUndefined();
    await expectInvalid(
      submit(snap, imported, 'eth_signTransaction', [TRANSACTIONS.legacy], { scope: 'eip155:0x1' }),
      'request.params[0].chainId',
    );
    await expectInvalid(
      submit(snap, imported, 'eth_signTransaction', [TRANSACTIONS.legacy], { scope: 'eip155:0x' }),
      'scope',
    );
  });

  it('refuses a nonce above 2^53 - 1, which the signed encoding would change', async () => {
    await expectInvalid(
      submit(snap, derived, 'eth_signTransaction', [
        { ...TRANSACTIONS.eip1559, nonce: '0x20000000000000' },
      ]),
      'request.params[0].nonce',
    );
    const answer = await submit(snap, derived, 'eth_signTransaction', [
      { ...TRANSACTIONS.eip1559, nonce: '0x1fffffffffffff' },
    ]);
    expect(answer.error).toBeUndefined();
  });
});

describe('eth_signTypedData_v4', () => {
  it('signs EIP-712 with nested structs and arrays (object or JSON string)', async () => {
    const signature = await signed<Hex>(snap, derived, 'eth_signTypedData_v4', [
      derived.address,
      MAIL,
    ]);
    expect(await recoverTyped(MAIL, signature)).toBe(derived.address);
    const fromString = await signed<Hex>(snap, derived, 'eth_signTypedData_v4', [
      derived.address,
      JSON.stringify(MAIL),
    ]);
    expect(fromString).toBe(signature);
  });

  it('infers the domain types from the domain when types.EIP712Domain is left out', async () => {
    const { EIP712Domain: _domain, ...types } = MAIL.types;
    const signature = await signed<Hex>(snap, derived, 'eth_signTypedData_v4', [
      derived.address,
      { ...MAIL, types },
    ]);
    expect(await recoverTyped(MAIL, signature)).toBe(derived.address);
    const withDomainType = await signed<Hex>(snap, derived, 'eth_signTypedData_v4', [
      derived.address,
      MAIL,
    ]);
    expect(signature).toBe(withDomainType);
  });

  it.each([
    [{ ...MAIL, domain: { ...MAIL.domain, chainId: 1 } }, 'request.params[1].domain.chainId'],
    [{ ...MAIL, primaryType: 'Letter' }, 'request.params[1].primaryType'],
    [{ ...MAIL, message: 'text' }, 'request.params[1].message'],
    [
      { ...MAIL, message: { ...MAIL.message, from: { name: 'Cow', wallets: ['0x12'] } } },
      'request.params[1]',
    ],
  ])('refuses malformed typed data, naming the field (%#)', async (data, field) => {
    await expectInvalid(
      submit(snap, derived, 'eth_signTypedData_v4', [
        derived.address,
        JSON.parse(JSON.stringify(data)),
      ]),
      field,
    );
  });
});

describe('chain config', () => {
  const config = {
    chainId: '11155111',
    rpcUrl: 'http://127.0.0.1:9/sepolia',
    bundlerUrl: 'http://127.0.0.1:9/bundler',
    entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    factory: '0x9406Cc6185a346906296840746125a0E44976454',
  };

  it('changes a chain only after a dialog showing the origin and old -> new', async () => {
    const rejected = snap.request({
      origin: SITE,
      method: 'keyring_setChainConfig',
      params: config,
    });
    const shown = await answerDialog(rejected, false);
    expect(shown).toContain(SITE);
    expect(shown).toContain('http://127.0.0.1:9/sepolia');
    expect(
      ((await rejected) as unknown as { response: { error: { code: number } } }).response.error
        .code,
    ).toBe(4001);
    const before = await snap.request({ origin: SITE, method: 'keyring_getChainConfigs' });
    expect(before).toRespondWith([
      expect.objectContaining({
        chainId: 31337,
        entryPoint: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
      }),
    ]);

    const approved = snap.request({
      origin: SITE,
      method: 'keyring_setChainConfig',
      params: config,
    });
    await answerDialog(approved, true);
    expect(await approved).toRespondWith(
      expect.objectContaining({ chainId: 11155111, paymasterUrl: null }),
    );
    const after = await snap.request({ origin: SITE, method: 'keyring_getChainConfigs' });
    expect(after).toRespondWith([
      expect.objectContaining({ chainId: 31337 }),
      expect.objectContaining({ chainId: 11155111, bundlerUrl: 'http://127.0.0.1:9/bundler' }),
    ]);
  });

  it('refuses other origins and malformed fields, naming them', async () => {
    const fromMetaMask = await snap.request({
      origin: METAMASK,
      method: 'keyring_getChainConfigs',
    });
    expect(fromMetaMask).toRespondWithError(expect.objectContaining({ code: 4100 }));
    for (const [params, field] of [
      [{ ...config, rpcUrl: 'ftp://x' }, 'params.rpcUrl'],
      [{ ...config, entryPoint: '0x12' }, 'params.entryPoint'],
      [{ ...config, chainId: 'one' }, 'params.chainId'],
      [{ ...config, bundler: 'http://x' }, 'params.bundler'],
    ] as const) {
      const answer = await snap.request({ origin: SITE, method: 'keyring_setChainConfig', params });
      expect(answer).toRespondWithError(
        expect.objectContaining({ code: -32602, message: expect.stringContaining(`"${field}"`) }),
      );
    }
  });

  it('never echoes a refused URL, which may carry an API key', async () => {
    for (const rpcUrl of ['wss://node.example/v3/s3cr3t-key', 'node.example/v3/s3cr3t-key']) {
      const answer = await snap.request({
        origin: SITE,
        method: 'keyring_setChainConfig',
        params: { ...config, rpcUrl },
      });
      expect(answer).toRespondWithError(
        expect.objectContaining({
          code: -32602,
          message: expect.stringContaining('"params.rpcUrl"'),
        }),
      );
      expect(JSON.stringify(answer)).not.toContain('s3cr3t-key');
    }
  });
});

describe('security model: manifest and origin table', () => {
  const SNAP_ROOT = path.resolve(__dirname, '..');

  it('the manifest opens endowment:rpc and endowment:keyring to the allowed origins only', () => {
    for (const dir of [SNAP_ROOT, TEST_SNAP_DIR]) {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'snap.manifest.json'), 'utf8'));
      const permissions = manifest.initialPermissions;
      expect(permissions['endowment:rpc']).toEqual({ snaps: false, allowedOrigins: [SITE] });
      expect(permissions['endowment:keyring']).toEqual({ allowedOrigins: [SITE] });
    }
  });

  it('the allowed origins are a build variable: snap.config.ts writes them into the manifest and the bundle environment', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keyring-manifest-'));
    const cwd = process.cwd();
    const before = process.env.KEYRING_ALLOWED_ORIGINS;
    try {
      copyFileSync(
        path.join(SNAP_ROOT, 'snap.manifest.json'),
        path.join(dir, 'snap.manifest.json'),
      );
      process.chdir(dir);
      process.env.KEYRING_ALLOWED_ORIGINS = 'https://wallet.example, https://beta.wallet.example';
      let config: { environment: Record<string, string> } | undefined;
      jest.isolateModules(() => {
        config = require('../snap.config.ts').default;
      });
      const manifest = JSON.parse(readFileSync(path.join(dir, 'snap.manifest.json'), 'utf8'));
      const origins = ['https://wallet.example', 'https://beta.wallet.example'];
      expect(manifest.initialPermissions['endowment:rpc']).toEqual({
        snaps: false,
        allowedOrigins: origins,
      });
      expect(manifest.initialPermissions['endowment:keyring']).toEqual({ allowedOrigins: origins });
      expect(config?.environment.KEYRING_ALLOWED_ORIGINS).toBe(origins.join(','));
    } finally {
      process.chdir(cwd);
      if (before === undefined) {
        delete process.env.KEYRING_ALLOWED_ORIGINS;
      } else {
        process.env.KEYRING_ALLOWED_ORIGINS = before;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // keyring-api docs/security.md, with the three methods MetaMask's bridge adds (README).
  const TABLE: [string, boolean, boolean][] = [
    // method, MetaMask, the site
    ['keyring_listAccounts', true, true],
    ['keyring_getAccount', true, true],
    ['keyring_createAccount', true, true],
    ['keyring_filterAccountChains', true, true],
    ['keyring_updateAccount', false, true],
    ['keyring_deleteAccount', true, true],
    ['keyring_exportAccount', false, true],
    ['keyring_listRequests', true, true],
    ['keyring_getRequest', true, true],
    ['keyring_submitRequest', true, false],
    ['keyring_approveRequest', false, true],
    ['keyring_rejectRequest', true, true],
    ['keyring_setSelectedAccounts', true, false],
    ['keyring_resolveAccountAddress', true, false],
  ];

  it.each(TABLE)(
    '%s: MetaMask %p, the site %p, any other origin never',
    async (method, mm, site) => {
      // Harmless params: an unknown id, so an allowed call fails for its own reasons (or lists).
      const params = { id: '44444444-4444-4444-8444-444444444444', accounts: [], options: {} };
      const answers = await Promise.all(
        // exportAccount from the site is allowed, then refused for the unknown id before a dialog.
        [METAMASK, SITE, 'https://evil.example', 'http://localhost:8001'].map((origin) =>
          keyring(snap, method, params, origin),
        ),
      );
      const refused = answers.map((answer) => answer.error?.code === 4100);
      expect(refused).toEqual([!mm, !site, true, true]);
    },
  );
});
