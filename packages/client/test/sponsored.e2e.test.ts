/**
 * A dapp that sponsors its users through starknet.js 10.8, unchanged: `WalletAccount` (and
 * `WalletAccountV5`) with a `PaymasterRpc` carrying the dapp's sponsor key, and
 * `executePaymasterTransaction(calls, { feeMode: { mode: 'sponsored' }, deploymentData })` with
 * the wallet's own `wallet_deploymentData`. The wallet is the real snap bundle in
 * @metamask/snaps-simulation (the testkit's SimulatedFlask answers its dialogs), the chain a real
 * packages/devnet, the paymaster the real l2-paymaster CLI, all on 127.0.0.1. A brand-new
 * account with 0 STRK and 0 ETH is deployed and its calls run, as its dialog showed them. The
 * outside-execution dialog previews what its calls do to the account (simulated as an invoke of
 * the account's own): the signed balance change per token, approvals, a revert's reason. Then the
 * hostile side (docs/security.md#nothing-signed-that-was-not-shown): an outside execution for
 * another chain, or over calls the user was not shown, gets nothing signed.
 */
import type { Wallet } from '@wallet-standard/base';
import {
  CallData,
  PaymasterRpc,
  RpcProvider,
  WalletAccount,
  WalletAccountV5,
  hash,
  shortString,
  typedData as starknetTypedData,
  wallet as walletApi,
  walletV5,
  type Call,
  type PaymasterDetails,
  type TypedData,
} from 'starknet';

import {
  ARGENT_ACCOUNT_CLASS_HASH,
  ETH_TOKEN,
  STRK_TOKEN,
  SimulatedFlask,
  erc20Allowance,
  erc20Balance,
  isDeployed,
  mintStrk,
  postJson,
  serveHttp,
  serveSnap,
  snapVariant,
  startDevnet,
  startDevnetPaymaster,
  starknetSnapBuild,
  type DevnetPaymaster,
  type ServedSnap,
  type StubServer,
} from '@l2wallet/testkit';
import {
  InvalidParamsError,
  createStarknetWindowObject,
  registerStarknetWallet,
  type SnapStarknetWindowObject,
} from '../src';
import { expectWalletError, snapClientOn } from './helpers';

// A window for the Wallet Standard's events, before @wallet-standard/app is loaded.
(globalThis as { window?: unknown }).window = new EventTarget();
const { getWallets } = require('@wallet-standard/app') as typeof import('@wallet-standard/app');

jest.setTimeout(180_000);

/** The snap's Testnet node is fixed at build time: one port, so the cached build is reused. */
const DEVNET_PORT = 5091;
const ORIGIN = 'https://sponsoring-dapp.example';
const SPONSOR_KEY = 'dapp-sponsor-key-for-the-client-test';
const SPONSORED = { feeMode: { mode: 'sponsored' as const } };
const SPENDER = '0x5ea1ed';
const OTHER_SPENDER = '0x5ea1ed2';
const ATTACKER = '0x0000bad0bad0bad0bad0bad0bad0bad0bad0bad0bad0bad0bad0bad0bad0bad0';
/** Sepolia's and Mainnet's chain ids as felts (the snap's Testnet is the devnet, SN_SEPOLIA). */
const SN_MAIN_HEX = '0x534e5f4d41494e';

type Devnet = Awaited<ReturnType<typeof startDevnet>>;
/** A SNIP-9 version 1 message (Argent 0.3.1, the snap's accounts), as the paymaster builds it. */
interface OutsideExecutionV1 {
  caller: string;
  nonce: string;
  execute_after: string;
  execute_before: string;
  calls_len: string;
  calls: { to: string; selector: string; calldata_len: string; calldata: string[] }[];
  [member: string]: unknown;
}

/** `approve(spender, amount)` on a token: a call that changes state and moves no token. */
const approve = (token: string, spender: string, amount: bigint): Call => ({
  contractAddress: token,
  entrypoint: 'approve',
  calldata: CallData.compile({ spender, amount: { low: amount, high: 0n } }),
});

type SponsoredDeployment = NonNullable<PaymasterDetails['deploymentData']>;

