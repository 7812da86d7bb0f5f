/**
 * The Gateway page in headless Chromium against the real gateway (packages/gateway dist, run by
 * its CLI) in front of a real anvil: paste a key, see today's credits, try the six documented
 * methods (docs/interface/gateway.md#methods) and watch the usage follow, checked against the
 * gateway's own ledger; then calls on the gateway's Starknet chain (the devnet, by path prefix,
 * with starknet.js) show up under their own chain, and ?key= opens the page with the key filled in.
 * Reuses the site build of this jest run when it is newer than the site's sources.
 */
import { mkdirSync } from 'node:fs';
import {
  ensureSiteBuild,
  gatewayCli,
  launchChromium,
  rpc,
  screenshot,
  serveDirectory,
  startAnvil,
  startDevnet,
  startGatewayWithKey,
  waitForText,
  type AnvilService,
  type GatewayWithKey,
  type LaunchedBrowser,
  type StaticServer,
} from '@l2wallet/testkit';
import type { Page } from 'playwright-core';
import { RpcProvider } from 'starknet';
import { SCREENSHOT_DIR } from './harness/build';

let anvil: AnvilService;
let devnet: Awaited<ReturnType<typeof startDevnet>>;
let gateway: GatewayWithKey;
let gatewayUrl: string;
let siteServer: StaticServer;
let browser: LaunchedBrowser;
let page: Page;
let key: string;

beforeAll(async () => {
  const [site] = await Promise.all([
    ensureSiteBuild(),
    (async () => {
      anvil = await startAnvil();
      const [from, to] = await rpc<string[]>(anvil.url, 'eth_accounts');
      for (let i = 1; i <= 3; i++) {
        await rpc(anvil.url, 'eth_sendTransaction', [{ from, to, value: `0x${i}` }]);
      }
    })(),
  ]);
  devnet = await startDevnet();
  gateway = await startGatewayWithKey({
    upstream: anvil.url,
    keyOptions: ['--plan', 'developer'],
    config: {
      chains: [
        { name: 'local', hosts: ['*'], upstreams: [anvil.url] },
        {
          name: 'starknet-sepolia',
          protocol: 'starknet',
          hosts: ['starknet.localhost'],
          upstreams: [devnet.rpcUrl],
        },
      ],
    },
  });
  ({ key, url: gatewayUrl } = gateway);
  siteServer = await serveDirectory(site);
  browser = await launchChromium();
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await siteServer?.close();
  await gateway?.stop();
  await devnet?.stop();
  await anvil?.stop();
});

it("shows a key's credits and charges each of the six gateway methods tried from the page", async () => {
  await page.goto(`${siteServer.url}/gateway/?gateway=${encodeURIComponent(gatewayUrl)}`);
  // Typed before the page applied its URL parameters, the key would be reset to the default.
  await page.locator('[data-testid="gateway-key"][data-ready="true"]').waitFor();
  await page.getByTestId('gateway-key-input').fill('0'.repeat(32));
  await page.getByRole('button', { name: 'Show usage' }).click();
  await waitForText(page.getByTestId('gateway-error'), /invalid project id/);

  await page.getByTestId('gateway-key-input').fill(key);
  await page.getByRole('button', { name: 'Show usage' }).click();
  await waitForText(
    page.getByTestId('gateway-totals'),
    /Used 0 credits, 15,000,000 left of 15,000,000/,
  );

  const methods = [
    'eth_getTransactionByBlockNumberAndIndex',
    'eth_getTransactionByBlockHashAndIndex',
    'eth_getBlockByHash',
    'eth_call',
    'eth_getTransactionReceipt',
    'eth_getProof',
  ];
  for (const method of methods) {
    await page.getByRole('button', { name: method, exact: true }).click();
    await waitForText(
      page.getByTestId('gateway-answer'),
      new RegExp(`^${method} → HTTP 200[\\s\\S]*"result"`),
    );
  }
  // The last answer's credit headers, and the key's controls (the demo key has none).
  await waitForText(
    page.getByTestId('gateway-answer'),
    /^eth_getProof → HTTP 200 · 150 credits, \d+ left/,
  );
  await waitForText(page.getByTestId('gateway-controls'), /Secret\s+none[\s\S]*Origins\s+any/);
  // 80 for the eth_getBlockByNumber that found sample hashes, then the costs
  // (docs/interface/gateway.md#credits).
  const expected = 80 + 150 + 150 + 80 + 80 + 80 + 150;
  await waitForText(page.getByTestId('gateway-totals'), new RegExp(`Used ${expected} credits`));
  await waitForText(page.getByTestId('gateway-methods'), /eth_getProof\s+150/);
  expect(await page.getByTestId('gateway-chart').locator('rect').count()).toBe(60);
  const ledger = JSON.parse(
    (await gatewayCli(['keys', 'usage', key, '--config', gateway.configFile])).stdout,
  );
  expect(ledger.total).toBe(expected);
  expect(ledger.methods.eth_getTransactionByBlockHashAndIndex).toBe(150);

  // The same key on the Starknet chain: its usage is listed under that chain.
  const starknet = new RpcProvider({ nodeUrl: `${gatewayUrl}/starknet-sepolia/v3/${key}` });
  expect(await starknet.getChainId()).toBe('0x534e5f5345504f4c4941');
  await starknet.getBlockNumber();
  const usage = JSON.parse(
    (await gatewayCli(['keys', 'usage', key, '--config', gateway.configFile])).stdout,
  ) as { total: number; methods: Record<string, number> };
  const onStarknet = Object.entries(usage.methods)
    .filter(([method]) => method.startsWith('starknet_'))
    .reduce((sum, [, credits]) => sum + credits, 0);
  expect(usage.methods.starknet_chainId).toBe(5);
  expect(usage.methods.starknet_blockNumber).toBe(80);
  expect(usage.total).toBe(expected + onStarknet);
  await page.getByRole('button', { name: 'Show usage' }).click();
  await waitForText(page.getByTestId('gateway-totals'), new RegExp(`Used ${usage.total} credits`));
  await waitForText(
    page.getByTestId('gateway-chain-starknet'),
    new RegExp(`Starknet chain\\s+${onStarknet}`),
  );
  await waitForText(page.getByTestId('gateway-chain-starknet'), /starknet_blockNumber\s+80/);
  await waitForText(page.getByTestId('gateway-chain-evm'), new RegExp(`EVM chain\\s+${expected}`));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await screenshot(page, SCREENSHOT_DIR, 'gateway-usage');

  // ?key= (as npm start's build variables do) opens the page with the key filled in.
  await page.goto(
    `${siteServer.url}/gateway/?gateway=${encodeURIComponent(gatewayUrl)}&key=${key}`,
  );
  await page.waitForFunction(
    (k) =>
      (document.querySelector('[data-testid="gateway-key-input"]') as HTMLInputElement | null)
        ?.value === k,
    key,
  );
});
