/**
 * The starknet-react page in headless Chromium: @starknet-react/core with a connector that finds
 * the snap through the Wallet Standard (@wallet-standard/app), the snap's calls running the real
 * bundle in @metamask/snaps-simulation behind an injected EIP-6963 "MetaMask Flask", its Testnet
 * a real packages/devnet on 127.0.0.1. Results are checked on the node and with starknet.js.
 */
import {
  ARGENT_ACCOUNT_CLASS_HASH,
  ETH_TOKEN,
  ensureSiteBuild,
  erc20Allowance,
  erc20Balance,
  injectWallet,
  launchChromium,
  loopbackOnly,
  serveDirectory,
  SimulatedFlask,
  snapVariant,
  STARKNET_TESTNET,
  starknetSnapBuild,
  startDevnet,
  startDevnetPaymaster,
  waitForText,
  type DevnetLike,
  type DevnetPaymaster,
  type LaunchedBrowser,
  type StaticServer,
} from '@l2wallet/testkit';
import type { Page } from 'playwright-core';
import { RpcProvider, ec, hash, typedData as starknetTypedData } from 'starknet';

import { typedDataFor } from '../src/starknetReact/typedData';

/** The snap's Testnet node is fixed at build time: one port, so the cached snap build is reused. */
const DEVNET_PORT = 5089;
const WALLET_ID = 'metamask-starknet-snap';
const STRK = 10n ** 18n;
const RECIPIENT = '0x' + '7'.repeat(63);
const COUNTER_CLASS_HASH = '0x7c1460695c1b8eed37d48dd5922b3ebe92823d1824b62795875b6f6be65381b';
/** The page's sponsor key for its paymaster (`?paymasterKey=`, as npm start sets its demo key). */
const SPONSOR_KEY = 'site-test-sponsor-key';
const SPENDER = '0x' + '5'.repeat(63);

let devnet: DevnetLike;
let paymaster: DevnetPaymaster;
let snapServer: StaticServer;
let siteServer: StaticServer;
let flask: SimulatedFlask;
let browser: LaunchedBrowser;
let page: Page;
let provider: RpcProvider;
const pageErrors: string[] = [];
/** Requests the test's loopback-only route refused (the page's Mainnet node, once switched). */
const failedRequests: string[] = [];

/** STRK balance straight from the devnet, not through the page or the snap. */
const strkBalance = (address: string): Promise<bigint> => erc20Balance(devnet.rpcUrl, address);

async function walletApi(type: string, pattern: RegExp): Promise<string> {
  const row = page.getByTestId(`wallet-api-${type}`);
  await row.getByRole('button', { name: type, exact: true }).click();
  return waitForText(page.getByTestId(`wallet-api-result-${type}`), pattern);
}

beforeAll(async () => {
  devnet = await startDevnet({ port: DEVNET_PORT });
  // The SNIP-29 paymaster the page sponsors through: its relayer is the last predeployed account.
  paymaster = await startDevnetPaymaster(devnet.rpcUrl, { apiKeys: [SPONSOR_KEY] });
  const snapFolder = await snapVariant(
    starknetSnapBuild({ rpcUrl: devnet.rpcUrl, explorerUrl: devnet.url }),
  );
  snapServer = await serveDirectory(snapFolder);
  siteServer = await serveDirectory(await ensureSiteBuild());
  flask = new SimulatedFlask(snapServer.url, snapFolder);
  provider = new RpcProvider({ nodeUrl: devnet.rpcUrl });
  browser = await launchChromium();
  const context = browser.context;
  await injectWallet(context, flask);
  await loopbackOnly(context);
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('requestfailed', (request) => failedRequests.push(request.url()));
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await flask?.close();
  await siteServer?.close();
  await snapServer?.close();
  await paymaster?.stop();
  await devnet?.close();
});