/**
 * The wallet's `wallet_deploymentData` as starknet.js' paymaster takes it. starknet.js types the
 * wallet's answer (types-js) with `version: 0 | 1` and SNIP-29's with `version: 1` (Cairo 1): a
 * TypeScript dapp narrows it so; at run time it is the same object.
 */
function sponsoredDeployment(data: { version: 0 | 1 }): SponsoredDeployment {
  expect(data.version).toBe(1);
  return data as SponsoredDeployment;
}

/** An address as the snap's dialogs show it: 0x and 64 hex digits. */
const padded = (address: string) => `0x${BigInt(address).toString(16).padStart(64, '0')}`;

let devnet: Devnet;
let paymaster: DevnetPaymaster;
let served: ServedSnap;
let flask: SimulatedFlask;
let provider: RpcProvider;
let relayer: { address: string };

/** What `owner` lets `spender` take of `token`, read from the node. */
const allowance = (token: string, owner: string, spender: string) =>
  erc20Allowance(devnet.rpcUrl, owner, spender, { token, block: 'pre_confirmed' });

/** STRK and ETH of an address, read from the node (pre-confirmed block). */
async function balances(address: string): Promise<{ strk: bigint; eth: bigint }> {
  const block = 'pre_confirmed';
  return {
    strk: await erc20Balance(devnet.rpcUrl, address, { block }),
    eth: await erc20Balance(devnet.rpcUrl, address, { token: ETH_TOKEN, block }),
  };
}

/** A wallet object for the dapp acting for the account at `accountIndex`. */
const walletFor = (name: string, accountIndex: number): SnapStarknetWindowObject =>
  createStarknetWindowObject(snapClientOn(flask, ORIGIN), { name, accountIndex });

/** The dapp's paymaster client: starknet.js' own, with its sponsor key. */
const sponsoringPaymaster = (url = paymaster.url) =>
  new PaymasterRpc({ nodeUrl: url, headers: { 'x-paymaster-api-key': SPONSOR_KEY } });

/**
 * What the first sponsored transaction of a new account must show: deployed, its calls run, 0
 * STRK/ETH.
 */
async function expectDeployedAndRun(address: string, spender: string, amount: bigint) {
  expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(ARGENT_ACCOUNT_CLASS_HASH));
  expect(await allowance(STRK_TOKEN, address, spender)).toBe(amount);
  expect(await balances(address)).toEqual({ strk: 0n, eth: 0n });
}

/**
 * The wallet's deployment data, its address recomputed with starknet.js: the counterfactual one.
 */
function expectCounterfactual(
  deployment: { address: string; salt: string; class_hash: string; calldata: string[] },
  address: string,
) {
  expect(BigInt(deployment.address)).toBe(BigInt(address));
  expect(BigInt(deployment.class_hash)).toBe(BigInt(ARGENT_ACCOUNT_CLASS_HASH));
  const recomputed = hash.calculateContractAddressFromHash(
    deployment.salt,
    deployment.class_hash,
    deployment.calldata,
    0,
  );
  expect(BigInt(recomputed)).toBe(BigInt(address));
}

beforeAll(async () => {
  devnet = await startDevnet({ port: DEVNET_PORT, seed: 0, accounts: 2 });
  // The relayer is the devnet's last predeployed account.
  paymaster = await startDevnetPaymaster(devnet.rpcUrl, { apiKeys: [SPONSOR_KEY] });
  relayer = paymaster.relayer;
  const folder = await snapVariant(
    starknetSnapBuild({ rpcUrl: devnet.rpcUrl, explorerUrl: devnet.url }),
  );
  served = await serveSnap(folder);
  flask = new SimulatedFlask(served.url, folder);
  provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
}, 600_000);

afterAll(async () => {
  await flask?.close();
  await served?.close();
  await paymaster?.stop();
  await devnet?.close();
});

