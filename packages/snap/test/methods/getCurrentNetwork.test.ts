/** l2_getCurrentNetwork: the network a fresh install is on, under both method prefixes. */
import { installSnap } from '@metamask/snaps-jest';

import { resultOf, TESTNET } from '../harness/snap';

describe('l2_getCurrentNetwork', () => {
  it('is Testnet on a fresh install', async () => {
    const { request } = await installSnap();
    expect(resultOf(await request({ method: 'l2_getCurrentNetwork' }))).toEqual({
      name: 'Testnet',
      chainId: TESTNET,
    });
    expect(resultOf(await request({ method: 'starkNet_getCurrentNetwork', params: {} }))).toEqual({
      name: 'Testnet',
      chainId: TESTNET,
    });
  });
});
