import { installSnap } from '@metamask/snaps-jest';
import { ETH_TOKEN } from '@l2wallet/testkit';

import {
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
  TESTNET,
} from './helpers';

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

  it('20 concurrent l2_addErc20Token calls lose no record', async () => {
    const { request } = await installSnap();
    const addresses = Array.from({ length: 20 }, (_, index) => pad(BigInt(0x1000 + index)));
    const pending = addresses.map((tokenAddress, index) =>
      request({
        method: 'l2_addErc20Token',
        params: {
          tokenAddress,
          tokenName: `Token ${index}`,
          tokenSymbol: `T${index}`,
          tokenDecimals: index,
          chainId: TESTNET,
        },
      }),
    );
    // The simulator shows one dialog at a time: approve each as it comes, without waiting for
    // the approved request to finish, so the state writes overlap.
    for (const request_ of pending) {
      const ui = asConfirmation(await request_.getInterface());
      expect(dialogText(ui.content)).toContain('Add token');
      await ui.ok();
    }
    const tokens = await Promise.all(
      pending.map(async (request_) => resultOf<{ address: string }>(await request_)),
    );
    expect(tokens.map((token) => token.address)).toEqual(addresses);

    // All 20 are stored: re-adding each one is an update.
    for (const tokenAddress of addresses) {
      const again = request({
        method: 'l2_addErc20Token',
        params: { tokenAddress, tokenName: 'Again', tokenSymbol: 'AG', chainId: TESTNET },
      });
      const ui = asConfirmation(await again.getInterface());
      expect(dialogText(ui.content)).toContain('Update token');
      await ui.cancel();
      await again;
    }
  });
});

describe('state migrations', () => {
  it('reads state written before the schema had a version', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 3);
    const { request } = await installSnap({
      options: {
        state: {
          currentChainId: '0x534E5F4D41494E',
          accounts: {
            [TESTNET]: [
              {
                address: account.address,
                addressIndex: 3,
                publicKey: account.publicKey,
                addressSalt: account.publicKey,
                deployTxnHash: '',
                derivationPath: "m/44'/9004'/0'/0/3",
                chainId: TESTNET,
              },
            ],
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
    // The migration added the ETH/STRK defaults.
    const pending = request({
      method: 'l2_addErc20Token',
      params: {
        tokenAddress: ETH_TOKEN,
        tokenName: 'Ether',
        tokenSymbol: 'ETH',
        chainId: TESTNET,
      },
    });
    const ui = asConfirmation(await pending.getInterface());
    expect(dialogText(ui.content)).toContain('Update token');
    await ui.cancel();
    await pending;
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

    const adding = request({
      method: 'l2_addErc20Token',
      params: {
        tokenAddress: pad(0x1234n),
        tokenName: 'Token',
        tokenSymbol: 'TKN',
        chainId: TESTNET,
      },
    });
    const addUi = asConfirmation(await adding.getInterface());
    expect(dialogText(addUi.content)).toContain('Add token');
    await addUi.ok();
    expect(resultOf<{ address: string }>(await adding).address).toBe(pad(0x1234n));

    // Account lookups that compare addresses skip the junk, and new accounts get index 0.
    expect(
      resultOf<{ addressIndex: number }>(await createGrantedAccount({ request }, 0)).addressIndex,
    ).toBe(0);
    const unknown = responseOf(
      await request({ method: 'l2_extractPublicKey', params: { userAddress: pad(0x999n) } }),
    );
    expect(unknown.error?.code).toBe(-32602);
  });
});
