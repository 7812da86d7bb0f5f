/**
 * The grant dialog from a dapp origin: sites are granted, never assumed (src/ui/GrantScreen.tsx,
 * src/flows/grants.ts).
 */
import { installSnap } from '@metamask/snaps-jest';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  OTHER_SRP,
  responseOf,
  resultOf,
  PORTED_SITE as SITE,
  PORTED_SITE_ORIGIN as ORIGIN,
  snapForSite as snapForDapp,
} from '../harness/snap';

const OTHER_ORIGIN = 'https://other.example';

describe('sites are granted, not assumed', () => {
  it("a new site's account creation shows a grant dialog, and a decline stores nothing", async () => {
    const account = await expectedAccount(DEFAULT_SRP, 3);
    const snap = await installSnap();
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 3 },
    });
    const ui = asConfirmation(await pending.getInterface());
    const text = dialogText(ui.content);
    expect(text).toContain(SITE);
    expect(text).toContain('Create an account for this site?');
    expect(text).toContain('#3');
    expect(text).toContain(account.address);
    expect(text).toContain('none yet: this is the first time this site asks');
    await ui.cancel();
    expectError(await pending, 4001, 'User rejected the request.');

    // Nothing stored: not an account of the snap, no grant (the next request asks again), and the
    // home page lists no account.
    expectError(
      await snap.request({
        method: 'l2_extractPublicKey',
        params: { userAddress: account.address },
      }),
      -32602,
      /is not an account of this snap/u,
    );
    const again = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 3 },
    });
    const second = asConfirmation(await again.getInterface());
    expect(dialogText(second.content)).toContain('none yet');
    await second.cancel();
    expectError(await again, 4001);
    const home = dialogText((await snap.onHomePage()).getInterface().content);
    expect(home).toMatch(/No account on this network yet/u);
    expect(home).not.toContain(SITE);
  });

  it('a granted index needs no dialog; a new index and another site each ask first', async () => {
    const first = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await snapForDapp([0]);
    // Granted: no dialog (the request resolves without one).
    expect(
      resultOf(
        await snap.request({
          origin: ORIGIN,
          method: 'l2_createAccount',
          params: { addressIndex: 0 },
        }),
      ),
    ).toEqual({ address: first.address, addressIndex: 0 });
    expect(
      resultOf(
        await snap.request({
          origin: ORIGIN,
          method: 'l2_extractPublicKey',
          params: { userAddress: first.address },
        }),
      ),
    ).toBe(first.publicKey);

    // A new index asks, naming what the site already holds and the address it would get.
    const second = await expectedAccount(DEFAULT_SRP, 1);
    const creating = snap.request({ origin: ORIGIN, method: 'l2_createAccount' });
    const createUi = asConfirmation(await creating.getInterface());
    expect(dialogText(createUi.content)).toMatch(/Already allowed\n#0/u);
    expect(dialogText(createUi.content)).toContain('#1 (a new one)');
    expect(dialogText(createUi.content)).toContain(second.address);
    await createUi.ok();
    expect(resultOf<{ addressIndex: number }>(await creating).addressIndex).toBe(1);

    // This answer follows docs/security.md#sites-are-granted-never-assumed: another site naming
    // account 0 used to get a grant dialog, which appeared only for the user's own addresses (an
    // oracle). Now it gets the same error as for a stranger's address, with no dialog ...
    const stranger = await expectedAccount(OTHER_SRP, 0);
    const refusals = [];
    for (const userAddress of [first.address, stranger.address]) {
      const response = responseOf(
        await snap.request({
          origin: OTHER_ORIGIN,
          method: 'l2_extractPublicKey',
          params: { userAddress },
        }),
      );
      expect(JSON.stringify(response)).not.toContain(userAddress.slice(2));
      refusals.push(response);
    }
    expect(refusals[0]).toEqual(refusals[1]);
    expect(refusals[0].error?.code).toBe(-32602);
    // ... and asks for it by index: the dialog names the site, the address and who else has it.
    const asking = snap.request({
      origin: OTHER_ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 0 },
    });
    const askUi = asConfirmation(await asking.getInterface());
    expect(dialogText(askUi.content)).toContain('other.example');
    expect(dialogText(askUi.content)).toContain(first.address);
    expect(dialogText(askUi.content)).toContain(`Other sites allowed\n${SITE}`);
    expect(dialogText(askUi.content)).toContain('Already your account on\nTestnet');
    await askUi.cancel();
    expectError(await asking, 4001);
    // Declining stored nothing: still refused, without a dialog.
    expectError(
      await snap.request({
        origin: OTHER_ORIGIN,
        method: 'l2_extractPublicKey',
        params: { userAddress: first.address },
      }),
      -32602,
    );
  });

  it('a recovery scan from a site without a grant asks first; a decline stores nothing', async () => {
    const snap = await installSnap();
    const pending = snap.request({
      origin: ORIGIN,
      method: 'l2_recoverAccounts',
      params: { startScanIndex: 0, maxScanned: 5, maxMissed: 5 },
    });
    const ui = asConfirmation(await pending.getInterface());
    expect(dialogText(ui.content)).toContain(SITE);
    expect(dialogText(ui.content)).toContain('#0 to #4');
    // Every address of the range is shown (docs/security.md#sites-are-granted-never-assumed: the
    // dialog shows what it grants).
    for (const index of [0, 1, 2, 3, 4]) {
      expect(dialogText(ui.content)).toContain((await expectedAccount(DEFAULT_SRP, index)).address);
    }
    await ui.cancel();
    expectError(await pending, 4001);
    const home = dialogText((await snap.onHomePage()).getInterface().content);
    expect(home).toMatch(/No account on this network yet/u);
  });

  it('caps one recovery call at 20 accounts', async () => {
    const snap = await installSnap();
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_recoverAccounts',
        params: { maxScanned: 21 },
      }),
      -32602,
      /"maxScanned"/u,
    );
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_recoverAccounts',
        params: { startScanIndex: 2 ** 31 - 1, maxScanned: 2 },
      }),
      -32602,
      /"maxScanned" reaches past the last address index 2147483647/u,
    );
  });
});
