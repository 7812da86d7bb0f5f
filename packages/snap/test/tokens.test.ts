import { ETH_TOKEN as ETH, STRK_TOKEN as STRK } from '@l2wallet/testkit';
import { installSnap } from '@metamask/snaps-jest';

import {
  asConfirmation,
  dialogText,
  expectError,
  jsonParams,
  MAINNET,
  pad,
  resultOf,
  TESTNET,
} from './helpers';

const TOKEN = '0x53c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8';

type Snap = Awaited<ReturnType<typeof installSnap>>;
type Token = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  chainId: string;
  logo?: string;
};

/** Adds a token, approving its dialog; returns the result and the dialog's text. */
async function addToken(
  snap: Snap,
  params: Record<string, unknown>,
): Promise<{ token: Token; text: string }> {
  const pending = snap.request({ method: 'l2_addErc20Token', params: jsonParams(params) });
  const ui = asConfirmation(await pending.getInterface());
  expect(ui.type).toBe('confirmation');
  const text = dialogText(ui.content);
  await ui.ok();
  return { token: resultOf<Token>(await pending), text };
}

const USDC = {
  tokenAddress: TOKEN,
  tokenName: 'USD Coin',
  tokenSymbol: 'USDC',
  tokenDecimals: 6,
  chainId: TESTNET,
};

