import {
  asAlert,
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  OTHER_SRP,
  resultOf,
  snapWithAccounts,
} from '../harness/snap';

type SnapRequest = Awaited<ReturnType<typeof snapWithAccounts>>['request'];

describe('l2_displayPrivateKey', () => {
  /** Reveals `account`'s key: the confirmation, then the copyable alert, then null. */
  async function showsTheKey(
    request: SnapRequest,
    account: Awaited<ReturnType<typeof expectedAccount>>,
  ): Promise<void> {
    const pending = request({
      method: 'l2_displayPrivateKey',
      params: { userAddress: account.address },
    });
    const confirmation = asConfirmation(await pending.getInterface());
    expect(confirmation.type).toBe('confirmation');
    expect(dialogText(confirmation.content)).toContain(account.address);
    expect(JSON.stringify(confirmation.content)).not.toContain(account.privateKey.slice(2));
    await confirmation.ok();

    const alert = asAlert(await pending.getInterface());
    expect(alert.type).toBe('alert');
    const copyable = JSON.stringify(alert.content).match(
      /"type":"Copyable","props":\{"value":"(0x[0-9a-f]+)"/u,
    );
    expect(copyable).not.toBeNull();
    expect(BigInt((copyable as RegExpMatchArray)[1])).toBe(BigInt(account.privateKey));
    expect(JSON.stringify(alert.content)).toContain('"sensitive":true');
    await alert.ok();

    const response = await pending;
    expect(resultOf(response)).toBeNull();
    expect(JSON.stringify(response.response)).not.toContain(account.privateKey.slice(2));
  }

  it.each([[OTHER_SRP, 1]])(
    'shows the independently derived key in a copyable alert after confirmation (%#)',
    async (srp, index) => {
      const { request } = await snapWithAccounts([index], srp);
      await showsTheKey(request, await expectedAccount(srp, index));
    },
  );

  // Showing a key, declining and refusing store nothing (methods/displayPrivateKey.ts); the one
  // l2_createAccount below re-creates account 0, which exists already. The tests below share one
  // snap, installed when this block starts; snaps-jest stops a snap when another is installed,
  // and nothing here installs.
  describe('on one snap with accounts 0 and 7', () => {
    let shared: { request: SnapRequest };
    beforeAll(async () => {
      shared = await snapWithAccounts([0, 7]);
    });

    it.each([
      [DEFAULT_SRP, 0],
      [DEFAULT_SRP, 7],
    ])(
      'shows the independently derived key in a copyable alert after confirmation (%#)',
      async (srp, index) => {
        await showsTheKey(shared.request, await expectedAccount(srp, index));
      },
    );

    it('returns null and shows nothing more when the user declines', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const pending = request({
        method: 'starkNet_displayPrivateKey',
        params: { userAddress: account.address },
      });
      await asConfirmation(await pending.getInterface()).cancel();
      const response = await pending;
      expect(resultOf(response)).toBeNull();
    });

    it("accepts the production snap's `address` for `userAddress`", async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const pending = request({
        method: 'l2_displayPrivateKey',
        params: { address: account.address },
      });
      const confirmation = asConfirmation(await pending.getInterface());
      expect(dialogText(confirmation.content)).toContain(account.address);
      await confirmation.cancel();
      expect(resultOf(await pending)).toBeNull();
      const other = await expectedAccount(DEFAULT_SRP, 1);
      expectError(
        await request({
          method: 'l2_displayPrivateKey',
          params: { userAddress: account.address, address: other.address },
        }),
        -32602,
        /"address" must equal "userAddress"/u,
      );
    });

    it('never puts the key in any other response', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const secret = BigInt(account.privateKey).toString(16);
      const responses = [
        await request({ method: 'l2_createAccount', params: { addressIndex: 0 } }),
        await request({ method: 'l2_extractPublicKey', params: { userAddress: account.address } }),
        await request({ method: 'l2_getCurrentNetwork' }),
        await request({ method: 'l2_signMessage', params: { signerAddress: account.address } }),
        await request({ method: 'l2_displayPrivateKey', params: { userAddress: '0x1' } }),
      ];
      for (const response of responses) {
        expect(JSON.stringify(response.response)).not.toContain(secret);
      }
    });

    it.each([
      ['no userAddress', {}, /"userAddress" is required/u],
      ['a malformed userAddress', { userAddress: 'me' }, /"userAddress".*Starknet address/u],
      ['an unknown chainId', { userAddress: '0x1', chainId: '0x2' }, /"chainId"/u],
    ])('rejects %s with -32602', async (_label, params, message) => {
      const { request } = shared;
      expectError(await request({ method: 'l2_displayPrivateKey', params }), -32602, message);
    });

    it("rejects an address that is not the snap's, without any dialog", async () => {
      const foreign = await expectedAccount(OTHER_SRP, 0);
      const { request } = shared;
      expectError(
        await request({ method: 'l2_displayPrivateKey', params: { userAddress: foreign.address } }),
        -32602,
        /"userAddress" is not an account of this snap/u,
      );
    });
  });
});
