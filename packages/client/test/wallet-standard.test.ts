/**
 * The Wallet Standard wallet, found the way dapps find it: @wallet-standard/app's getWallets()
 * and get-starknet v5's isStarknetWallet(), on a window that is a real EventTarget.
 */
import type { Wallet } from '@wallet-standard/base';
import type { StandardEventsChangeProperties } from '@wallet-standard/features';

import {
  MAINNET_CHAIN_ID,
  StarknetSnapClient,
  TESTNET_CHAIN_ID,
  createStarknetWindowObject,
  registerStarknetWallet,
  setupStarknetSnap,
  type WalletWithStarknetFeatures,
} from '../src';
import { FakeProvider, announceOnRequest, type FakeWindow } from './fake-provider';

// A window for the Wallet Standard's events; getWallets() is required after it exists.
(globalThis as { window?: unknown }).window = new EventTarget();
const { getWallets } = require('@wallet-standard/app') as typeof import('@wallet-standard/app');
// get-starknet v5's own check; its subpath export is beyond TypeScript's classic resolution.
const { isStarknetWallet } = require('@starknet-io/get-starknet-wallet-standard/features') as {
  isStarknetWallet(wallet: Wallet): boolean;
};

const SNAP_ID = 'local:http://127.0.0.1:1';

function fakeSnapWallet(name = 'MetaMask Starknet Snap') {
  const provider = new FakeProvider();
  let chainId = TESTNET_CHAIN_ID;
  provider.walletMethods.set('wallet_getSnaps', () => ({ [SNAP_ID]: { id: SNAP_ID } }));
  provider.snapMethods.set('l2_getCurrentNetwork', () => ({ name: 'x', chainId }));
  provider.snapMethods.set('l2_switchNetwork', (p) => {
    chainId = (p as { chainId: string }).chainId;
    return true;
  });
  provider.snapMethods.set('l2_createAccount', (p) => ({
    address: `0xacc-${(p as { chainId: string }).chainId}`,
    addressIndex: 0,
  }));
  const client = new StarknetSnapClient({ provider, snapId: SNAP_ID });
  return createStarknetWindowObject(client, { name });
}

function ours(name: string): WalletWithStarknetFeatures {
  const found = getWallets()
    .get()
    .find((wallet: Wallet) => wallet.name === name);
  if (!found || !isStarknetWallet(found)) throw new Error(`${name} is not registered`);
  return found as WalletWithStarknetFeatures;
}

describe('registerStarknetWallet', () => {
  it('registers a Starknet wallet that getWallets() finds (before or after the app), and unregisters it', () => {
    const before = registerStarknetWallet(fakeSnapWallet('Before app'));
    const wallets = getWallets(); // the app starts here: it asks registered wallets to announce
    const after = registerStarknetWallet(fakeSnapWallet('After app'));
    expect(wallets.get().map((w) => w.name)).toEqual(
      expect.arrayContaining(['Before app', 'After app']),
    );
    const wallet = ours('Before app');
    expect(wallet.version).toBe('1.0.0');
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(wallet.chains).toEqual(['starknet:SN_MAIN', 'starknet:SN_SEPOLIA']);
    const api = wallet.features['starknet:walletApi'];
    expect(api.version).toBe('1.0.0');
    expect(api.id).toBe('metamask-starknet-snap');
    expect(api.walletVersion).toBe('1.0.0');
    before();
    after();
    expect(wallets.get().map((w) => w.name)).not.toContain('Before app');
    expect(wallets.get().map((w) => w.name)).not.toContain('After app');
  });

  it('connect gives the account on starknet:SN_SEPOLIA; a switch emits change; disconnect empties it', async () => {
    const unregister = registerStarknetWallet(fakeSnapWallet('Events'));
    const wallet = ours('Events');
    const changes: StandardEventsChangeProperties[] = [];
    const off = wallet.features['standard:events'].on('change', (c) => changes.push(c));

    await expect(wallet.features['standard:connect'].connect({ silent: true })).resolves.toEqual({
      accounts: [],
    });
    const { accounts } = await wallet.features['standard:connect'].connect();
    expect(accounts.map((a) => [a.address, a.chains])).toEqual([
      [`0xacc-${TESTNET_CHAIN_ID}`, ['starknet:SN_SEPOLIA']],
    ]);
    expect(wallet.accounts).toHaveLength(1);

    const request = wallet.features['starknet:walletApi'].request;
    await expect(
      request({ type: 'wallet_switchStarknetChain', params: { chainId: MAINNET_CHAIN_ID } }),
    ).resolves.toBe(true);
    const last = changes.at(-1)?.accounts?.[0];
    expect([last?.address, last?.chains]).toEqual([
      `0xacc-${MAINNET_CHAIN_ID}`,
      ['starknet:SN_MAIN'],
    ]);

    await wallet.features['standard:disconnect'].disconnect();
    expect(wallet.accounts).toEqual([]);
    expect(changes.at(-1)).toEqual({ accounts: [] });
    await expect(request({ type: 'wallet_getPermissions' })).resolves.toEqual([]);
    off();
    unregister();
  });
});

describe('setupStarknetSnap', () => {
  it('discovers MetaMask Flask (EIP-6963), registers the wallet and window.starknet_<id>; unregister undoes both', async () => {
    const provider = new FakeProvider();
    provider.walletMethods.set('wallet_getSnaps', () => ({ [SNAP_ID]: { id: SNAP_ID } }));
    provider.snapMethods.set('l2_getCurrentNetwork', () => ({
      name: 'x',
      chainId: TESTNET_CHAIN_ID,
    }));
    provider.snapMethods.set('l2_createAccount', () => ({ address: '0xabc', addressIndex: 0 }));
    const win = window as unknown as FakeWindow;
    announceOnRequest(win, 'io.metamask.flask', provider);
    const { wallet, client, unregister } = await setupStarknetSnap({
      snapId: SNAP_ID,
      name: 'Set up',
      timeoutMs: 100,
    });
    expect(client.provider).toBe(provider);
    const globals = window as unknown as Record<string, unknown>;
    expect(globals['starknet_metamask-starknet-snap']).toBe(wallet);
    const registered = ours('Set up');
    await expect(registered.features['standard:connect'].connect()).resolves.toMatchObject({
      accounts: [{ address: '0xabc', chains: ['starknet:SN_SEPOLIA'] }],
    });
    unregister();
    expect(globals['starknet_metamask-starknet-snap']).toBeUndefined();
    expect(
      getWallets()
        .get()
        .map((w) => w.name),
    ).not.toContain('Set up');
  });
});
