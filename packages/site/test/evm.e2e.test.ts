/**
 * The EVM accounts page in headless Chromium. The injected "MetaMask Flask" runs the real keyring
 * snap bundle in @metamask/snaps-simulation (the testkit's SimulatedKeyringFlask); the chain is a
 * real anvil with the ERC-4337 v0.6 contracts, Alto and the ERC-7677 paymaster service on
 * 127.0.0.1. The page is served under its allowed origin http://localhost:8000 (routed by the
 * browser to the built site), so the snap's origin rules apply as in MetaMask. Signatures shown on
 * the page are recovered with ethers. Reuses the site build of this jest run when it is up to date.
 */
import {
  ANVIL_CHAIN_ID,
  ensureSiteBuild,
  injectWallet,
  launchChromium,
  screenshot,
  serveDirectory,
  SimulatedKeyringFlask,
  startAccountAbstractionStack,
  waitForText,
  type AccountAbstractionDeployment,
  type AccountAbstractionStack,
  type AltoService,
  type AnvilService,
  type LaunchedBrowser,
  type StaticServer,
} from '@l2wallet/testkit';
import { ethers } from 'ethers';
import type { Page } from 'playwright-core';
import { exampleTypedData } from '../src/utils/evmTypedData';
import { SCREENSHOT_DIR } from './harness/build';

const { ensureTestSnap } = require('@l2wallet/keyring-snap/test/harness/build-test-snap.cjs') as {
  ensureTestSnap(): string;
};

const SITE_ORIGIN = 'http://localhost:8000';

let stack: AccountAbstractionStack;
let anvil: AnvilService;
let contracts: AccountAbstractionDeployment;
let alto: AltoService;
let provider: ethers.JsonRpcProvider;
let siteServer: StaticServer;
let snapServer: StaticServer;
let wallet: SimulatedKeyringFlask;
let browser: LaunchedBrowser;
let page: Page;

async function output(pattern: RegExp): Promise<string> {
  return waitForText(page.getByTestId('evm-output'), pattern, 60_000);
}

function lastValue(text: string): string {
  return text.split('\n').slice(1).join('\n').trim();
}

