/**
 * The home page (endowment:page-home) with no node reachable (the offline build: every network
 * at a closed port): the accounts are still listed, with a note that balances could not be read.
 * The page with a live node is tested in history/history.e2e.test.ts.
 */
import { installSnap } from '@metamask/snaps-jest';

import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  installGranted,
  resultOf,
} from '../harness/snap';

describe('home page without a node', () => {
  it('lists the accounts of the current network and says the balances could not be read', async () => {
    const snap = await installGranted();
    for (const addressIndex of [0, 1]) {
      resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex } }));
    }
    const page = await snap.onHomePage();
    expect('result' in page.response).toBe(true);
    const text = dialogText(page.getInterface().content);
    for (const addressIndex of [0, 1]) {
      expect(text).toContain((await expectedAccount(DEFAULT_SRP, addressIndex)).address);
    }
    expect(text).toContain('Testnet');
    expect(text).toMatch(/The balances could not be read: The Starknet node \(127\.0\.0\.1:9\)/u);
  });

  it('says there is no account yet on a fresh install', async () => {
    const snap = await installSnap();
    const text = dialogText((await snap.onHomePage()).getInterface().content);
    expect(text).toMatch(/No account on this network yet/u);
  });
});
