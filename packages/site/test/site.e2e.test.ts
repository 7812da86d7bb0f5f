/**
 * The site in headless Chromium with an injected EIP-6963 "MetaMask Flask" whose snap calls run
 * the real snap bundle (built against a real local devnet) in @metamask/snaps-simulation.
 * Assertions are on visible text; each flow saves a screenshot to packages/site/screenshots/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import {
  deployToken,
  ensureSiteBuild,
  injectWallet,
  isDeployed,
  launchChromium,
  loopbackOnly,
  rpc,
  screenshot,
  serveDirectory,
  SimulatedFlask,
  STARKNET_MAINNET,
  startDevnet,
  waitForText,
  type DevnetLike,
  type LaunchedBrowser,
  type StaticServer,
} from '@l2wallet/testkit';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, buildSnap } from './harness/build';

// The devnet's own types live in its dist, which a clean clone does not have yet: the testkit
// starts it (jest maps @l2wallet/devnet to packages/devnet/src).
type DevnetServer = DevnetLike;

const MAINNET = STARKNET_MAINNET;
// Blocks close when a test closes them (closingBlocks), never on a timer in the middle of a
// check: a transaction the page must show pending stays pending until the test has looked. The
// block time only makes the devnet queue transactions (RECEIVED, then PRE_CONFIRMED) rather than
// close a block per transaction; it is longer than the whole file.
const BLOCK_TIME_MS = 3_600_000;
/** How often closingBlocks closes one. */
const CLOSE_EVERY_MS = 250;
/** The page's status polling interval (src/hooks/useTrackedTransactions.ts), and a margin. */
const ONE_POLL_MS = 1500 + 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Stack {
  snapFolder: string;
  devnet: DevnetServer;
  snapServer: StaticServer;
  siteServer: StaticServer;
  wallet: SimulatedFlask;
  browser: LaunchedBrowser;
  page: Page;
  pageErrors: string[];
}

/** Everything a flow needs; stopped in afterAll whatever happened. */
export async function startStack(): Promise<Stack> {
  const stack: Partial<Stack> = {};
  try {
    // A block time, so transactions pass through RECEIVED / PRE_CONFIRMED before ACCEPTED_ON_L2,
    // and the page's status polling is seen at work.
    stack.devnet = await startDevnet({
      blockTime: BLOCK_TIME_MS,
      preconfirmDelayMs: 1000,
    });
    const [snapFolder, siteFolder] = await Promise.all([
      buildSnap({ rpcUrl: stack.devnet.rpcUrl, explorerUrl: stack.devnet.url }),
      ensureSiteBuild(),
    ]);
    stack.snapFolder = snapFolder;
    stack.snapServer = await serveDirectory(snapFolder);
    stack.siteServer = await serveDirectory(siteFolder);
    stack.wallet = new SimulatedFlask(stack.snapServer.url, snapFolder);
    stack.browser = await launchChromium();
    const context = stack.browser.context;
    await injectWallet(context, stack.wallet);
    await loopbackOnly(context);
    stack.page = await context.newPage();
    stack.pageErrors = [];
    stack.page.on('pageerror', (error) => stack.pageErrors?.push(error.message));
    return stack as Stack;
  } catch (error) {
    await stopStack(stack);
    throw error;
  }
}

export async function stopStack(stack: Partial<Stack>) {
  await stack.browser?.close();
  await stack.wallet?.close();
  await stack.siteServer?.close();
  await stack.snapServer?.close();
  await stack.devnet?.close();
}

const card = (page: Page, method: string) => page.getByTestId(`card-${method}`);

/** Closes a block every CLOSE_EVERY_MS until `work` settles; what `work` resolves to. */
async function closingBlocks<T>(devnet: DevnetServer, work: () => Promise<T>): Promise<T> {
  let settled = false;
  const closer = (async () => {
    while (!settled) {
      await rpc(devnet.rpcUrl, 'devnet_createBlock', []);
      await sleep(CLOSE_EVERY_MS);
    }
  })();
  try {
    return await work();
  } finally {
    settled = true;
    await closer;
  }
}

async function callCard(page: Page, method: string) {
  const target = card(page, method);
  await target.scrollIntoViewIfNeeded();
  await target.getByRole('button', { name: 'Call' }).click();
  return target.getByTestId(`result-${method}`);
}

