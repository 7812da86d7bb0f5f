import { installSnap } from '@metamask/snaps-jest';

import {
  asConfirmation,
  dialogText,
  expectError,
  MAINNET,
  resultOf,
  TESTNET,
} from '../harness/snap';

describe('l2_switchNetwork', () => {
  it('switches after the user approves, and the new network persists', async () => {
    const { request } = await installSnap();
    const pending = request({ method: 'l2_switchNetwork', params: { chainId: MAINNET } });
    const ui = asConfirmation(await pending.getInterface());
    expect(ui.type).toBe('confirmation');
    const text = dialogText(ui.content);
    expect(text).toContain('Mainnet');
    expect(text).toContain(MAINNET);
    expect(text).toContain('Testnet');
    await ui.ok();
    expect(resultOf(await pending)).toBe(true);
    expect(resultOf(await request({ method: 'l2_getCurrentNetwork' }))).toEqual({
      name: 'Mainnet',
      chainId: MAINNET,
    });
  });

  it('returns false and changes nothing when the user declines', async () => {
    const { request } = await installSnap();
    const pending = request({ method: 'starkNet_switchNetwork', params: { chainId: MAINNET } });
    await asConfirmation(await pending.getInterface()).cancel();
    expect(resultOf(await pending)).toBe(false);
    expect(resultOf(await request({ method: 'l2_getCurrentNetwork' }))).toEqual({
      name: 'Testnet',
      chainId: TESTNET,
    });
  });

  it('accepts a non-canonical spelling of a known chain ID', async () => {
    const { request } = await installSnap();
    const pending = request({
      method: 'l2_switchNetwork',
      params: { chainId: '0x0000534E5F4D41494E' },
    });
    await asConfirmation(await pending.getInterface()).ok();
    expect(resultOf(await pending)).toBe(true);
    expect(
      resultOf<{ chainId: string }>(await request({ method: 'l2_getCurrentNetwork' })).chainId,
    ).toBe(MAINNET);
  });

  it('is true without a dialog when the network is already current', async () => {
    const { request } = await installSnap();
    expect(
      resultOf(await request({ method: 'l2_switchNetwork', params: { chainId: TESTNET } })),
    ).toBe(true);
  });

  // The rows are refused by validation and change nothing (each checks so): they share one snap,
  // installed for this describe, in which nothing else installs one (snaps-jest stops a snap at
  // the next install; jest keeps a describe's tests together even when it shuffles them).
  describe('refusals', () => {
    let refusing: Awaited<ReturnType<typeof installSnap>>;
    beforeAll(async () => {
      refusing = await installSnap();
    });

    it.each([
      [{}, /"chainId" is required/u],
      [
        { chainId: '0x534e5f474f45524c49' },
        /"chainId".*known chain ID.*0x534e5f4d41494e \(Mainnet\)/u,
      ],
      [{ chainId: 'mainnet' }, /"chainId"/u],
      [{ chainId: 1 }, /"chainId"/u],
    ])('rejects %j with -32602 and changes nothing', async (params, message) => {
      const { request } = refusing;
      expectError(await request({ method: 'l2_switchNetwork', params }), -32602, message);
      expect(
        resultOf<{ chainId: string }>(await request({ method: 'l2_getCurrentNetwork' })).chainId,
      ).toBe(TESTNET);
    });
  });
});