beforeAll(async () => {
  const [site] = await Promise.all([
    ensureSiteBuild(),
    (async () => {
      stack = await startAccountAbstractionStack();
      ({ contracts, alto } = stack);
      anvil = stack.anvil as AnvilService;
    })(),
  ]);
  provider = new ethers.JsonRpcProvider(anvil.url, undefined, {
    staticNetwork: true,
    cacheTimeout: -1,
  });
  siteServer = await serveDirectory(site);
  snapServer = await serveDirectory(ensureTestSnap());
  wallet = new SimulatedKeyringFlask(snapServer.url, contracts.chainId);
  await wallet.install();
  // What the user of the site would confirm once: the snap's chain points at this stack.
  const configured = await wallet.approved(
    'keyring_setChainConfig',
    stack.chainConfig,
    SITE_ORIGIN,
  );
  expect(configured.error).toBeUndefined();

  browser = await launchChromium();
  await injectWallet(browser.context, wallet, '__keyringFlask');
  // The page lives at its real origin; the browser fetches it from the built site.
  await browser.context.route(`${SITE_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await fetch(`${siteServer.url}${url.pathname}${url.search}`);
    await route.fulfill({
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? 'text/html' },
      body: Buffer.from(await response.arrayBuffer()),
    });
  });
  // The page's own calls to the node and the bundler (a routed page has no address of its own,
  // so Chromium would block them as private-network requests): forwarded to the real services.
  const services = new Set([anvil.port, alto.port]);
  await browser.context.route(
    (url) => url.hostname === '127.0.0.1' && services.has(Number(url.port)),
    async (route) => {
      const request = route.request();
      const cors = {
        'access-control-allow-origin': SITE_ORIGIN,
        'access-control-allow-headers': 'content-type',
        'access-control-allow-methods': 'POST, OPTIONS',
      };
      if (request.method() === 'OPTIONS') {
        await route.fulfill({ status: 204, headers: cors });
        return;
      }
      const response = await fetch(request.url(), {
        method: request.method(),
        headers: { 'content-type': 'application/json' },
        body: request.postData() ?? undefined,
      });
      await route.fulfill({
        status: response.status,
        headers: { ...cors, 'content-type': 'application/json' },
        body: await response.text(),
      });
    },
  );
  page = await browser.context.newPage();
}, 900_000);

afterAll(async () => {
  provider?.destroy();
  await browser?.close();
  await wallet?.close();
  await Promise.all([siteServer?.close(), snapServer?.close()]);
  await stack?.stop();
});

it('creates an EOA and signs a message, typed data and a transaction from the page', async () => {
  await page.goto(`${SITE_ORIGIN}/evm/?keyringSnapId=${encodeURIComponent(wallet.snapId)}`);
  await waitForText(page.getByTestId('evm-connect'), /Wallet: MetaMask Flask/);
  await page.getByRole('button', { name: 'Connect' }).click();
  await waitForText(page.getByTestId('evm-connect'), /Connected/);
  await waitForText(page.getByTestId('evm-chain'), new RegExp(`chain 31337 .*${alto.url}`));

  await page.getByRole('button', { name: 'Create EOA' }).click();
  const created = JSON.parse(lastValue(await output(/Create eip155:eoa[\s\S]*"address"/))) as {
    address: string;
  };
  await waitForText(page.getByTestId('evm-accounts'), new RegExp(created.address));

  await page.getByTestId('evm-message').fill('Signed on the EVM accounts page');
  await page.getByRole('button', { name: 'Sign message' }).click();
  const signature = lastValue(await output(/personal_sign\s+0x[0-9a-f]{130}/));
  expect(ethers.verifyMessage('Signed on the EVM accounts page', signature)).toBe(created.address);

  await page.getByRole('button', { name: 'Sign typed data' }).click();
  const typedSignature = lastValue(await output(/eth_signTypedData_v4\s+0x[0-9a-f]{130}/));
  // What the page signs, from the page's own source (ethers derives EIP712Domain itself).
  const { EIP712Domain: _domainType, ...types } = exampleTypedData(
    ANVIL_CHAIN_ID,
    created.address,
  ).types;
  const typed = { ...exampleTypedData(ANVIL_CHAIN_ID, created.address), types };
  expect(ethers.verifyTypedData(typed.domain, typed.types, typed.message, typedSignature)).toBe(
    created.address,
  );

  await page.getByRole('button', { name: 'Sign transaction' }).click();
  const { v, r, s } = JSON.parse(lastValue(await output(/eth_signTransaction[\s\S]*"s"/))) as {
    v: string;
    r: string;
    s: string;
  };
  const signed = ethers.Transaction.from({
    type: 2,
    chainId: 31337n,
    nonce: 0,
    to: created.address,
    value: 0n,
    data: '0x',
    gasLimit: 21000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    signature: ethers.Signature.from({ r, s, v: 27n + BigInt(v) }),
  });
  expect(signed.from).toBe(created.address);
  expect(wallet.submitted.map((entry) => entry.method)).toEqual([
    'personal_sign',
    'eth_signTypedData_v4',
    'eth_signTransaction',
  ]);
  await screenshot(page, SCREENSHOT_DIR, 'evm-eoa');
});

it('sends a sponsored user operation of a new, zero-balance 4337 account and shows the receipt', async () => {
  await page.getByRole('button', { name: 'Create 4337 account' }).click();
  const smart = JSON.parse(lastValue(await output(/Create eip155:erc4337[\s\S]*"address"/))) as {
    address: string;
  };
  // No funds at all: prepare estimates with the paymaster's stub, the paymaster pays.
  expect(await provider.getBalance(smart.address)).toBe(0n);
  await page.getByRole('button', { name: 'Send user operation' }).click();
  const receipt = JSON.parse(lastValue(await output(/User operation[\s\S]*"success": true/))) as {
    transactionHash: string;
    sponsored: boolean;
    accountBalanceWei: string;
  };
  expect(receipt.sponsored).toBe(true);
  expect(receipt.accountBalanceWei).toBe('0');
  expect((await provider.getTransactionReceipt(receipt.transactionHash))?.status).toBe(1);
  expect(await provider.getCode(smart.address)).not.toBe('0x');
  expect(await provider.getBalance(smart.address)).toBe(0n);
  expect(wallet.submitted.slice(-3).map((entry) => entry.method)).toEqual([
    'eth_prepareUserOperation',
    'eth_patchUserOperation',
    'eth_signUserOperation',
  ]);
  await screenshot(page, SCREENSHOT_DIR, 'evm-user-operation');
});

it('the page origin can manage accounts but never submit a signing request itself', async () => {
  const refused = await wallet.handle(
    'wallet_invokeKeyring',
    {
      snapId: wallet.snapId,
      request: {
        method: 'keyring_submitRequest',
        params: {
          id: '33333333-3333-4333-8333-333333333333',
          scope: 'eip155:31337',
          account: '33333333-3333-4333-8333-333333333333',
          origin: SITE_ORIGIN,
          request: { method: 'personal_sign', params: ['0x00', '0x00'] },
        },
      },
    },
    SITE_ORIGIN,
  );
  expect(refused.error?.code).toBe(4100);
});
