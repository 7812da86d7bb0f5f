/** The home page's list of the sites allowed, with Revoke (src/ui/HomeScreen.tsx). */

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  PORTED_SITE as SITE,
  PORTED_SITE_ORIGIN as ORIGIN,
  snapForSite as snapForDapp,
} from '../harness/snap';

describe('the home page lists the sites allowed, and revokes them', () => {
  it('shows the grant with its accounts; Revoke forgets it and the site asks again', async () => {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const snap = await snapForDapp([0]);
    const home = await snap.onHomePage();
    const page = home.getInterface();
    const text = dialogText(page.content);
    expect(text).toContain('Sites you allowed');
    expect(text).toContain(`Site\n${SITE}\nOrigin\n${ORIGIN}\nAccounts\n#0`);
    await page.clickElement(`revoke:${ORIGIN}`);
    const after = dialogText(home.getInterface().content);
    expect(after).not.toContain(SITE);
    expect(after).toContain('No site may use your accounts yet');

    // Revoked: the account is refused like any other
    // (docs/security.md#sites-are-granted-never-assumed: no dialog for an address), and the site
    // asks for it again by index.
    expectError(
      await snap.request({
        origin: ORIGIN,
        method: 'l2_extractPublicKey',
        params: { userAddress: account.address },
      }),
      -32602,
      /is not an account of this snap that this site may use/u,
    );
    const asking = snap.request({
      origin: ORIGIN,
      method: 'l2_createAccount',
      params: { addressIndex: 0 },
    });
    const ui = asConfirmation(await asking.getInterface());
    expect(dialogText(ui.content)).toContain('Create an account for this site?');
    await ui.cancel();
    expectError(await asking, 4001);
  });
});
