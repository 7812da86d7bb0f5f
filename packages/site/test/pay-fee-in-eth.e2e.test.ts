/**
 * The playground's "No STRK? Pay the fee in ETH" path in headless Chromium
 * (docs/interface/snap.md#fees-in-another-token): an account that the devnet funds with ETH only is
 * deployed and sends with its fee paid in ETH, through the snap's paymaster route (details.feeMode)
 * and packages/paymaster's relayer on the devnet. The snap runs in snaps-simulation behind an
 * injected EIP-6963 "MetaMask Flask", as in site.e2e.test.ts; balances and deployment are read from
 * the devnet itself.
 */
import { mkdirSync } from 'node:fs';
import {
  ensureSiteBuild,
  erc20Balance,
  ETH_TOKEN,
  injectWallet,
  isDeployed,
  launchChromium,
  loopbackOnly,
  screenshot,
  serveDirectory,
  SimulatedFlask,
  startDevnet,
  startDevnetPaymaster,
  STRK_TOKEN,
  waitForText,
  type DevnetLike,
  type DevnetPaymaster,
  type LaunchedBrowser,
  type StaticServer,
} from '@l2wallet/testkit';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, buildSnap } from './harness/build';

describe('No STRK? Pay the fee in ETH (account panel)', () => {
  let devnet: DevnetLike | undefined;
  let paymaster: DevnetPaymaster | undefined;
  let snapServer: StaticServer | undefined;
  let siteServer: StaticServer | undefined;
  let wallet: SimulatedFlask | undefined;
  let browser: LaunchedBrowser | undefined;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    devnet = await startDevnet({});
    paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
      gasTokens: [{ address: ETH_TOKEN, priceInStrk: '2500' }],
    });
    const [snapFolder, siteFolder] = await Promise.all([
      buildSnap({ rpcUrl: devnet.rpcUrl, explorerUrl: devnet.url, paymasterUrl: paymaster.url }),
      ensureSiteBuild(),
    ]);
    snapServer = await serveDirectory(snapFolder);
    siteServer = await serveDirectory(siteFolder);
    const flask = new SimulatedFlask(snapServer.url, snapFolder);
    wallet = flask;
    browser = await launchChromium();
    await injectWallet(browser.context, flask);
    await loopbackOnly(browser.context);
    page = await browser.context.newPage();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await wallet?.close();
    await siteServer?.close();
    await snapServer?.close();
    await paymaster?.stop();
    await devnet?.close();
  });

  it('funds an account with ETH only, then deploys it and sends with the fee in ETH', async () => {
    const flask = wallet as SimulatedFlask;
    const node = (devnet as DevnetLike).rpcUrl;
    const query = new URLSearchParams({ snapId: flask.snapId, devnet: node });
    await page.goto(`${(siteServer as StaticServer).url}/?${query.toString()}`);
    await page.getByRole('button', { name: 'Connect' }).click();
    await waitForText(page.getByTestId('network-panel'), /Local devnet/);
    await page.getByRole('button', { name: 'Create account' }).click();
    const created = await waitForText(
      page.getByTestId('account-result'),
      /"address": "0x[0-9a-f]+"/,
    );
    const account = /"address": "(0x[0-9a-f]+)"/.exec(created)?.[1] ?? '';
    const row = page.getByTestId('account-row').filter({ hasText: account.slice(0, 10) });
    const relayerBefore = await erc20Balance(node, (paymaster as DevnetPaymaster).relayer.address, {
      token: ETH_TOKEN,
    });

    await row.getByRole('button', { name: 'No STRK? Pay the fee in ETH' }).click();
    const result = await waitForText(
      page.getByTestId('account-result'),
      /"sent": \{[\s\S]*"transaction_hash": "0x[0-9a-f]+"/,
      120_000,
    );
    expect(result).toContain('"amount": "1 ETH"');
    expect(result).toContain('"unit": "WEI"');
    // Both dialogs said the fee is paid in ETH through the paymaster, and were approved.
    const [deploy, send] = flask.dialogs.slice(-2);
    expect(deploy).toMatchObject({ method: 'l2_createAccount', action: 'approve' });
    expect(send).toMatchObject({ method: 'l2_executeTxn', action: 'approve' });
    const host = new URL((paymaster as DevnetPaymaster).url).host;
    for (const dialog of [deploy, send]) {
      expect(dialog.text).toMatch(
        new RegExp(`Fee paid in ETH: up to [0-9.]+ ETH \\(through ${host}\\)`, 'u'),
      );
    }

    // On chain: deployed, no STRK ever, the fee paid in ETH to the relayer.
    expect(await isDeployed(node, account)).toBe(true);
    expect(await erc20Balance(node, account, { token: STRK_TOKEN })).toBe(0n);
    const eth = await erc20Balance(node, account, { token: ETH_TOKEN });
    expect(eth).toBeLessThan(10n ** 18n);
    const relayerAfter = await erc20Balance(node, (paymaster as DevnetPaymaster).relayer.address, {
      token: ETH_TOKEN,
    });
    expect(relayerAfter - relayerBefore).toBe(10n ** 18n - eth);

    // The transactions panel tracks both, like any other transaction.
    const transactions = page.getByTestId('transactions');
    await waitForText(transactions, /Deploy account #\d+, fee in ETH/);
    await waitForText(transactions, /Send 1 wei ETH to itself, fee in ETH/);
    await waitForText(transactions, /ACCEPTED_ON_L2[\s\S]*ACCEPTED_ON_L2/, 60_000);
    await screenshot(page, SCREENSHOT_DIR, '10-fee-paid-in-eth');
  });
});