describe('site in the browser with the snap in snaps-simulation', () => {
  let stack: Stack;
  let page: Page;
  let account = '';

  beforeAll(async () => {
    rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    stack = await startStack();
    page = stack.page;
  }, 600_000);

  afterAll(async () => {
    if (stack) await stopStack(stack);
  });

  it('finds the wallet announced as MetaMask Flask and connects (installs the snap)', async () => {
    const query = new URLSearchParams({ snapId: stack.wallet.snapId, devnet: stack.devnet.rpcUrl });
    await page.goto(`${stack.siteServer.url}/?${query.toString()}`);
    await waitForText(page.getByTestId('wallet-status'), /MetaMask Flask.*io\.metamask\.flask/);
    await waitForText(page.getByTestId('connect-panel'), /Not connected/);

    await page.getByRole('button', { name: 'Connect' }).click();
    const panel = await waitForText(
      page.getByTestId('connect-panel'),
      /Connected[\s\S]*Installed version 0\.1\.0/,
    );
    expect(panel).toContain(stack.wallet.snapId);
    await waitForText(page.getByTestId('network-panel'), /Testnet[\s\S]*0x534e5f5345504f4c4941/);
    // The devnet behind the snap answers for Testnet, so the page offers local funding.
    await waitForText(page.getByTestId('network-panel'), /Local devnet/);
    expect(stack.wallet.dialogs.map((d) => d.type)).toContain('install');
    await screenshot(page, SCREENSHOT_DIR, '01-connected');
  });

  it('creates an account and lists it', async () => {
    await page.getByRole('button', { name: 'Create account' }).click();
    const result = await waitForText(
      page.getByTestId('account-result'),
      /"address": "0x[0-9a-f]+"/,
    );
    account = /"address": "(0x[0-9a-f]+)"/.exec(result)?.[1] ?? '';
    expect(account).toMatch(/^0x[0-9a-f]{50,64}$/);
    // Listed (selected) next to any account the page recovered on connect.
    const row = page.getByTestId('account-row').filter({ hasText: account.slice(0, 10) });
    await waitForText(row, /#\d+[\s\S]*Fund from devnet[\s\S]*Deploy/);
    expect(await row.locator('input[type="radio"]').isChecked()).toBe(true);
    // The method cards now default to this account.
    expect(
      await card(page, 'l2_signMessage').locator('input[name="signerAddress"]').inputValue(),
    ).toBe(account);
    await screenshot(page, SCREENSHOT_DIR, '02-account-created');
  });

  it('signs a typed-data message (approving the dialog) and verifies the signature', async () => {
    const dialogsBefore = stack.wallet.dialogs.length;
    const signed = await waitForText(
      await callCard(page, 'l2_signMessage'),
      /Result\s+Copy\s+0x[0-9a-f]+,0x[0-9a-f]+/,
    );
    const signature = /(0x[0-9a-f]+,0x[0-9a-f]+)/.exec(signed)?.[1];
    const dialog = stack.wallet.dialogs[dialogsBefore];
    expect(dialog).toMatchObject({ method: 'l2_signMessage', action: 'approve' });
    expect(dialog.text).toContain('Hello, Bob!');

    // The verify card is pre-filled with the last signature.
    expect(
      await card(page, 'l2_verifySignedMessage').locator('input[name="signature"]').inputValue(),
    ).toBe(signature);
    await waitForText(await callCard(page, 'l2_verifySignedMessage'), /Result\s+Copy\s+true/);
    await screenshot(page, SCREENSHOT_DIR, '03-signed-and-verified');
  });

  it('signs a transaction and a declare transaction with the pre-filled details', async () => {
    await waitForText(
      await callCard(page, 'l2_signTransaction'),
      /Result[\s\S]*\[\s*"0x[0-9a-f]+",\s*"0x[0-9a-f]+"\s*\]/,
    );
    expect(stack.wallet.dialogs.at(-1)).toMatchObject({
      method: 'l2_signTransaction',
      action: 'approve',
    });
    await waitForText(
      await callCard(page, 'l2_signDeclareTransaction'),
      /Result[\s\S]*"signature"[\s\S]*"0x[0-9a-f]+"/,
    );
    expect(stack.wallet.dialogs.at(-1)).toMatchObject({
      method: 'l2_signDeclareTransaction',
      action: 'approve',
    });
  });

  it('switches the network to Mainnet and back', async () => {
    const panel = page.getByTestId('network-panel');
    await panel.scrollIntoViewIfNeeded();
    await panel.getByRole('combobox').selectOption(MAINNET);
    await panel.getByRole('button', { name: 'Switch network' }).click();
    await waitForText(panel, /Mainnet[\s\S]*0x534e5f4d41494e/);
    await waitForText(panel, /Switched\./);
    expect(await panel.innerText()).not.toContain('Local devnet');
    await screenshot(page, SCREENSHOT_DIR, '04-switched-to-mainnet');

    await panel.getByRole('combobox').selectOption('0x534e5f5345504f4c4941');
    await panel.getByRole('button', { name: 'Switch network' }).click();
    await waitForText(panel, /Testnet[\s\S]*0x534e5f5345504f4c4941[\s\S]*Switched\./);
    await waitForText(panel, /Local devnet/);
    // Accounts are per network: back on Testnet the page lists (and selects) our account again.
    const row = page.getByTestId('account-row').filter({ hasText: account.slice(0, 10) });
    await waitForText(row, /Deploy/);
    expect(await row.locator('input[type="radio"]').isChecked()).toBe(true);
  });

  it('adds a token to the watch list', async () => {
    // Not one of the preloaded tokens: a token of our own on the devnet. The snap reads its
    // symbol and decimals from the contract (docs/security.md#nothing-signed-that-was-not-shown),
    // so it must exist, in a closed block.
    const token = await closingBlocks(stack.devnet, async () => {
      const address = await deployToken(stack.devnet.rpcUrl, {
        name: 'Playground Test Token',
        symbol: 'PTT',
        decimals: 6,
      });
      const deadline = Date.now() + 30_000;
      while (!(await isDeployed(stack.devnet.rpcUrl, address)) && Date.now() < deadline) {
        await sleep(200);
      }
      return address;
    });
    const target = card(page, 'l2_addErc20Token');
    await target.scrollIntoViewIfNeeded();
    await target.locator('input[name="tokenAddress"]').fill(token);
    await target.locator('input[name="tokenName"]').fill('Playground Test Token');
    await target.locator('input[name="tokenSymbol"]').fill('PTT');
    await target.locator('input[name="tokenDecimals"]').fill('6');
    const result = await waitForText(
      await callCard(page, 'l2_addErc20Token'),
      /Result[\s\S]*"symbol": "PTT"/,
    );
    expect(result).toMatch(/"decimals": 6/);
    expect(result).toMatch(/"name": "Playground Test Token"/);
    expect(result.toLowerCase()).toContain(BigInt(token).toString(16));
    const dialog = stack.wallet.dialogs.at(-1);
    expect(dialog).toMatchObject({ method: 'l2_addErc20Token', action: 'approve' });
    expect(dialog?.text).toContain('PTT');
    await screenshot(page, SCREENSHOT_DIR, '05-token-added');
  });

  // ---- chain flows (the snap's chain methods against the devnet) ----

  const selectedRow = () =>
    page.getByTestId('account-row').filter({ hasText: account.slice(0, 10) });

  it('funds the account from the devnet and deploys it', async () => {
    await selectedRow().getByRole('button', { name: 'Fund from devnet' }).click();
    const funded = await waitForText(page.getByTestId('account-result'), /"new_balance"/);
    expect(funded).toContain('"amount": "100 STRK"');
    expect(funded).toContain('"unit": "FRI"');

    await selectedRow().getByRole('button', { name: 'Deploy' }).click();
    const deployed = await waitForText(
      page.getByTestId('account-result'),
      /"transaction_hash": "0x[0-9a-f]+"/,
      60_000,
    );
    const hash = /"transaction_hash": "(0x[0-9a-f]+)"/.exec(deployed)?.[1] ?? '';
    expect(stack.wallet.dialogs.at(-1)).toMatchObject({
      method: 'l2_createAccount',
      action: 'approve',
    });
    const row = page.getByTestId('tx-row').filter({ hasText: hash.slice(0, 8) });
    await closingBlocks(stack.devnet, () =>
      waitForText(row, /ACCEPTED_ON_L2[\s\S]*Deploy account/, 60_000),
    );
    await screenshot(page, SCREENSHOT_DIR, '06-funded-and-deployed');
  });

  it('executes a transfer and shows its status going from pending to ACCEPTED_ON_L2', async () => {
    const dialogsBefore = stack.wallet.dialogs.length;
    const result = await waitForText(
      await callCard(page, 'l2_executeTxn'),
      /"transaction_hash": "0x[0-9a-f]+"/,
      60_000,
    );
    const hash = /"transaction_hash": "(0x[0-9a-f]+)"/.exec(result)?.[1] ?? '';
    // The approved dialog opened with the preview of the transfer (to the account itself: no
    // balance change but the fee), from the node's simulation.
    const sent = stack.wallet.dialogs
      .slice(dialogsBefore)
      .find((d) => d.method === 'l2_executeTxn');
    expect(sent?.action).toBe('approve');
    expect(sent?.text).toContain('Estimated changes');
    expect(sent?.text).toContain('No token balance changes besides the fee.');
    expect(sent?.text).toMatch(/Fee\nup to 0\.[0-9]+ STRK/);
    const row = page.getByTestId('tx-row').filter({ hasText: hash.slice(0, 8) });
    await row.scrollIntoViewIfNeeded();
    await waitForText(row, /executeTxn/);
    // Until the block closes the page shows it pending and polls its status.
    expect(await row.innerText()).toMatch(/RECEIVED|PENDING|PRE_CONFIRMED/);
    await waitForText(page.getByTestId('transactions'), /refreshing while pending/);
    await screenshot(page, SCREENSHOT_DIR, '07a-transfer-pending');
    // Text typed into a card while the transaction is pending survives the status polls.
    const typed = card(page, 'l2_getTransactions').locator('input[name="contractAddress"]');
    await typed.fill('0x0typed');
    // At least one status poll while it is still pending, then the block closes.
    await sleep(ONE_POLL_MS);
    expect(await row.innerText()).toMatch(/RECEIVED|PENDING|PRE_CONFIRMED/);
    await closingBlocks(stack.devnet, () => waitForText(row, /ACCEPTED_ON_L2/, 60_000));
    expect(await typed.inputValue()).toBe('0x0typed');
    await typed.fill('');
    // The status card is pre-filled with the last transaction and reads the same status.
    await waitForText(
      await callCard(page, 'l2_getTransactionStatus'),
      /Result[\s\S]*ACCEPTED_ON_L2/,
      30_000,
    );
    // The snap's own records agree: loading them keeps both transactions accepted.
    const list = page.getByTestId('transactions');
    await list.getByRole('button', { name: 'Load from snap' }).click();
    await waitForText(list, /ACCEPTED_ON_L2[\s\S]*ACCEPTED_ON_L2/);
    expect(await page.getByTestId('tx-row').count()).toBeGreaterThanOrEqual(2);
    expect(await list.innerText()).not.toMatch(/REJECTED|status check failed/);
    await screenshot(page, SCREENSHOT_DIR, '07-transfer-accepted');
  });

  it('reads the STRK balance', async () => {
    const result = await waitForText(
      await callCard(page, 'l2_getErc20TokenBalance'),
      /"balanceLatest": "0x[0-9a-f]+"/,
      30_000,
    );
    const latest = BigInt(/"balanceLatest": "(0x[0-9a-f]+)"/.exec(result)?.[1] ?? '0x0');
    // 100 STRK minted, minus the deploy and transfer fees (the self-transfer nets to zero).
    expect(latest).toBeGreaterThan(90n * 10n ** 18n);
    expect(latest).toBeLessThan(100n * 10n ** 18n);
    await screenshot(page, SCREENSHOT_DIR, '08-token-balance');
  });

  it('serves the get-starknet wallet object: accounts, chain id, typed-data signature, switch events', async () => {
    const panel = page.getByTestId('get-starknet-panel');
    const result = panel.getByTestId('get-starknet-result');
    await panel.scrollIntoViewIfNeeded();
    await panel.getByRole('button', { name: 'wallet_requestAccounts' }).click();
    await waitForText(result, /Result[\s\S]*\[\s*"0x[0-9a-f]+"\s*\]/);
    await panel.getByRole('button', { name: 'wallet_requestChainId' }).click();
    await waitForText(result, /Result\s+Copy\s+0x534e5f5345504f4c4941/);

    await panel.getByRole('button', { name: 'wallet_signTypedData' }).click();
    await waitForText(result, /Result[\s\S]*\[\s*"0x[0-9a-f]+",\s*"0x[0-9a-f]+"\s*\]/);
    expect(stack.wallet.dialogs.at(-1)).toMatchObject({
      method: 'l2_signMessage',
      action: 'approve',
    });

    await panel.getByRole('button', { name: 'wallet_switchStarknetChain' }).click();
    await waitForText(panel.getByTestId('get-starknet-events'), /networkChanged 0x534e5f4d41494e/);
    await waitForText(page.getByTestId('network-panel'), /Mainnet[\s\S]*0x534e5f4d41494e/);
    await screenshot(page, SCREENSHOT_DIR, '09-get-starknet-switched');
    await panel.getByRole('button', { name: 'wallet_switchStarknetChain' }).click();
    await waitForText(
      panel.getByTestId('get-starknet-events'),
      /networkChanged 0x534e5f5345504f4c4941/,
    );
    await waitForText(page.getByTestId('network-panel'), /Testnet[\s\S]*0x534e5f5345504f4c4941/);
    await waitForText(
      page.getByTestId('account-row').filter({ hasText: account.slice(0, 10) }),
      /Deploy/,
    );
  });

  it('shows a declined dialog as a user-rejected error', async () => {
    stack.wallet.declineNextDialog();
    const result = await waitForText(await callCard(page, 'l2_signMessage'), /Error/);
    expect(result).toMatch(/UserRejectedError \(code 4001\)/);
    expect(stack.wallet.dialogs.at(-1)).toMatchObject({
      method: 'l2_signMessage',
      action: 'decline',
    });
    await screenshot(page, SCREENSHOT_DIR, '10-declined');
  });

  it('raised no uncaught errors in the page', () => {
    expect(stack.pageErrors).toEqual([]);
  });
});