describe('sponsored through WalletAccount (get-starknet v4 wallet object)', () => {
  let wallet: SnapStarknetWindowObject;
  let account: WalletAccount;

  it('deploys a brand-new account with 0 STRK and 0 ETH and runs its calls, shown in the dialog', async () => {
    wallet = walletFor('Sponsored test wallet', 0);
    account = await WalletAccount.connect(provider, wallet, undefined, sponsoringPaymaster());
    const { address } = account;
    const deploymentData = sponsoredDeployment(await walletApi.deploymentData(wallet));
    expectCounterfactual(deploymentData, address);
    expect(await isDeployed(devnet.rpcUrl, address)).toBe(false);
    expect(await balances(address)).toEqual({ strk: 0n, eth: 0n });

    const relayerBefore = await balances(relayer.address);
    const from = flask.dialogs.length;
    const calls = [approve(STRK_TOKEN, SPENDER, 77n), approve(ETH_TOKEN, OTHER_SPENDER, 5n)];
    const { transaction_hash } = await account.executePaymasterTransaction(calls, {
      ...SPONSORED,
      deploymentData,
    });
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 100 });
    expect(receipt.isSuccess()).toBe(true);
    await expectDeployedAndRun(address, SPENDER, 77n);
    expect(await allowance(ETH_TOKEN, address, OTHER_SPENDER)).toBe(5n);
    // The relayer paid the fee, in STRK.
    expect((await balances(relayer.address)).strk).toBeLessThan(relayerBefore.strk);

    // One dialog, approved: the outside execution, naming the site, the account, the relayer
    // allowed to submit it and each call it allows, decoded (and nothing more: "of 2").
    const shown = flask.dialogs.slice(from);
    expect(shown.map((dialog) => [dialog.method, dialog.action])).toEqual([
      ['l2_signMessage', 'approve'],
    ]);
    const { text } = shown[0];
    expect(text).toContain('Requested by\nsponsoring-dapp.example');
    expect(text).toMatch(/outside execution \(SNIP-9, version 1\)/);
    expect(text).toContain(`Account\n${padded(address)}`);
    expect(text).toContain(`Allowed caller\n${padded(relayer.address)}`);
    expect(text).toContain(`Call 1 of 2: approve\nContract\n${padded(STRK_TOKEN)} (STRK`);
    expect(text).toContain(`spender\n${padded(SPENDER)}\namount\n0.000000000000000077 STRK (77)`);
    expect(text).toContain(`Call 2 of 2: approve\nContract\n${padded(ETH_TOKEN)} (ETH`);
    expect(text).toContain(
      `spender\n${padded(OTHER_SPENDER)}\namount\n0.000000000000000005 ETH (5)`,
    );
    expect(text).not.toMatch(/Call 3/);
  });

  it('then runs a sponsored invoke of the deployed account (no deploymentData), still 0 STRK and 0 ETH', async () => {
    const { address } = account;
    // Deployed, the wallet has no deployment data to give (115), and starknet.js asks the
    // account its SNIP-9 version instead.
    await expectWalletError(walletApi.deploymentData(wallet), 115, /already deployed/);
    const from = flask.dialogs.length;
    const { transaction_hash } = await account.executePaymasterTransaction(
      [approve(STRK_TOKEN, SPENDER, 9n)],
      SPONSORED,
    );
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 100 });
    expect(receipt.isSuccess()).toBe(true);
    expect(await allowance(STRK_TOKEN, address, SPENDER)).toBe(9n);
    expect(await balances(address)).toEqual({ strk: 0n, eth: 0n });
    const shown = flask.dialogs.slice(from);
    expect(shown).toHaveLength(1);
    expect(shown[0].text).toContain(`Call 1 of 1: approve`);
    expect(shown[0].text).toContain('0.000000000000000009 STRK (9)');
  });
});

describe('sponsored through WalletAccountV5 (Wallet Standard)', () => {
  it('deploys a new account and runs its call, found with @wallet-standard/app', async () => {
    const name = 'Sponsored test wallet (account 1)';
    const unregister = registerStarknetWallet(walletFor(name, 1));
    try {
      const standard = getWallets()
        .get()
        .find((candidate: Wallet) => candidate.name === name);
      if (!standard) throw new Error('the wallet is not registered');
      const account = await WalletAccountV5.connect(
        provider,
        standard as never,
        undefined,
        sponsoringPaymaster(),
      );
      const deploymentData = sponsoredDeployment(await walletV5.deploymentData(standard as never));
      expectCounterfactual(deploymentData, account.address);
      expect(await balances(account.address)).toEqual({ strk: 0n, eth: 0n });
      const from = flask.dialogs.length;
      const { transaction_hash } = await account.executePaymasterTransaction(
        [approve(STRK_TOKEN, OTHER_SPENDER, 31n)],
        { ...SPONSORED, deploymentData },
      );
      const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 100 });
      expect(receipt.isSuccess()).toBe(true);
      await expectDeployedAndRun(account.address, OTHER_SPENDER, 31n);
      const [dialog] = flask.dialogs.slice(from);
      expect(dialog.text).toContain('Call 1 of 1: approve');
      expect(dialog.text).toContain(`spender\n${padded(OTHER_SPENDER)}`);
      account.unsubscribeChange();
    } finally {
      unregister();
    }
  });
});

