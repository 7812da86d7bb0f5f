/**
 * The Gateway page in headless Chromium against the real gateway (packages/gateway dist, run by
 * its CLI) in front of a real anvil: paste a key, see today's credits, try the six SPEC methods
 * and watch the usage follow, checked against the gateway's own ledger. Reuses the site build of
 * this jest run when it is newer than the site's sources.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  freePort,
  spawnService,
  startAnvil,
  type AnvilService,
  type Service,
} from '@l2wallet/localstack';
import type { Page } from 'playwright-core';
import { REPO_ROOT, SCREENSHOT_DIR, reuseOrBuildSite } from './harness/build';
import { launchChromium, screenshot, waitForText, type LaunchedBrowser } from './harness/browser';
import { serveDirectory, type StaticServer } from './harness/static-server';

const GATEWAY_DIR = path.join(REPO_ROOT, 'packages/gateway');
const CLI = path.join(GATEWAY_DIR, 'dist/cli.js');

async function rpc(url: string, method: string, params: unknown[] = []) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()).result;
}

let anvil: AnvilService;
let gateway: Service;
let gatewayUrl: string;
let siteServer: StaticServer;
let browser: LaunchedBrowser;
let page: Page;
let configFile: string;
let key: string;

beforeAll(async () => {
  if (!existsSync(CLI)) {
    execFileSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: GATEWAY_DIR,
      },
    );
  }
  const [site] = await Promise.all([
    reuseOrBuildSite(),
    (async () => {
      anvil = await startAnvil();
      const [from, to] = await rpc(anvil.url, 'eth_accounts');
      for (let i = 1; i <= 3; i++) {
        await rpc(anvil.url, 'eth_sendTransaction', [{ from, to, value: `0x${i}` }]);
      }
    })(),
  ]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'site-gateway-'));
  configFile = path.join(dir, 'gateway.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      listen: { host: '127.0.0.1', port: 1 },
      ledger: { sqlite: 'gateway.db' },
      chains: [{ name: 'local', hosts: ['*'], upstreams: [anvil.url] }],
    }),
  );
  key = execFileSync(process.execPath, [
    CLI,
    'keys',
    'create',
    '--config',
    configFile,
    '--plan',
    'developer',
  ])
    .toString()
    .trim()
    .split('\n')
    .at(-1) as string;
  const port = await freePort();
  gateway = await spawnService({
    name: 'l2-gateway',
    command: process.execPath,
    args: [CLI, 'serve', '--config', configFile, '--port', String(port)],
    readyLine: /listening on/,
  });
  gatewayUrl = `http://127.0.0.1:${port}`;
  siteServer = await serveDirectory(site);
  browser = await launchChromium();
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await siteServer?.close();
  await gateway?.stop();
  await anvil?.stop();
});

it("shows a key's credits and charges each of the six SPEC methods tried from the page", async () => {
  await page.goto(`${siteServer.url}/gateway/?gateway=${encodeURIComponent(gatewayUrl)}`);
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
  // 80 for the eth_getBlockByNumber that found sample hashes, then the SPEC 8 costs.
  const expected = 80 + 150 + 150 + 80 + 80 + 80 + 150;
  await waitForText(page.getByTestId('gateway-totals'), new RegExp(`Used ${expected} credits`));
  await waitForText(page.getByTestId('gateway-methods'), /eth_getProof\s+150/);
  expect(await page.getByTestId('gateway-chart').locator('rect').count()).toBe(60);
  const ledger = JSON.parse(
    execFileSync(process.execPath, [CLI, 'keys', 'usage', key, '--config', configFile]).toString(),
  );
  expect(ledger.total).toBe(expected);
  expect(ledger.methods.eth_getTransactionByBlockHashAndIndex).toBe(150);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await screenshot(page, SCREENSHOT_DIR, 'gateway-usage');
});
