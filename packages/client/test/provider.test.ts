import {
  FLASK_RDNS,
  METAMASK_RDNS,
  StarknetSnapClient,
  WalletNotFoundError,
  discoverProvider,
} from '../src';
import { FakeProvider, FakeWindow, announceOnRequest } from './fake-provider';

describe('EIP-6963 discovery', () => {
  it('prefers MetaMask Flask over MetaMask, whatever the announcement order', async () => {
    const win = new FakeWindow();
    const metamask = new FakeProvider();
    const flask = new FakeProvider();
    announceOnRequest(win, METAMASK_RDNS, metamask);
    announceOnRequest(win, 'com.other.wallet', new FakeProvider());
    announceOnRequest(win, FLASK_RDNS, flask);
    const found = await discoverProvider({ window: win, timeoutMs: 50 });
    expect(found?.source).toBe(FLASK_RDNS);
    expect(found?.provider).toBe(flask);
  });

  it('takes MetaMask when Flask is absent, and ignores other wallets', async () => {
    const win = new FakeWindow();
    const metamask = new FakeProvider();
    announceOnRequest(win, 'com.other.wallet', new FakeProvider());
    announceOnRequest(win, METAMASK_RDNS, metamask);
    win.ethereum = new FakeProvider();
    const found = await discoverProvider({ window: win, timeoutMs: 20 });
    expect(found?.source).toBe(METAMASK_RDNS);
    expect(found?.provider).toBe(metamask);
  });

  it('accepts an announcement that arrives after the request, within the timeout', async () => {
    const win = new FakeWindow();
    const flask = new FakeProvider();
    win.addEventListener('eip6963:requestProvider', () => {
      setTimeout(() => {
        win.dispatchEvent(
          new CustomEvent('eip6963:announceProvider', {
            detail: {
              info: { uuid: 'u', name: 'Flask', icon: '', rdns: FLASK_RDNS },
              provider: flask,
            },
          }),
        );
      }, 5);
    });
    const found = await discoverProvider({ window: win, timeoutMs: 200 });
    expect(found?.provider).toBe(flask);
  });

  it('falls back to window.ethereum when nothing is announced', async () => {
    const win = new FakeWindow();
    win.ethereum = new FakeProvider();
    const found = await discoverProvider({ window: win, timeoutMs: 10 });
    expect(found?.source).toBe('window.ethereum');
    expect(found?.provider).toBe(win.ethereum);
  });

  it('ignores malformed announcements and returns null when there is no wallet', async () => {
    const win = new FakeWindow();
    win.addEventListener('eip6963:requestProvider', () => {
      win.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: {} } }));
    });
    expect(await discoverProvider({ window: win, timeoutMs: 10 })).toBeNull();
  });

  it('StarknetSnapClient.discover throws a plain WalletNotFoundError without a wallet', async () => {
    const win = new FakeWindow();
    await expect(StarknetSnapClient.discover({ window: win, timeoutMs: 5 })).rejects.toThrow(
      WalletNotFoundError,
    );
    await expect(StarknetSnapClient.discover({ window: win, timeoutMs: 5 })).rejects.toThrow(
      /Install MetaMask Flask/,
    );
  });

  it('StarknetSnapClient.discover builds a client on the chosen provider', async () => {
    const win = new FakeWindow();
    const flask = new FakeProvider();
    announceOnRequest(win, FLASK_RDNS, flask);
    const client = await StarknetSnapClient.discover({
      window: win,
      snapId: 'npm:x',
      timeoutMs: 5,
    });
    expect(client.provider).toBe(flask);
    expect(client.snapId).toBe('npm:x');
  });
});