/**
 * A paymaster in front of the real one that changes what paymaster_buildTransaction answers
 * (a paymaster that lies to the dapp, or is the attacker).
 */
function tamperingPaymaster(tamper: (message: OutsideExecutionV1, data: TypedData) => void) {
  return serveHttp(async (request, response, body) => {
    const key = request.headers['x-paymaster-api-key'];
    const upstream = await postJson(
      paymaster.url,
      body,
      typeof key === 'string' ? { 'x-paymaster-api-key': key } : {},
    );
    const answer = upstream.json as { result?: { typed_data?: TypedData } } | undefined;
    const data = answer?.result?.typed_data;
    if (data) tamper(data.message as OutsideExecutionV1, data);
    response.writeHead(upstream.status, { 'content-type': 'application/json' });
    response.end(data ? JSON.stringify(answer) : upstream.text);
  });
}

describe('a paymaster or dapp asking for more than the user sees', () => {
  let wallet: SnapStarknetWindowObject;
  let account: WalletAccount;
  let deploymentData: SponsoredDeployment;
  let stub: StubServer | undefined;
  const calls = [approve(STRK_TOKEN, SPENDER, 3n)];

  beforeAll(async () => {
    wallet = walletFor('Hostile-side wallet', 2);
    account = await WalletAccount.connect(provider, wallet, undefined, sponsoringPaymaster());
    deploymentData = sponsoredDeployment(await walletApi.deploymentData(wallet));
  });

  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  /** The typed data the honest paymaster builds for `calls` (deploy_and_invoke), as JSON. */
  async function honestTypedData(): Promise<TypedData> {
    const built = await account.buildPaymasterTransaction(calls, {
      ...SPONSORED,
      deploymentData,
    });
    if (built.type !== 'deploy_and_invoke') throw new Error(`built ${built.type}`);
    return JSON.parse(JSON.stringify(built.typed_data)) as TypedData;
  }

  /** An account of the same wallet whose paymaster is `url`. */
  const accountThrough = (url: string) =>
    new WalletAccount({
      provider,
      walletProvider: wallet,
      address: account.address,
      paymaster: sponsoringPaymaster(url),
    });

  it('a declined dialog is 113 and nothing is deployed', async () => {
    flask.declineNextDialog();
    await expectWalletError(
      account.executePaymasterTransaction(calls, { ...SPONSORED, deploymentData }),
      113,
      /./,
    );
    expect(flask.dialogs.at(-1)).toMatchObject({ method: 'l2_signMessage', action: 'decline' });
    expect(await isDeployed(devnet.rpcUrl, account.address)).toBe(false);
  });

  it('another chain: starknet.js stops a lying paymaster; the snap refuses it too (114, domain.chainId), with no dialog', async () => {
    stub = await tamperingPaymaster((_message, data) => {
      data.domain.chainId = SN_MAIN_HEX;
    });
    const dialogs = flask.dialogs.length;
    const signRequests = () => flask.calls.length;
    const before = signRequests();
    await expect(
      accountThrough(stub.url).executePaymasterTransaction(calls, { ...SPONSORED, deploymentData }),
    ).rejects.toThrow(/chainId does not match/);
    // starknet.js checked the domain before asking the wallet anything.
    expect(signRequests()).toBe(before);
    // A dapp that asks the wallet directly (no such check of its own) gets the snap's refusal.
    const mainnet = await honestTypedData();
    for (const chainId of [SN_MAIN_HEX, 'SN_MAIN', BigInt(SN_MAIN_HEX).toString()]) {
      mainnet.domain.chainId = chainId;
      await expectWalletError(
        account.signMessage(mainnet),
        114,
        /typedDataMessage\.domain\.chainId.*must name the network of this request.*Mainnet/,
      );
    }
    // Without a chainId at all, it is refused the same way.
    const unbound = await honestTypedData();
    delete unbound.domain.chainId;
    await expectWalletError(account.signMessage(unbound), 114, /domain\.chainId.*is required/);
    expect(flask.dialogs.length).toBe(dialogs);
  });

  it('an added call: starknet.js stops a lying paymaster; asked directly, the snap shows every call, and declined signs nothing', async () => {
    const steal = {
      to: STRK_TOKEN,
      selector: hash.getSelectorFromName('approve'),
      calldata_len: '0x3',
      calldata: [ATTACKER, '0xffffffffffffffffffffffffffffffff', '0x0'],
    };
    stub = await tamperingPaymaster((message) => {
      message.calls.push(steal);
      message.calls_len = `0x${message.calls.length.toString(16)}`;
    });
    const before = flask.calls.length;
    await expect(
      accountThrough(stub.url).executePaymasterTransaction(calls, { ...SPONSORED, deploymentData }),
    ).rejects.toThrow(/not strictly equal/);
    expect(flask.calls.length).toBe(before);

    // The same typed data asked of the wallet directly: the dialog lists the added call too.
    const data = await honestTypedData();
    const message = data.message as OutsideExecutionV1;
    message.calls.push(steal);
    message.calls_len = '0x2';
    flask.declineNextDialog();
    await expectWalletError(account.signMessage(data), 113, /./);
    const dialog = flask.dialogs.at(-1);
    expect(dialog).toMatchObject({ method: 'l2_signMessage', action: 'decline' });
    expect(dialog?.text).toContain('Call 2 of 2: approve');
    expect(dialog?.text).toContain(`spender\n${padded(ATTACKER)}`);
    expect(dialog?.text).toContain('340282366920938463463374607431768211455');
  });

  it('a call hidden from the dialog (behind calls_len, calldata_len or an undeclared member) is refused with no dialog', async () => {
    const dialogs = flask.dialogs.length;
    const hidden = { to: STRK_TOKEN, selector: '0x1', calldata_len: '0x0', calldata: [] };

    const pastLength = await honestTypedData();
    (pastLength.message as OutsideExecutionV1).calls.push(hidden);
    await expectWalletError(
      account.signMessage(pastLength),
      114,
      /calls_len.*must equal the number of calls \(2\)/,
    );

    const shortCalldata = await honestTypedData();
    (shortCalldata.message as OutsideExecutionV1).calls[0].calldata_len = '0x1';
    await expectWalletError(
      account.signMessage(shortCalldata),
      114,
      /calls\.0\.calldata_len.*must equal the length of calldata \(3\)/,
    );

    const undeclared = await honestTypedData();
    (undeclared.message as OutsideExecutionV1).more_calls = [hidden];
    await expectWalletError(
      account.signMessage(undeclared),
      114,
      /more_calls.*is not a member of type "OutsideExecution"/,
    );
    expect(flask.dialogs.length).toBe(dialogs);
  });

  it('a signed outside execution altered afterwards is refused by the paymaster, and nothing runs', async () => {
    const built = await account.buildPaymasterTransaction(calls, {
      ...SPONSORED,
      deploymentData,
    });
    const signed = await account.preparePaymasterTransaction(built);
    if (signed.type !== 'deploy_and_invoke') throw new Error(`prepared ${signed.type}`);
    const altered = JSON.parse(
      JSON.stringify(signed.invoke.typedData),
    ) as typeof signed.invoke.typedData;
    const message = altered.message as unknown as OutsideExecutionV1;
    message.calls[0].calldata[0] = ATTACKER;
    await expect(
      sponsoringPaymaster().executeTransaction(
        { ...signed, invoke: { ...signed.invoke, typedData: altered } },
        built.parameters,
      ),
    ).rejects.toMatchObject({
      baseError: {
        code: 156,
        data: { execution_error: expect.stringMatching(/is not the call built/) },
      },
    });
    expect(await isDeployed(devnet.rpcUrl, account.address)).toBe(false);
  });

  /**
   * The outside execution's domain name as other texts that hash to the same felt: a dapp that
   * writes it so still gets a signature the account accepts for execute_from_outside.
   */
  async function disguisedTypedData(): Promise<{ honest: TypedData; disguises: TypedData[] }> {
    const honest = await honestTypedData();
    const felt = BigInt(shortString.encodeShortString('Account.execute_from_outside'));
    const names = [
      felt.toString(), // decimal
      `0x${felt.toString(16).padStart(64, '0')}`, // hex padded to 64 digits
      `0X${felt.toString(16)}`, // upper-case prefix
    ];
    return {
      honest,
      disguises: names.map((name) => ({ ...honest, domain: { ...honest.domain, name } })),
    };
  }

  it('an outside execution whose domain name is written as a number hashes as the real one (starknet.js)', async () => {
    const { honest, disguises } = await disguisedTypedData();
    const expected = starknetTypedData.getMessageHash(honest, account.address);
    for (const disguise of disguises)
      expect(starknetTypedData.getMessageHash(disguise, account.address)).toBe(expected);
  });

  // The snap tells an outside execution by the felt its domain name hashes to, not by its text.
  it('an outside execution whose domain name is written as a number is still shown as the calls it allows', async () => {
    const { disguises } = await disguisedTypedData();
    for (const disguise of disguises) {
      flask.declineNextDialog();
      await expectWalletError(account.signMessage(disguise), 113);
      const dialog = flask.dialogs.at(-1);
      expect(dialog).toMatchObject({ method: 'l2_signMessage', action: 'decline' });
      expect(dialog?.text).toMatch(/outside execution \(SNIP-9, version 1\)/);
      expect(dialog?.text).toContain('Whoever holds this signature can run the calls below');
      expect(dialog?.text).toContain(`Call 1 of 1: approve`);
      expect(dialog?.text).toContain(`spender\n${padded(SPENDER)}`);
    }
  });

  it('a site never granted the account cannot have it sign an outside execution (-32602, no dialog)', async () => {
    const data = await honestTypedData();
    const dialogs = flask.dialogs.length;
    const error = await snapClientOn(flask, 'https://hostile.example')
      .signMessage({ typedDataMessage: data as never, signerAddress: account.address })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as Error).message).toMatch(
      /"signerAddress" is not an account of this snap that this site may use/,
    );
    expect(flask.dialogs.length).toBe(dialogs);
  });

  it('through all of it nothing was deployed, approved or paid', async () => {
    expect(await isDeployed(devnet.rpcUrl, account.address)).toBe(false);
    expect(await allowance(STRK_TOKEN, account.address, ATTACKER)).toBe(0n);
    expect(await allowance(STRK_TOKEN, account.address, SPENDER)).toBe(0n);
  });
});

