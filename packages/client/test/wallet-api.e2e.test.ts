/**
 * starknet.js 10.8's own WalletAccount (get-starknet v4 wallet object) and WalletAccountV5
 * (Wallet Standard wallet, found with @wallet-standard/app) against this package's wallet, on
 * the real snap bundle in @metamask/snaps-simulation, whose Testnet is a real packages/devnet on
 * 127.0.0.1. Results are checked on the node and with starknet.js' own cryptography.
 */
import type { Wallet } from '@wallet-standard/base';
import type { StandardEventsChangeProperties } from '@wallet-standard/features';
import {
  CallData,
  RpcProvider,
  WalletAccount,
  WalletAccountV5,
  cairo,
  constants,
  ec,
  hash,
  typedData as starknetTypedData,
  wallet as walletApi,
  type TypedData,
} from 'starknet';

import {
  deployToken,
  erc20Balance,
  isDeployed,
  STRK_TOKEN,
  SimulatedFlask,
  rpc,
  serveSnap,
  SNIP12_DOMAIN_TYPE,
  snapVariant,
  startDevnet,
  starknetSnapBuild,
  type ServedSnap,
} from '@l2wallet/testkit';
import {
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
const DEVNET_PORT = 5087;
const ORIGIN = 'https://dapp.example';
const SEPOLIA = constants.StarknetChainId.SN_SEPOLIA;
const MAINNET = constants.StarknetChainId.SN_MAIN;
const WALLET_NAME = 'MetaMask Starknet Snap (test)';
const OTHER_TOKEN = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd';

type Devnet = Awaited<ReturnType<typeof startDevnet>>;

/** Typed data bound to Sepolia (the snap refuses a domain on another chain). */
const MAIL: TypedData = {
  types: {
    StarknetDomain: SNIP12_DOMAIN_TYPE,
    Mail: [
      { name: 'to', type: 'ContractAddress' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Wallet API test', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
  message: { to: '0x1234', contents: 'Hello from the wallet API test' },
};

/**
 * A signature over typed data, checked with starknet.js' own hash and curve. The account holds
 * the Stark key (x only), as the chain does: either point with that x may have signed.
 */
function verifyTyped(data: TypedData, signature: string[], address: string, starkKey: string) {
  const messageHash = starknetTypedData.getMessageHash(data, address);
  const [r, s] = signature.slice(-2).map(BigInt);
  const x = BigInt(starkKey).toString(16).padStart(64, '0');
  return ['02', '03'].some((prefix) =>
    ec.starkCurve.verify(new ec.starkCurve.Signature(r, s), messageHash, `${prefix}${x}`),
  );
}

describe('starknet.js WalletAccount and WalletAccountV5 on the real snap', () => {
  let devnet: Devnet;
  let served: ServedSnap;
  let flask: SimulatedFlask;
  let provider: RpcProvider;
  let wallet: SnapStarknetWindowObject;
  let unregister: () => void;
  let address = '';
  let publicKey = '';

  beforeAll(async () => {
    devnet = await startDevnet({ port: DEVNET_PORT, seed: 0, accounts: 1 });
    const folder = await snapVariant(
      starknetSnapBuild({ rpcUrl: devnet.rpcUrl, explorerUrl: devnet.url }),
    );
    served = await serveSnap(folder);
    flask = new SimulatedFlask(served.url, folder);
    wallet = createStarknetWindowObject(snapClientOn(flask, ORIGIN), { name: WALLET_NAME });
    unregister = registerStarknetWallet(wallet);
    provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  });

  afterAll(async () => {
    unregister?.();
    await flask?.close();
    await served?.close();
    await devnet?.close();
  });

  describe('WalletAccount (get-starknet v4 wallet object)', () => {
    let account: WalletAccount;

    it('connects: permissions, the account, its deployment data (address recomputed by starknet.js)', async () => {
      await expect(walletApi.getPermissions(wallet)).resolves.toEqual([]);
      await expect(walletApi.requestAccounts(wallet, true)).resolves.toEqual([]);
      account = await WalletAccount.connect(provider, wallet);
      address = account.address;
      expect(address).toMatch(/^0x[0-9a-f]{64}$/);
      // The install prompt, then whatever the snap asks on the first account access.
      expect(flask.dialogs[0]).toMatchObject({ method: 'wallet_requestSnaps', action: 'approve' });
      // The snap's grant for this site, asked on its first account access, names the site.
      const grant = flask.dialogs.find((dialog) => dialog.method === 'l2_createAccount');
      expect(grant?.text).toContain('dapp.example');
      await expect(walletApi.getPermissions(wallet)).resolves.toEqual(['accounts']);
      await expect(walletApi.requestAccounts(wallet, true)).resolves.toEqual([address]);
      await expect(walletApi.requestChainId(wallet)).resolves.toBe(SEPOLIA);

      const deployment = await walletApi.deploymentData(wallet);
      expect(deployment).toMatchObject({ address, version: 1 });
      const recomputed = hash.calculateContractAddressFromHash(
        deployment.salt,
        deployment.class_hash,
        deployment.calldata,
        0,
      );
      expect(BigInt(recomputed)).toBe(BigInt(address));
      publicKey = deployment.calldata[0];
      expect(await isDeployed(devnet.rpcUrl, address)).toBe(false);
    });

    it('supportedSpecs, supportedWalletApi, addStarknetChain of a listed chain', async () => {
      await expect(walletApi.supportedSpecs(wallet)).resolves.toEqual(['0.9', '0.10']);
      await expect(walletApi.supportedWalletApi(wallet)).resolves.toEqual(['0.7', '0.8', '0.10']);
      await expect(
        account.addStarknetChain({ id: 'sepolia', chain_id: SEPOLIA, chain_name: 'Sepolia' }),
      ).resolves.toBe(true);
    });

    it('executes a STRK transfer on chain, deploying the account first', async () => {
      await rpc(devnet.rpcUrl, 'devnet_mint', {
        address,
        amount: (50n * 10n ** 18n).toString(),
        unit: 'FRI',
      });
      const recipient = '0x' + '5'.repeat(63);
      const before = await erc20Balance(devnet.rpcUrl, recipient);
      const amount = 1234n;
      const dialogsBefore = flask.dialogs.length;
      const { transaction_hash } = await account.execute({
        contractAddress: STRK_TOKEN,
        entrypoint: 'transfer',
        calldata: CallData.compile({ recipient, amount: cairo.uint256(amount) }),
      });
      const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 200 });
      expect(receipt.isSuccess()).toBe(true);
      expect(await erc20Balance(devnet.rpcUrl, recipient)).toBe(before + amount);
      expect(await isDeployed(devnet.rpcUrl, address)).toBe(true);
      // The user saw the transfer's call before it was sent.
      const shown = flask.dialogs
        .slice(dialogsBefore)
        .map((d) => d.text)
        .join('\n');
      expect(shown).toMatch(/transfer/i);
    });

    it('wallet_deploymentData of the deployed account is 115', async () => {
      await expectWalletError(walletApi.deploymentData(wallet), 115, /already deployed/);
    });

    it('signs typed data that starknet.js verifies with the account key', async () => {
      const signature = (await account.signMessage(MAIL)) as string[];
      expect(verifyTyped(MAIL, signature, address, publicKey)).toBe(true);
      const tampered = { ...MAIL, message: { ...MAIL.message, contents: 'changed' } };
      expect(verifyTyped(tampered, signature, address, publicKey)).toBe(false);
      // The user saw the message and the site that asked.
      expect(flask.dialogs.at(-1)?.text).toContain('Hello from the wallet API test');
      expect(flask.dialogs.at(-1)?.text).toContain('dapp.example');
    });

    it('watches an asset (its symbol and decimals as the contract states them)', async () => {
      // docs/security.md#nothing-signed-that-was-not-shown: the snap reads the token's symbol and
      // decimals from its contract, so the token is a real one on the devnet.
      const token = await deployToken(devnet.rpcUrl, {
        name: 'Test Token',
        symbol: 'TKN',
        decimals: 6,
      });
      await expect(
        account.watchAsset({
          type: 'ERC20',
          options: { address: token, symbol: 'TKN', decimals: 6, name: 'Test Token' },
        }),
      ).resolves.toBe(true);
      expect(flask.dialogs.at(-1)?.text).toMatch(/TKN/);
      // A dapp that describes the token otherwise is refused, before any dialog.
      const dialogs = flask.dialogs.length;
      await expectWalletError(
        account.watchAsset({
          type: 'ERC20',
          options: { address: token, symbol: 'TKN', decimals: 18, name: 'Test Token' },
        }),
        114,
        /"tokenDecimals" disagrees with the token contract on Testnet: its decimals\(\) is 6, got 18/,
      );
      expect(flask.dialogs.length).toBe(dialogs);
    });

    it('switches to Mainnet and back, with networkChanged events and the provider following', async () => {
      const seen: Array<[string | undefined, string[] | undefined]> = [];
      account.onNetworkChanged((chainId, accounts) => seen.push([chainId, accounts]));
      await expect(account.switchStarknetChain(MAINNET)).resolves.toBe(true);
      await expect(walletApi.requestChainId(wallet)).resolves.toBe(MAINNET);
      await expect(account.switchStarknetChain(SEPOLIA)).resolves.toBe(true);
      expect(seen.map(([chainId]) => chainId)).toEqual([MAINNET, SEPOLIA]);
      // The same key is the same address on both networks.
      expect(seen.map(([, accounts]) => accounts)).toEqual([[address], [address]]);
      expect(await account.provider.getChainId()).toBe(SEPOLIA);
    });

    it('every wallet API error code on its case, with nothing sent', async () => {
      const nonce = await provider.getNonceForAddress(address);
      // 113: the user declines.
      flask.declineNextDialog();
      await expectWalletError(account.signMessage(MAIL), 113);
      expect(flask.dialogs.at(-1)?.action).toBe('decline');
      flask.declineNextDialog();
      await expectWalletError(
        account.execute({
          contractAddress: STRK_TOKEN,
          entrypoint: 'transfer',
          calldata: [address, 1, 0],
        }),
        113,
      );
      // 114: typed data bound to another network (the snap refuses it, naming the field) ...
      await expectWalletError(
        account.signMessage({ ...MAIL, domain: { ...MAIL.domain, chainId: 'SN_MAIN' } }),
        114,
        /chainId/,
      );
      // ... and a payload the wallet API does not allow names the field.
      await expectWalletError(
        account.execute({ contractAddress: STRK_TOKEN, entrypoint: 'transfer', calldata: ['x1'] }),
        114,
        /calls\[0\]\.calldata\[0\]/,
      );
      await expectWalletError(
        account.watchAsset({ type: 'ERC721' as 'ERC20', options: { address: OTHER_TOKEN } }),
        114,
        /type/,
      );
      // 112: a network the snap does not list.
      await expectWalletError(account.switchStarknetChain('0x1234' as never), 112, /0x1234/);
      // 162: an api_version this wallet does not implement.
      await expectWalletError(
        wallet.request({ type: 'wallet_requestChainId', params: { api_version: '0.1' } }),
        162,
      );
      // A transfer that would revert reaches the dialog with a warning (the preview); declined,
      // it is 113 and nothing is sent.
      flask.declineNextDialog();
      await expectWalletError(
        account.execute({
          contractAddress: STRK_TOKEN,
          entrypoint: 'transfer',
          calldata: CallData.compile({ recipient: address, amount: cairo.uint256(10n ** 30n) }),
        }),
        113,
      );
      expect(flask.dialogs.at(-1)?.text).toContain(
        'The simulation reverted: ERC20: insufficient balance.',
      );
      // 163: anything else, with the wallet's own explanation (here: a SNIP-36 proof).
      await expectWalletError(
        wallet.request({
          type: 'wallet_addInvokeTransaction',
          params: {
            calls: [{ contract_address: STRK_TOKEN, entry_point: 'transfer', calldata: [] }],
            proof: { data: [], proof_facts: [] } as never,
          },
        }),
        163,
        /SNIP-36/,
      );
      expect(await provider.getNonceForAddress(address)).toBe(nonce);
    });
  });

  describe('WalletAccountV5 (Wallet Standard)', () => {
    let standard: Wallet;
    let account: WalletAccountV5;

    it('finds the wallet with @wallet-standard/app and connects through standard:connect', async () => {
      const found = getWallets()
        .get()
        .filter((candidate) => candidate.name === WALLET_NAME);
      expect(found).toHaveLength(1);
      standard = found[0];
      expect(Object.keys(standard.features).sort()).toEqual([
        'standard:connect',
        'standard:disconnect',
        'standard:events',
        'starknet:walletApi',
      ]);
      expect(standard.icon).toMatch(/^data:image\//);
      account = await WalletAccountV5.connect(provider, standard as never);
      expect(account.address).toBe(address);
      expect(standard.accounts.map((a) => [a.address, a.chains])).toEqual([
        [address, ['starknet:SN_SEPOLIA']],
      ]);
    });

    it('executes a transfer on chain and signs typed data that starknet.js verifies', async () => {
      const recipient = '0x' + '6'.repeat(63);
      const { transaction_hash } = await account.execute({
        contractAddress: STRK_TOKEN,
        entrypoint: 'transfer',
        calldata: CallData.compile({ recipient, amount: cairo.uint256(77n) }),
      });
      const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 200 });
      expect(receipt.isSuccess()).toBe(true);
      expect(await erc20Balance(devnet.rpcUrl, recipient)).toBe(77n);
      const signature = (await account.signMessage(MAIL)) as string[];
      expect(verifyTyped(MAIL, signature, address, publicKey)).toBe(true);
    });

    it('watches an asset and reports deploymentData 115 through starknet:walletApi', async () => {
      await expect(
        account.watchAsset({
          type: 'ERC20',
          options: { address: STRK_TOKEN, symbol: 'STRK', decimals: 18, name: 'Starknet Token' },
        }),
      ).resolves.toBe(true);
      const request = (
        standard as unknown as { features: Record<string, { request: typeof wallet.request }> }
      ).features['starknet:walletApi'].request;
      await expectWalletError(request({ type: 'wallet_deploymentData' }), 115);
    });

    it('a switch and back emits change events with the new chain', async () => {
      const changes: StandardEventsChangeProperties[] = [];
      const off = account.onChange((change) => changes.push(change));
      await expect(account.switchStarknetChain(MAINNET)).resolves.toBe(true);
      await expect(account.switchStarknetChain(SEPOLIA)).resolves.toBe(true);
      off();
      expect(changes.map((change) => change.accounts?.[0]?.chains)).toEqual([
        ['starknet:SN_MAIN'],
        ['starknet:SN_SEPOLIA'],
      ]);
      expect(standard.accounts[0].chains).toEqual(['starknet:SN_SEPOLIA']);
    });

    it('disconnect empties the accounts and the permissions', async () => {
      await (
        standard.features['standard:disconnect'] as { disconnect(): Promise<void> }
      ).disconnect();
      expect(standard.accounts).toEqual([]);
      await expect(walletApi.getPermissions(wallet)).resolves.toEqual([]);
      account.unsubscribeChange();
    });
  });
});
