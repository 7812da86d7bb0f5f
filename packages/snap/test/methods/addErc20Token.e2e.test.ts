/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_addErc20Token against a real node (packages/devnet through the testkit): the watch list's
 * name, symbol and decimals are read from the token contract (tokens deployed with the testkit's
 * deployToken, ETH and STRK of genesis), a site's values that disagree are refused, and the home
 * page lists per site which tokens it added. docs/security.md#nothing-signed-that-was-not-shown:
 * one site used to store a wrong decimals for a real token, and every site's dialogs formatted
 * amounts with it.
 */
import type { Json } from '@metamask/snaps-sdk';
import { deployToken, ETH_TOKEN } from '@l2wallet/testkit';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  jsonParams,
  MAINNET,
  pad,
  resultOf,
  TESTNET,
} from '../harness/snap';
import { REV1_TYPED_DATA } from '../fixtures/typedData';
import {
  closeChain,
  closeChainDevnet,
  dialogOf,
  installChainSnap,
  rpcCalls,
  serveE2eSnap,
  startChainDevnet,
  STRK,
  type DevnetServer,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

const SITE_A = 'https://a.example';
const SITE_B = 'https://hostile.example';

type Token = {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  chainId: string;
  logo?: string;
};

let devnet: DevnetServer;
let server: SnapServer;
let usdc: string;
let dai: string;

beforeAll(async () => {
  server = await serveE2eSnap();
  devnet = await startChainDevnet();
  usdc = pad(await deployToken(devnet.rpcUrl, { name: 'USD Coin', symbol: 'USDC', decimals: 6 }));
  dai = pad(await deployToken(devnet.rpcUrl, { name: 'Dai', symbol: 'DAI', decimals: 18 }));
}, 300_000);

afterAll(() => closeChain(devnet, server));

const USDC_PARAMS = (): Record<string, Json> => ({
  tokenAddress: usdc,
  tokenName: 'USD Coin',
  tokenSymbol: 'USDC',
  tokenDecimals: 6,
  chainId: TESTNET,
});

/** Adds a token from `origin`, approving its dialog; the result and the dialog's text. */
async function addToken(
  snap: Snap,
  params: Record<string, Json>,
  origin?: string,
): Promise<{ token: Token; text: string }> {
  const pending = snap.request({ origin, method: 'l2_addErc20Token', params: jsonParams(params) });
  const ui = asConfirmation(await pending.getInterface());
  const text = dialogText(ui.content);
  await ui.ok();
  return { token: resultOf<Token>(await pending), text };
}

describe('the watch list is read from the token contract', () => {
  it("stores the contract's name, symbol and decimals; the dialog says where they come from", async () => {
    const snap = await installChainSnap(server.snapId);
    const { token, text } = await addToken(
      snap,
      { ...USDC_PARAMS(), tokenName: 'My dollars', tokenLogo: 'https://example.com/usdc.png' },
      SITE_A,
    );
    expect(token).toEqual({
      address: usdc,
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      chainId: TESTNET,
      logo: 'https://example.com/usdc.png',
    });
    expect(text).toContain('Requested by\na.example');
    expect(text).toContain('Add token');
    expect(text).toContain('Symbol and decimals are read from the token contract on Testnet');
    for (const shown of [usdc, 'USD Coin', 'USDC', 'Decimals\n6', 'Testnet']) {
      expect(text).toContain(shown);
    }
    // Decimals left out: the contract's.
    const again = await addToken(snap, { ...USDC_PARAMS(), tokenDecimals: undefined } as never);
    expect(again.text).toContain('Update token');
    expect(again.token.decimals).toBe(6);
  });

  // The rows are refused before any dialog and store nothing: they share one snap, installed for
  // this describe, in which nothing else installs one (snaps-jest stops a snap at the next
  // install; jest keeps a describe's tests together even when it shuffles them).
  describe('disagreeing with the contract', () => {
    let refusing: Snap;
    beforeAll(async () => {
      refusing = await installChainSnap(server.snapId);
    });

    it.each([
      [
        'decimals',
        { tokenDecimals: 18 },
        /"tokenDecimals" disagrees with the token contract on Testnet: its decimals\(\) is 6, got 18/u,
      ],
      ['decimals as a string', { tokenDecimals: '8' }, /"tokenDecimals" disagrees .*is 6, got 8/u],
      [
        'symbol',
        { tokenSymbol: 'USDT' },
        /"tokenSymbol" disagrees with the token contract on Testnet: its symbol\(\) is "USDC", got "USDT"/u,
      ],
    ])(
      "a site's %s that disagree with the contract are refused, before any dialog",
      async (_label, override, message) => {
        expectError(
          await refusing.request({
            origin: SITE_B,
            method: 'l2_addErc20Token',
            params: jsonParams({ ...USDC_PARAMS(), ...override }),
          }),
          -32602,
          message,
        );
      },
    );
  });

  it.each([
    [ETH_TOKEN, 'ETH', 6],
    [STRK, 'STRK', 6],
  ])(
    'the preloaded %s: another decimals or symbol is refused by the same rule',
    async (address, symbol, decimals) => {
      const snap = await installChainSnap(server.snapId);
      const params = {
        tokenAddress: address,
        tokenName: symbol,
        tokenSymbol: symbol,
        chainId: TESTNET,
      };
      expectError(
        await snap.request({
          origin: SITE_B,
          method: 'l2_addErc20Token',
          params: { ...params, tokenDecimals: decimals },
        }),
        -32602,
        /"tokenDecimals" disagrees with the token contract on Testnet: its decimals\(\) is 18/u,
      );
      expectError(
        await snap.request({
          origin: SITE_B,
          method: 'l2_addErc20Token',
          params: { ...params, tokenSymbol: 'USDC' },
        }),
        -32602,
        new RegExp(`its symbol\\(\\) is "${symbol}", got "USDC"`, 'u'),
      );
      // The right values are an update of the watched entry.
      expect((await addToken(snap, params, SITE_B)).text).toContain('Update token');
    },
  );

  it("one site's token cannot skew the amounts another site's dialogs show", async () => {
    const snap = await installChainSnap(server.snapId);
    // The hostile site adds the real USDC (it can only add the contract's values) ...
    await addToken(snap, { ...USDC_PARAMS(), tokenDecimals: undefined } as never, SITE_B);
    // ... and the user's own site signs a 1.5 USDC token amount: shown with the contract's 6.
    const account = await expectedAccount(DEFAULT_SRP, 0);
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 0 } }));
    const signing = snap.request({
      method: 'l2_signMessage',
      params: {
        signerAddress: account.address,
        typedDataMessage: {
          types: {
            StarknetDomain: REV1_TYPED_DATA.types.StarknetDomain,
            Pay: [{ name: 'amount', type: 'TokenAmount' }],
          },
          primaryType: 'Pay',
          domain: REV1_TYPED_DATA.domain,
          message: { amount: { token_address: usdc, amount: { low: '1500000', high: '0' } } },
        },
      },
    });
    const dialog = await dialogOf(signing);
    expect(dialogText(dialog.content)).toContain('amount.amount (u256)\n1.5 USDC (1500000)');
    await dialog.cancel();
    await signing;
  });

  it('refuses an address with no contract, and a contract that is not a token', async () => {
    const snap = await installChainSnap(server.snapId);
    expectError(
      await snap.request({
        origin: SITE_B,
        method: 'l2_addErc20Token',
        params: { ...USDC_PARAMS(), tokenAddress: pad(0x1234n) },
      }),
      -32602,
      /"tokenAddress" has no contract on Testnet/u,
    );
    expectError(
      await snap.request({
        origin: SITE_B,
        method: 'l2_addErc20Token',
        params: { ...USDC_PARAMS(), tokenAddress: devnet.predeployedAccounts[0].address },
      }),
      -32602,
      /"tokenAddress" is not an ERC-20 token on Testnet: its contract does not answer symbol\(\)/u,
    );
  });

  it('reads a token once per execution, and a node that cannot answer is -32002', async () => {
    const snap = await installChainSnap(server.snapId);
    await addToken(snap, USDC_PARAMS(), SITE_A);
    const before = rpcCalls(devnet).starknet_call ?? 0;
    await addToken(snap, USDC_PARAMS(), SITE_B);
    expect(rpcCalls(devnet).starknet_call ?? 0).toBe(before);

    await closeChainDevnet(devnet);
    try {
      expectError(
        await snap.request({
          method: 'l2_addErc20Token',
          params: { ...USDC_PARAMS(), tokenAddress: dai, tokenSymbol: 'DAI', tokenDecimals: 18 },
        }),
        -32002,
      );
    } finally {
      devnet = await startChainDevnet();
      usdc = pad(
        await deployToken(devnet.rpcUrl, { name: 'USD Coin', symbol: 'USDC', decimals: 6 }),
      );
      dai = pad(await deployToken(devnet.rpcUrl, { name: 'Dai', symbol: 'DAI', decimals: 18 }));
    }
  });

  it('keeps watch lists per chain: a token is read on the chain it is added for', async () => {
    const snap = await installChainSnap(server.snapId);
    await addToken(snap, USDC_PARAMS(), SITE_A);
    // Mainnet's node is a closed port in the test builds: nothing to read there, nothing added.
    expectError(
      await snap.request({
        origin: SITE_A,
        method: 'l2_addErc20Token',
        params: { ...USDC_PARAMS(), chainId: MAINNET },
      }),
      -32002,
    );
  });

  it('answers 4001 and stores nothing when the user declines', async () => {
    const snap = await installChainSnap(server.snapId);
    const pending = snap.request({ method: 'starkNet_addErc20Token', params: USDC_PARAMS() });
    await asConfirmation(await pending.getInterface()).cancel();
    expectError(await pending, 4001);
    expect((await addToken(snap, USDC_PARAMS())).text).toContain('Add token');
  });

  it('concurrent adds lose no record', async () => {
    const snap = await installChainSnap(server.snapId);
    const tokens = [
      { address: usdc, symbol: 'USDC' },
      { address: dai, symbol: 'DAI' },
      { address: STRK, symbol: 'STRK' },
      { address: ETH_TOKEN, symbol: 'ETH' },
    ];
    const pending = tokens.map(({ address, symbol }) =>
      snap.request({
        method: 'l2_addErc20Token',
        params: { tokenAddress: address, tokenName: symbol, tokenSymbol: symbol, chainId: TESTNET },
      }),
    );
    // The simulator shows one dialog at a time: approve each as it comes, so the writes overlap.
    for (const request of pending) {
      await (await dialogOf(request)).ok();
    }
    const added = await Promise.all(pending.map(async (request) => resultOf<Token>(await request)));
    expect(added.map((token) => token.symbol)).toEqual(['USDC', 'DAI', 'STRK', 'ETH']);
    const home = dialogText((await snap.onHomePage()).getInterface().content);
    for (const { address, symbol } of tokens) {
      expect(home).toContain(`${symbol} ${pad(address)} (Testnet)`);
    }
  });

  it('the home page shows, per site, the tokens it added', async () => {
    const snap = await installChainSnap(server.snapId);
    await addToken(snap, USDC_PARAMS(), SITE_A);
    await addToken(
      snap,
      { tokenAddress: dai, tokenName: 'Dai', tokenSymbol: 'DAI', chainId: TESTNET },
      SITE_B,
    );
    await addToken(snap, USDC_PARAMS(), SITE_B);
    const text = dialogText((await snap.onHomePage()).getInterface().content);
    expect(text).toContain(
      `Site\na.example\nOrigin\n${SITE_A}\nAccounts\nnone\nSince\nunknown\nTokens added\nUSDC ${usdc} (Testnet)`,
    );
    expect(text).toContain(
      `Site\nhostile.example\nOrigin\n${SITE_B}\nAccounts\nnone\nSince\nunknown\nTokens added\nUSDC ${usdc} (Testnet), DAI ${dai} (Testnet)`,
    );
  });
});

// Rows that touch no state and fail validation before the node is asked: one shared snap.
describe('invalid params', () => {
  let shared: Snap;
  beforeAll(async () => {
    shared = await installChainSnap(server.snapId);
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
    const params = jsonParams({ ...USDC_PARAMS(), ...override });
    expectError(await shared.request({ method: 'l2_addErc20Token', params }), -32602, message);
  });
});