describe('the preview of an outside execution, simulated from the calls signed', () => {
  let wallet: SnapStarknetWindowObject;
  let account: WalletAccount;
  const STRK = 10n ** 18n;
  const transfer = (token: string, recipient: string, amount: bigint): Call => ({
    contractAddress: token,
    entrypoint: 'transfer',
    calldata: CallData.compile({ recipient, amount: { low: amount, high: 0n } }),
  });

  /** The typed data the honest paymaster builds for a deployed account's `calls`. */
  async function builtTypedData(calls: Call[]): Promise<TypedData> {
    const built = await account.buildPaymasterTransaction(calls, SPONSORED);
    if (built.type !== 'invoke') throw new Error(`built ${built.type}`);
    return JSON.parse(JSON.stringify(built.typed_data)) as TypedData;
  }

  beforeAll(async () => {
    wallet = walletFor('Preview wallet', 3);
    account = await WalletAccount.connect(provider, wallet, undefined, sponsoringPaymaster());
    await mintStrk(devnet.rpcUrl, account.address, 2n * STRK);
  });

  it('an account not deployed yet: "Preview unavailable" and why, and the sponsored send still runs', async () => {
    const deploymentData = sponsoredDeployment(await walletApi.deploymentData(wallet));
    const from = flask.dialogs.length;
    const { transaction_hash } = await account.executePaymasterTransaction(
      [approve(STRK_TOKEN, SPENDER, 1n)],
      { ...SPONSORED, deploymentData },
    );
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 100 });
    expect(receipt.isSuccess()).toBe(true);
    const [dialog] = flask.dialogs.slice(from);
    expect(dialog.text).toContain('Preview unavailable');
    expect(dialog.text).toContain('your account is not deployed yet');
    expect(dialog.text).toContain('Call 1 of 1: approve');
  });

  it('a sponsored transfer and approve show "−1.5 STRK" and the approval; the balance falls by exactly that', async () => {
    const { address } = account;
    const before = await balances(address);
    const spenderBefore = await erc20Balance(devnet.rpcUrl, SPENDER, { block: 'pre_confirmed' });
    const from = flask.dialogs.length;
    const { transaction_hash } = await account.executePaymasterTransaction(
      [transfer(STRK_TOKEN, SPENDER, (3n * STRK) / 2n), approve(ETH_TOKEN, OTHER_SPENDER, 5n)],
      SPONSORED,
    );
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 100 });
    expect(receipt.isSuccess()).toBe(true);
    expect(await balances(address)).toEqual({ strk: before.strk - (3n * STRK) / 2n, eth: 0n });
    expect(await erc20Balance(devnet.rpcUrl, SPENDER, { block: 'pre_confirmed' })).toBe(
      spenderBefore + (3n * STRK) / 2n,
    );
    const shown = flask.dialogs.slice(from);
    expect(shown.map((dialog) => [dialog.method, dialog.action])).toEqual([
      ['l2_signMessage', 'approve'],
    ]);
    const { text } = shown[0];
    expect(text).toContain('Estimated changes (simulated from the transaction you sign)');
    expect(text).toContain('STRK\n\u22121.5 STRK');
    expect(text).toContain(
      `Approval\nlets ${padded(OTHER_SPENDER)} spend 0.000000000000000005 ETH`,
    );
    expect(text).toContain('Fee\nnone from your account');
    expect(text).not.toContain('Preview unavailable');
    expect(text).not.toContain('expected to fail');
  });

  it('a transfer that reverts shows the warning with its reason; declined, nothing is signed', async () => {
    const data = await builtTypedData([transfer(STRK_TOKEN, SPENDER, 1n)]);
    // The dapp asks directly for more than the account holds (0.5 STRK left).
    const [call] = (data.message as OutsideExecutionV1).calls;
    call.calldata[1] = `0x${(5n * STRK).toString(16)}`;
    const before = await balances(account.address);
    flask.declineNextDialog();
    await expectWalletError(account.signMessage(data), 113, /./);
    const dialog = flask.dialogs.at(-1);
    expect(dialog).toMatchObject({ method: 'l2_signMessage', action: 'decline' });
    expect(dialog?.text).toContain('This transaction is expected to fail');
    expect(dialog?.text).toMatch(/The simulation reverted: .*insufficient balance/);
    expect(dialog?.text).not.toContain('\u22125 STRK');
    expect(await balances(account.address)).toEqual(before);
  });

  it('a dapp cannot make the preview show a change the signed calls do not make', async () => {
    // The selector written as the text "transfer" where its type is a felt: it hashes as that
    // short string, not as transfer's selector, so the signed call is no transfer at all.
    const data = await builtTypedData([transfer(STRK_TOKEN, SPENDER, STRK / 2n)]);
    const [call] = (data.message as OutsideExecutionV1).calls;
    call.selector = 'transfer';
    const signedSelector = BigInt(shortString.encodeShortString('transfer'));
    flask.declineNextDialog();
    await expectWalletError(account.signMessage(data), 113, /./);
    const text = flask.dialogs.at(-1)?.text ?? '';
    expect(text).toContain(`selector 0x${signedSelector.toString(16)}`);
    expect(text).not.toContain('\u22120.5 STRK');
    expect(text).toContain('This transaction is expected to fail');
    // The same calls with the real selector would move 0.5 STRK: the preview is of the calls.
    const honest = await builtTypedData([transfer(STRK_TOKEN, SPENDER, STRK / 2n)]);
    flask.declineNextDialog();
    await expectWalletError(account.signMessage(honest), 113, /./);
    expect(flask.dialogs.at(-1)?.text).toContain('STRK\n\u22120.5 STRK');
  });
});