describe('starknet-react page', () => {
  let address = '';
  let publicKey = '';

  it('lists the snap found through the Wallet Standard and connects with starknet-react', async () => {
    const query = new URLSearchParams({
      snapId: flask.snapId,
      devnet: devnet.rpcUrl,
      paymaster: paymaster.url,
      paymasterKey: SPONSOR_KEY,
    });
    await page.goto(`${siteServer.url}/starknet-react/?${query.toString()}`);
    const connect = page.getByTestId(`sr-connect-${WALLET_ID}`);
    await waitForText(connect, /Connect MetaMask Starknet Snap/);
    await connect.click();
    const account = await waitForText(
      page.getByTestId('sr-account'),
      /connected[\s\S]*0x[0-9a-f]{64}[\s\S]*Sepolia[\s\S]*0x534e5f5345504f4c4941/,
    );
    address = /0x[0-9a-f]{64}/.exec(account)?.[0] ?? '';
    // The install prompt came first; every dialog since was approved.
    expect(flask.dialogs[0]).toMatchObject({ method: 'wallet_requestSnaps', action: 'approve' });
    expect(flask.dialogs.every((dialog) => dialog.action === 'approve')).toBe(true);
  });

  it('lists the full wallet API and answers its requests through the connector', async () => {
    const rows = await page.getByTestId('wallet-api-panel').locator('li').allInnerTexts();
    expect(rows.map((row) => row.trim())).toEqual([
      'wallet_getPermissions',
      'wallet_requestAccounts',
      'wallet_requestChainId',
      'wallet_deploymentData',
      'wallet_addInvokeTransaction',
      'wallet_addDeclareTransaction',
      'wallet_signTypedData',
      'wallet_watchAsset',
      'wallet_switchStarknetChain',
      'wallet_addStarknetChain',
      'wallet_supportedSpecs',
      'wallet_supportedWalletApi',
      'wallet_strk20InvokeTransaction',
      'wallet_strk20PrepareInvoke',
      'wallet_strk20Balances',
      'wallet_strk20ShadowAccountCommitment',
    ]);
    await walletApi('wallet_getPermissions', /"accounts"/);
    await walletApi('wallet_requestChainId', /0x534e5f5345504f4c4941/);
    await walletApi('wallet_supportedSpecs', /"0\.9",\s*"0\.10"/);
    await walletApi('wallet_supportedWalletApi', /"0\.7",\s*"0\.8",\s*"0\.10"/);
    const shown = await walletApi('wallet_deploymentData', /class_hash/);
    const deployment = JSON.parse(shown.slice(shown.indexOf('{'))) as {
      address: string;
      class_hash: string;
      salt: string;
      calldata: string[];
    };
    expect(BigInt(deployment.address)).toBe(BigInt(address));
    expect(
      BigInt(
        hash.calculateContractAddressFromHash(
          deployment.salt,
          deployment.class_hash,
          deployment.calldata,
          0,
        ),
      ),
    ).toBe(BigInt(address));
    publicKey = deployment.calldata[0];
  });

  it('a sponsored transaction deploys the account with 0 STRK and 0 ETH and runs its call', async () => {
    const panel = page.getByTestId('sr-sponsored-panel');
    await waitForText(page.getByTestId('sr-sponsored-deployment'), /^not deployed yet/);
    const balances = async () => ({
      strk: await strkBalance(address),
      eth: await erc20Balance(devnet.rpcUrl, address, { token: ETH_TOKEN }),
    });
    expect(await balances()).toEqual({ strk: 0n, eth: 0n });
    const relayerBefore = await strkBalance(paymaster.relayer.address);
    const dialogs = flask.dialogs.length;

    await page.getByTestId('sr-sponsored-spender').fill(SPENDER);
    await page.getByTestId('sr-sponsored-amount').fill('3');
    await panel.getByRole('button', { name: /fee sponsored by the dapp/ }).click();
    await waitForText(page.getByTestId('sr-sponsored-result'), /0x[0-9a-f]+: SUCCEEDED/, 60_000);

    // Deployed at its counterfactual address (the one wallet_deploymentData gave), the call
    // ran, the relayer paid, the account still holds nothing.
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(ARGENT_ACCOUNT_CLASS_HASH));
    expect(await erc20Allowance(devnet.rpcUrl, address, SPENDER)).toBe(3n * STRK);
    expect(await balances()).toEqual({ strk: 0n, eth: 0n });
    expect(await strkBalance(paymaster.relayer.address)).toBeLessThan(relayerBefore);
    await waitForText(page.getByTestId('sr-sponsored-deployment'), /^deployed$/);

    // One dialog: the outside execution, naming the page's site and the call it allows.
    const shown = flask.dialogs.slice(dialogs);
    expect(shown.map((dialog) => [dialog.method, dialog.action])).toEqual([
      ['l2_signMessage', 'approve'],
    ]);
    expect(shown[0].text).toContain(new URL(siteServer.url).host);
    expect(shown[0].text).toContain('Call 1 of 1: approve');
    expect(shown[0].text).toContain(`spender\n${SPENDER.replace('0x', '0x0')}\namount\n3 STRK`);
  });

  it('shows the STRK balance and sends a transfer that lands on chain', async () => {
    await page.getByRole('button', { name: /Fund with 100 STRK/ }).click();
    await waitForText(page.getByTestId('sr-balance'), /^100 STRK$/);
    await page.getByTestId('sr-recipient').fill(RECIPIENT);
    await page.getByTestId('sr-amount').fill('2.5');
    await page.getByTestId('sr-transfer-panel').getByRole('button', { name: 'Send' }).click();
    await waitForText(page.getByTestId('sr-transfer-result'), /0x[0-9a-f]+: SUCCEEDED/, 60_000);
    expect(await strkBalance(RECIPIENT)).toBe((5n * STRK) / 2n);
    // The balance shown follows the chain: 100 - 2.5 - the fee.
    const shown = await waitForText(page.getByTestId('sr-balance'), /^9[0-7]\.\d+ STRK$/);
    const paid = 100n * STRK - (await strkBalance(address));
    expect(shown).toContain(String(Number(100n * STRK - paid) / 1e18).slice(0, 5));
    const execute = flask.dialogs.find((dialog) => dialog.method === 'l2_executeTxn');
    expect(execute?.text).toMatch(/transfer/i);
  });

  it('declares a class with wallet_addDeclareTransaction', async () => {
    const result = await walletApi('wallet_addDeclareTransaction', /transaction_hash/);
    const { transaction_hash, class_hash } = JSON.parse(result.slice(result.indexOf('{'))) as {
      transaction_hash: string;
      class_hash: string;
    };
    expect(BigInt(class_hash)).toBe(BigInt(COUNTER_CLASS_HASH));
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 200 });
    expect(receipt.isSuccess()).toBe(true);
  });

  it('signs typed data bound to Sepolia, verified with starknet.js', async () => {
    await page.getByTestId('sr-sign-contents').fill('Signed on the starknet-react page');
    await page.getByTestId('sr-sign-panel').getByRole('button', { name: 'Sign' }).click();
    const text = await waitForText(
      page.getByTestId('sr-sign-result'),
      /\["0x[0-9a-f]+","0x[0-9a-f]+"\]/,
    );
    const [r, s] = (JSON.parse(text.trim()) as string[]).map(BigInt);
    // What the page signs on Sepolia, from the page's own source.
    const data = typedDataFor(BigInt(STARKNET_TESTNET), 'Signed on the starknet-react page');
    expect(data.domain.chainId).toBe('SN_SEPOLIA');
    const messageHash = starknetTypedData.getMessageHash(data, address);
    const x = BigInt(publicKey).toString(16).padStart(64, '0');
    const verified = ['02', '03'].some((prefix) =>
      ec.starkCurve.verify(new ec.starkCurve.Signature(r, s), messageHash, `${prefix}${x}`),
    );
    expect(verified).toBe(true);
    // The dialog showed the message and named the page's site.
    expect(flask.dialogs.at(-1)?.text).toContain('Signed on the starknet-react page');
    expect(flask.dialogs.at(-1)?.text).toContain(new URL(siteServer.url).host);
  });

  it('switches the network from the wallet API panel and back; the page follows', async () => {
    await walletApi('wallet_switchStarknetChain', /true/);
    await waitForText(page.getByTestId('sr-account'), /0x534e5f4d41494e/);
    await walletApi('wallet_switchStarknetChain', /true/);
    await waitForText(page.getByTestId('sr-account'), /Sepolia[\s\S]*0x534e5f5345504f4c4941/);
    expect(pageErrors).toEqual([]);
    // Sepolia is the devnet; only Mainnet's public node (reads after the switch) was refused.
    expect(failedRequests.filter((url) => !url.includes('starknet-mainnet'))).toEqual([]);
  });
});
