import { installSnap } from '@metamask/snaps-jest';
import { ETH_TOKEN, STRK_TOKEN } from '@l2wallet/testkit';

import {
  accountRecordOf,
  asConfirmation,
  createGrantedAccount,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  installGranted,
  MAINNET,
  pad,
  responseOf,
  resultOf,
  TEST_ORIGIN,
  TESTNET,
} from '../harness/snap';
import { REV1_TYPED_DATA } from '../fixtures/typedData';
import { migrateState } from '../../src/state/migrations';
import { keepNonce, keptNonceOf } from '../../src/state/accessors';
import { createInitialState, STATE_VERSION, type SnapState } from '../../src/state/schema';

/**
 * How the sign-message dialog shows a TokenAmount of 1.5e18 units of `token` (the watch list's
 * symbol and decimals at work); the dialog is then declined.
 */
async function tokenAmountShown(
  request: Awaited<ReturnType<typeof installSnap>>['request'],
  signer: string,
  token: string,
  chainId: string,
): Promise<string> {
  const pending = request({
    method: 'l2_signMessage',
    params: {
      signerAddress: signer,
      chainId,
      typedDataMessage: {
        types: {
          StarknetDomain: REV1_TYPED_DATA.types.StarknetDomain,
          Pay: [{ name: 'amount', type: 'TokenAmount' }],
        },
        primaryType: 'Pay',
        domain: { ...REV1_TYPED_DATA.domain, chainId },
        message: {
          amount: { token_address: token, amount: { low: '1500000000000000000', high: '0' } },
        },
      },
    },
  });
  const ui = asConfirmation(await pending.getInterface());
  const text = dialogText(ui.content);
  await ui.cancel();
  await pending;
  const row = 'amount.amount (u256)\n';
  return text.slice(text.indexOf(row) + row.length).split('\n')[0];
}

describe('state under concurrency', () => {
  it('20 concurrent l2_createAccount calls lose no record', async () => {
    // The site holds indexes 0..20 already: no grant dialog (snaps-simulation shows one at a time).
    const { request } = await installGranted({ indexes: Array.from({ length: 21 }, (_, i) => i) });
    const created = await Promise.all(
      Array.from({ length: 20 }, async () =>
        resultOf<{ address: string; addressIndex: number }>(
          await request({ method: 'l2_createAccount' }),
        ),
      ),
    );
    const indexes = created.map((account) => account.addressIndex).sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(new Set(created.map((account) => account.address)).size).toBe(20);
    // Every record is in state: each address is known, and the next default index is 20.
    for (const account of created) {
      const expected = await expectedAccount(DEFAULT_SRP, account.addressIndex);
      expect(account.address).toBe(expected.address);
      expect(
        resultOf<string>(
          await request({
            method: 'l2_extractPublicKey',
            params: { userAddress: account.address },
          }),
        ),
      ).toBe(expected.publicKey);
    }
    expect(
      resultOf<{ addressIndex: number }>(await request({ method: 'l2_createAccount' }))
        .addressIndex,
    ).toBe(20);
  });
});

// Concurrent l2_addErc20Token calls (they read the token on chain):
// methods/addErc20Token.e2e.test.ts.

describe('state migrations', () => {
  it('reads state written before the schema had a version', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 3);
    const { request } = await installSnap({
      options: {
        state: {
          currentChainId: '0x534E5F4D41494E',
          accounts: {
            [TESTNET]: [accountRecordOf(account, TESTNET)],
          },
        },
      },
    });
    expect(resultOf(await request({ method: 'l2_getCurrentNetwork' }))).toEqual({
      name: 'Mainnet',
      chainId: MAINNET,
    });
    // Accounts stored before grants existed belong to no site: naming one is refused like any
    // address the site was not granted, and the site asks for it by index (the dialog shows the
    // address and that it is already the user's account on Testnet).
    expectError(
      await request({ method: 'l2_extractPublicKey', params: { userAddress: account.address } }),
      -32602,
      /"userAddress" is not an account of this snap that this site may use/u,
    );
    const asking = request({ method: 'l2_createAccount', params: { addressIndex: 3 } });
    const grantUi = asConfirmation(await asking.getInterface());
    expect(dialogText(grantUi.content)).toContain('Create an account for this site?');
    expect(dialogText(grantUi.content)).toContain(account.address);
    expect(dialogText(grantUi.content)).toContain('Already your account on\nTestnet');
    await grantUi.ok();
    expect(resultOf<{ address: string }>(await asking).address).toBe(account.address);
    expect(
      resultOf<string>(
        await request({ method: 'l2_extractPublicKey', params: { userAddress: account.address } }),
      ),
    ).toBe(account.publicKey);
    // The migration added the ETH/STRK defaults: amounts of ETH are shown in ETH.
    expect(await tokenAmountShown(request, account.address, ETH_TOKEN, MAINNET)).toBe(
      '1.5 ETH (1500000000000000000)',
    );
  });
});

