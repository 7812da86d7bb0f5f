/**
 * starknet.js 10.8's WalletAccountV6 (wallet API 0.10) against this package's wallet, on the
 * real snap bundle in @metamask/snaps-simulation, whose Testnet is a real packages/devnet on
 * 127.0.0.1: through the Wallet Standard wallet (found with @wallet-standard/app) and through
 * the get-starknet object (window.starknet_*), wrapped as get-starknet v5 wraps injected wallets
 * (get-starknet-wallet-standard's StarknetInjectedWallet). The transfer's dialog shows its preview.
 */
import { StarknetInjectedWallet } from '@starknet-io/get-starknet-wallet-standard';
import type { Wallet } from '@wallet-standard/base';
import {
  CallData,
  RpcProvider,
  WalletAccountV6,
  cairo,
  constants,
  ec,
  typedData as starknetTypedData,
  walletV6,
  type TypedData,
} from 'starknet';

import {
  erc20Balance,
  rpc,
  serveSnap,
  SimulatedFlask,
  SNIP12_DOMAIN_TYPE,
  snapVariant,
  startDevnet,
  starknetSnapBuild,
  STRK_TOKEN,
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

/** The snap's Testnet node is fixed at build time: a port of this file's own. */
const DEVNET_PORT = 5088;
const ORIGIN = 'https://v6.dapp.example';
const SEPOLIA = constants.StarknetChainId.SN_SEPOLIA;
const WALLET_NAME = 'MetaMask Starknet Snap (V6 test)';
const MINUS = '\u2212';

const MAIL: TypedData = {
  types: {
    StarknetDomain: SNIP12_DOMAIN_TYPE,
    Mail: [
      { name: 'to', type: 'ContractAddress' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Wallet API 0.10 test', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
  message: { to: '0x1234', contents: 'Hello from WalletAccountV6' },
};

describe('starknet.js WalletAccountV6 on the real snap', () => {
  let devnet: Awaited<ReturnType<typeof startDevnet>>;
  let served: ServedSnap;
  let flask: SimulatedFlask;
  let provider: RpcProvider;
  let wallet: SnapStarknetWindowObject;
  let unregister: () => void;
  let starkKey = '';

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

  /** Every dialog text since `from`. */
  const shownSince = (from: number) =>
    flask.dialogs
      .slice(from)
      .map((dialog) => dialog.text)
      .join('\n');

  /** starknet.js' own hash and curve; the account holds the Stark key (x only). */
  function verifyTyped(data: TypedData, signature: string[], address: string) {
    const messageHash = starknetTypedData.getMessageHash(data, address);
    const [r, s] = signature.slice(-2).map(BigInt);
    const x = BigInt(starkKey).toString(16).padStart(64, '0');
    return ['02', '03'].some((prefix) =>
      ec.starkCurve.verify(new ec.starkCurve.Signature(r, s), messageHash, `${prefix}${x}`),
    );
  }

  async function exercise(account: WalletAccountV6, standard: Wallet, recipient: string) {
    // The address and the chain, as WalletAccountV6 reads them.
    expect(account.address).toMatch(/^0x[0-9a-f]{64}$/);
    await expect(walletV6.requestChainId(standard as never)).resolves.toBe(SEPOLIA);
    await expect(walletV6.supportedWalletApi(standard as never)).resolves.toContain('0.10');
    const deployment = await walletV6.deploymentData(standard as never).catch(() => undefined);
    if (deployment) starkKey = deployment.calldata[0];
    // Typed data signed through the wallet verifies with starknet.js' own hash and curve.
    const signature = (await account.signMessage(MAIL)) as string[];
    expect(verifyTyped(MAIL, signature, account.address)).toBe(true);
    expect(
      verifyTyped(
        { ...MAIL, message: { ...MAIL.message, contents: 'x' } },
        signature,
        account.address,
      ),
    ).toBe(false);
    // A transfer, approved in the dialog, which shows its preview.
    const before = await erc20Balance(devnet.rpcUrl, recipient);
    const dialogs = flask.dialogs.length;
    const { transaction_hash } = await account.execute({
      contractAddress: STRK_TOKEN,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient, amount: cairo.uint256(77n) }),
    });
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 200 });
    expect(receipt.isSuccess()).toBe(true);
    expect(await erc20Balance(devnet.rpcUrl, recipient)).toBe(before + 77n);
    const shown = shownSince(dialogs);
    expect(shown).toContain('Estimated changes');
    expect(shown).toContain(`STRK\n${MINUS}0.000000000000000077 STRK`);
    expect(flask.dialogs.at(-1)?.action).toBe('approve');
    // STRK20 privacy requests: 118, with the reason.
    await expectWalletError(account.strk20Balances([STRK_TOKEN]), 118, /not public/);
  }

  it('through the Wallet Standard wallet: connects, reads address and chain, signs, executes', async () => {
    const [standard] = getWallets()
      .get()
      .filter((candidate) => candidate.name === WALLET_NAME);
    expect(standard).toBeDefined();
    const account = await WalletAccountV6.connect(provider, standard as never);
    await rpc(devnet.rpcUrl, 'devnet_mint', {
      address: account.address,
      amount: (50n * 10n ** 18n).toString(),
      unit: 'FRI',
    });
    expect(standard.accounts.map((a) => [a.address, a.chains])).toEqual([
      [account.address, ['starknet:SN_SEPOLIA']],
    ]);
    await exercise(account, standard, `0x${'6'.repeat(63)}`);
  });

  it('through the get-starknet object, wrapped as get-starknet wraps injected wallets', async () => {
    const injected = new StarknetInjectedWallet(wallet as never);
    const account = await WalletAccountV6.connect(provider, injected as never);
    expect(injected.accounts.map((a) => a.address)).toEqual([account.address]);
    await exercise(account, injected as unknown as Wallet, `0x${'7'.repeat(63)}`);
  });
});