describe('l2_addErc20Token', () => {
  it('shows the token, stores it and returns the token object', async () => {
    const snap = await installSnap();
    const { token, text } = await addToken(snap, USDC);
    expect(token).toEqual({
      address: pad(TOKEN),
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      chainId: TESTNET,
    });
    expect(text).toContain('Add token');
    for (const shown of [pad(TOKEN), 'USD Coin', 'USDC', '6', 'Testnet']) {
      expect(text).toContain(shown);
    }
    // Stored: adding it again is an update of the same entry.
    const again = await addToken(snap, { ...USDC, tokenName: 'USD Coin (bridged)' });
    expect(again.text).toContain('Update token');
    expect(again.token.name).toBe('USD Coin (bridged)');
  });

  it('accepts decimals as a string, defaults them to 18, and keeps a logo', async () => {
    const snap = await installSnap();
    expect((await addToken(snap, { ...USDC, tokenDecimals: '8' })).token.decimals).toBe(8);
    const { tokenDecimals: _d, ...withoutDecimals } = USDC;
    const { token } = await addToken(snap, {
      ...withoutDecimals,
      tokenAddress: '0x1234',
      tokenLogo: 'https://example.com/logo.png',
    });
    expect(token).toEqual({
      address: pad('0x1234'),
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 18,
      chainId: TESTNET,
      logo: 'https://example.com/logo.png',
    });
    expect((await addToken(snap, { ...USDC, tokenDecimals: 0 })).token.decimals).toBe(0);
    expect((await addToken(snap, { ...USDC, tokenDecimals: '255' })).token.decimals).toBe(255);
  });

  it('has ETH and STRK preloaded on both networks', async () => {
    const snap = await installSnap();
    for (const chainId of [TESTNET, MAINNET]) {
      for (const [address, symbol] of [
        [ETH, 'ETH'],
        [STRK, 'STRK'],
      ]) {
        const { text } = await addToken(snap, {
          tokenAddress: address,
          tokenName: symbol,
          tokenSymbol: symbol,
          tokenDecimals: 18,
          chainId,
        });
        expect(text).toContain('Update token');
      }
    }
  });

  it('shows old -> new for name, symbol and decimals when a watched token is changed', async () => {
    const snap = await installSnap();
    await addToken(snap, USDC);
    const { text, token } = await addToken(snap, {
      ...USDC,
      tokenName: 'Fake Coin',
      tokenSymbol: 'FAKE',
      tokenDecimals: 18,
    });
    expect(text).toContain('Update token');
    expect(text).toContain('USD Coin -> Fake Coin');
    expect(text).toContain('USDC -> FAKE');
    expect(text).toContain('6 -> 18');
    expect(token).toMatchObject({ name: 'Fake Coin', symbol: 'FAKE', decimals: 18 });
    // A re-add that changes nothing says so.
    const same = await addToken(snap, {
      ...USDC,
      tokenName: 'Fake Coin',
      tokenSymbol: 'FAKE',
      tokenDecimals: 18,
    });
    expect(same.text).toContain('FAKE (unchanged)');
  });

  it.each([
    [ETH, 'ETH', TESTNET],
    [STRK, 'STRK', MAINNET],
  ])(
    'refuses to change the symbol or decimals of preloaded %s',
    async (address, symbol, chainId) => {
      const snap = await installSnap();
      const params = {
        tokenAddress: address,
        tokenName: 'Renamed',
        tokenSymbol: symbol,
        tokenDecimals: 18,
        chainId,
      };
      expectError(
        await snap.request({
          method: 'l2_addErc20Token',
          params: { ...params, tokenSymbol: 'USDC' },
        }),
        -32602,
        new RegExp(`"tokenSymbol" cannot change the symbol of the preloaded ${symbol} token`, 'u'),
      );
      expectError(
        await snap.request({ method: 'l2_addErc20Token', params: { ...params, tokenDecimals: 6 } }),
        -32602,
        new RegExp(
          `"tokenDecimals" cannot change the decimals of the preloaded ${symbol} token`,
          'u',
        ),
      );
      // Renaming is allowed, and the dialog shows the old name.
      const { text } = await addToken(snap, params);
      expect(text).toMatch(/-> Renamed/u);
      expect(text).toContain(`${symbol} (unchanged)`);
    },
  );

  it('keeps watch lists per chain', async () => {
    const snap = await installSnap();
    await addToken(snap, USDC);
    const { text } = await addToken(snap, { ...USDC, chainId: MAINNET });
    expect(text).toContain('Add token');
  });

  it('answers 4001 and stores nothing when the user declines', async () => {
    const snap = await installSnap();
    const pending = snap.request({ method: 'starkNet_addErc20Token', params: USDC });
    await asConfirmation(await pending.getInterface()).cancel();
    expectError(await pending, 4001);
    const { text } = await addToken(snap, USDC);
    expect(text).toContain('Add token');
  });

  // The rows touch no state: they share one installed snap (snaps-jest runs one snap at a time,
  // so it is installed when this block starts).
  describe('invalid params', () => {
    let shared: Awaited<ReturnType<typeof installSnap>>;
    beforeAll(async () => {
      shared = await installSnap();
    });

    it.each([
      ['no tokenAddress', { tokenAddress: undefined }, /"tokenAddress" is required/u],
      ['a malformed tokenAddress', { tokenAddress: 'USDC' }, /"tokenAddress".*Starknet address/u],
      ['a zero tokenAddress', { tokenAddress: '0x0' }, /"tokenAddress"/u],
      ['no tokenName', { tokenName: undefined }, /"tokenName" is required/u],
      ['an empty tokenName', { tokenName: '  ' }, /"tokenName".*1 to 64/u],
      ['a tokenName too long', { tokenName: 'x'.repeat(65) }, /"tokenName"/u],
      ['a non-ASCII tokenName', { tokenName: 'Ünicode' }, /"tokenName".*ASCII/u],
      ['no tokenSymbol', { tokenSymbol: undefined }, /"tokenSymbol" is required/u],
      ['a tokenSymbol with a space', { tokenSymbol: 'US DC' }, /"tokenSymbol".*without spaces/u],
      ['a tokenSymbol too long', { tokenSymbol: 'ABCDEFGHIJKLMNOPQ' }, /"tokenSymbol"/u],
      ['decimals 256', { tokenDecimals: 256 }, /"tokenDecimals".*0 to 255/u],
      ['decimals -1', { tokenDecimals: -1 }, /"tokenDecimals"/u],
      ['decimals 1.5', { tokenDecimals: 1.5 }, /"tokenDecimals"/u],
      ['decimals "abc"', { tokenDecimals: 'abc' }, /"tokenDecimals"/u],
      ['decimals "256"', { tokenDecimals: '256' }, /"tokenDecimals"/u],
      ['a logo that is not https', { tokenLogo: 'javascript:alert(1)' }, /"tokenLogo".*https/u],
      ['a malformed account address', { address: 'my account' }, /"address".*Starknet address/u],
      ['no chainId', { chainId: undefined }, /"chainId" is required/u],
      ['an unknown chainId', { chainId: '0x1' }, /"chainId"/u],
    ])('rejects %s with -32602', async (_label, override, message) => {
      const params = JSON.parse(JSON.stringify({ ...USDC, ...override }));
      expectError(await shared.request({ method: 'l2_addErc20Token', params }), -32602, message);
    });
  });
});