describe('state migrations: unknown networks and junk entries', () => {
  const GOERLI = '0x534e5f474f45524c49';

  it('falls back to Testnet when the stored network is gone, and drops junk entries', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 2);
    const { request } = await installSnap({
      options: {
        state: {
          currentChainId: GOERLI,
          accounts: {
            [GOERLI]: [{ address: account.address, addressIndex: 2, chainId: GOERLI }],
            [TESTNET]: [
              { addressIndex: 0, chainId: TESTNET },
              { address: account.address, addressIndex: 'x', chainId: TESTNET },
              { address: 5, addressIndex: 1 },
              null,
            ],
          },
          erc20Tokens: {
            [GOERLI]: [{ name: 'No address', symbol: 'NA', decimals: 18 }],
            [TESTNET]: [{ name: 'No address', symbol: 'NA', decimals: 18, chainId: TESTNET }, 7],
          },
          transactions: { [TESTNET]: [{ status: 'PENDING' }] },
        },
      },
    });
    expect(resultOf(await request({ method: 'l2_getCurrentNetwork' }))).toEqual({
      name: 'Testnet',
      chainId: TESTNET,
    });

    const switching = request({ method: 'l2_switchNetwork', params: { chainId: MAINNET } });
    const ui = asConfirmation(await switching.getInterface());
    expect(dialogText(ui.content)).toContain('Testnet');
    await ui.ok();
    expect(resultOf(await switching)).toBe(true);
    expect(resultOf(await request({ method: 'l2_getCurrentNetwork' }))).toEqual({
      name: 'Mainnet',
      chainId: MAINNET,
    });

    // Account lookups that compare addresses skip the junk, and new accounts get index 0.
    expect(
      resultOf<{ addressIndex: number }>(await createGrantedAccount({ request }, 0)).addressIndex,
    ).toBe(0);
    const unknown = responseOf(
      await request({ method: 'l2_extractPublicKey', params: { userAddress: pad(0x999n) } }),
    );
    expect(unknown.error?.code).toBe(-32602);
    // The junk tokens are gone and the defaults are there: STRK amounts are shown in STRK.
    const { address } = await expectedAccount(DEFAULT_SRP, 0);
    expect(await tokenAmountShown(request, address, STRK_TOKEN, MAINNET)).toBe(
      '1.5 STRK (1500000000000000000)',
    );
  });
});

describe('state migration to version 3: watched tokens from before symbol and decimals were read on chain', () => {
  it('ETH and STRK get their values back; another site-described token is kept but not used to format amounts', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const fake = pad(0xabcn);
    const { request } = await installSnap({
      options: {
        state: {
          version: 2,
          currentChainId: TESTNET,
          accounts: {
            [TESTNET]: [accountRecordOf(account, TESTNET)],
          },
          transactions: {},
          erc20Tokens: {
            // What a hostile site could store before: STRK as 6-decimal "USDC", a fake token.
            [TESTNET]: [
              { address: STRK_TOKEN, name: 'x', symbol: 'USDC', decimals: 6, chainId: TESTNET },
              { address: fake, name: 'Fake', symbol: 'FAKE', decimals: 2, chainId: TESTNET },
            ],
          },
          grants: { [TEST_ORIGIN]: { origin: TEST_ORIGIN, grantedAt: 1, addressIndexes: [0] } },
        },
      },
    });
    expect(await tokenAmountShown(request, account.address, STRK_TOKEN, TESTNET)).toBe(
      '1.5 STRK (1500000000000000000)',
    );
    expect(await tokenAmountShown(request, account.address, fake, TESTNET)).toBe(
      '1500000000000000000 (token not in your watch list: raw units)',
    );
  });
});

describe('migrateState', () => {
  it('starts from the initial state when nothing is stored', () => {
    expect(migrateState(null)).toEqual(createInitialState());
    expect(createInitialState().erc20Tokens[MAINNET].map((token) => token.symbol)).toEqual([
      'ETH',
      'STRK',
    ]);
  });

  it('upgrades unversioned state: canonical chain keys, defaults added, junk dropped', () => {
    const migrated = migrateState({
      currentChainId: 'SN_MAIN',
      accounts: { '0x0534E5F5345504F4C4941': [{ address: '0x1' }], nonsense: [{}] },
      erc20Tokens: { [TESTNET]: [] },
    });
    expect(migrated.version).toBe(STATE_VERSION);
    expect(migrated.currentChainId).toBe(MAINNET);
    expect(Object.keys(migrated.accounts)).toEqual([TESTNET]);
    expect(migrated.erc20Tokens[TESTNET]).toEqual([]);
    expect(migrated.erc20Tokens[MAINNET]).toHaveLength(2);
    expect(migrated.transactions).toEqual({});
  });

  it('keeps current state as it is and refuses state from a newer snap', () => {
    const current = createInitialState();
    expect(migrateState(current)).toEqual(current);
    expect(() => migrateState({ ...current, version: STATE_VERSION + 1 })).toThrow(/newer/u);
  });

  it('accountNonces, optional (no migration): kept as stored, none before one is kept, junk none', () => {
    const state = createInitialState();
    expect(keptNonceOf(state, TESTNET, '0xabc')).toBeUndefined();
    keepNonce(state, TESTNET, '0x0000ABC', 5n);
    keepNonce(state, MAINNET, '0xabc', 9n);
    const stored = migrateState(JSON.parse(JSON.stringify(state)));
    expect(stored.accountNonces).toEqual({
      [TESTNET]: { '0xabc': '0x5' },
      [MAINNET]: { '0xabc': '0x9' },
    });
    // The same address however written; per chain.
    expect(keptNonceOf(stored, TESTNET, '0xAbC')).toBe(5n);
    keepNonce(stored, TESTNET, '0xabc', 6n);
    expect(keptNonceOf(stored, TESTNET, '0xabc')).toBe(6n);
    expect(keptNonceOf(stored, MAINNET, '0xabc')).toBe(9n);
    // Stored junk is no guess: never a throw in the send path.
    for (const junk of ['5', 5, null, '0xzz', '0x', { nonce: '0x5' }]) {
      const corrupt = { ...createInitialState(), accountNonces: { [TESTNET]: { '0xabc': junk } } };
      expect(keptNonceOf(corrupt as unknown as SnapState, TESTNET, '0xabc')).toBeUndefined();
    }
    const noChains = { ...createInitialState(), accountNonces: { [TESTNET]: 'junk' } };
    expect(keptNonceOf(noChains as unknown as SnapState, TESTNET, '0xabc')).toBeUndefined();
  });
});
