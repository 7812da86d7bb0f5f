/**
 * Headless Chromium for the browser tests, driven through playwright-core (no browser download):
 * the Debian chromium package, or the binary CHROMIUM_PATH names. A missing one is refused at
 * once with its install command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';

import { injectedProviderScript } from './flask';
import { findExecutable, installHint } from '../prerequisites';
import { profiled } from '../profile';

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** The Chromium the browser tests use: CHROMIUM_PATH, else `chromium` on PATH. */
export function chromiumPath(): string {
  const wanted = process.env.CHROMIUM_PATH ?? 'chromium';
  const found = findExecutable(wanted);
  if (!found) {
    throw new Error(
      `No Chromium at ${wanted}${process.env.CHROMIUM_PATH ? ' (CHROMIUM_PATH)' : ' on PATH'}. ${installHint('chromium')}`,
    );
  }
  return found;
}

/** Headless Chromium with a fresh profile (--user-data-dir) and no background traffic. */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const executablePath = chromiumPath();
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'browser-test-profile-'));
  const context = await profiled('service-start', 'chromium', () =>
    chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    }),
  );
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page's injected wallet calls on the Node side: SimulatedFlask, SimulatedKeyringFlask. */
export interface PageWallet {
  handle(method: string, params: unknown, origin: string): Promise<unknown>;
}

/**
 * Every page of `context` finds `wallet` announced as MetaMask Flask (EIP-6963,
 * injectedProviderScript): its requests reach `wallet.handle` with the page's origin, through the
 * page binding `bindingName`.
 */
export async function injectWallet(
  context: BrowserContext,
  wallet: PageWallet,
  bindingName = '__flaskRequest',
): Promise<void> {
  await context.exposeBinding(bindingName, async ({ page }, body: string) => {
    const { method, params } = JSON.parse(body) as { method: string; params?: unknown };
    return JSON.stringify(await wallet.handle(method, params, new URL(page.url()).origin));
  });
  await context.addInitScript(injectedProviderScript(bindingName));
}

/**
 * Only loopback traffic leaves `context`: anything else is aborted, so a stray request fails
 * loudly.
 */
export async function loopbackOnly(context: BrowserContext): Promise<void> {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort());
}

/** Waits until the locator's visible text matches; the failure message shows what was there. */
export async function waitForText(
  locator: Locator,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if ((await locator.count()) > 0) {
      last =
        (await locator
          .first()
          .innerText()
          .catch(() => '')) ?? '';
      if (pattern.test(last)) return last;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${pattern} in visible text; last text was:\n${last}`);
}

/** A full-page screenshot `name`.png in `dir`; returns the file. */
export async function screenshot(page: Page, dir: string, name: string): Promise<string> {
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
