import {
  DEFAULT_SRP,
  expectError,
  expectedAccount,
  installGranted,
  MAINNET,
  OTHER_SRP,
  pad,
  resultOf,
  TESTNET,
} from '../harness/snap';

type Created = { address: string; addressIndex: number };

describe.each([
  ['the snaps-jest default phrase', DEFAULT_SRP],
  ['another phrase', OTHER_SRP],
])('keys and addresses with %s', (_label, srp) => {
  // The rows share one snap per phrase, installed when this block starts: each creates its own
  // explicit index (already granted, so no dialog) and reads only that account, so what another
  // row stored changes no answer, in any order. Nothing here installs another snap.
  let shared: Awaited<ReturnType<typeof installGranted>>;
  beforeAll(async () => {
    shared = await installGranted({ srp });
  });

  it.each([0, 1, 7])(
    'derives index %i like key-tree + @scure/starknet + the address formula',
    async (index) => {
      const expected = await expectedAccount(srp, index);
      const { request } = shared;

      const created = resultOf<Created>(
        await request({
          method: 'l2_createAccount',
          params: { addressIndex: index, deploy: false },
        }),
      );
      expect(created).toEqual({ address: expected.address, addressIndex: index });

      const publicKey = resultOf<string>(
        await request({ method: 'l2_extractPublicKey', params: { userAddress: expected.address } }),
      );
      expect(BigInt(publicKey)).toBe(BigInt(expected.publicKey));
    },
  );
});

describe('l2_createAccount', () => {
  it('takes the next unused index by default and is idempotent for a given index', async () => {
    const { request } = await installGranted();
    const a0 = await expectedAccount(DEFAULT_SRP, 0);
    const a1 = await expectedAccount(DEFAULT_SRP, 1);
    const a2 = await expectedAccount(DEFAULT_SRP, 2);

    expect(resultOf<Created>(await request({ method: 'l2_createAccount' }))).toEqual({
      address: a0.address,
      addressIndex: 0,
    });
    expect(
      resultOf<Created>(await request({ method: 'l2_createAccount', params: { addressIndex: 2 } })),
    ).toEqual({ address: a2.address, addressIndex: 2 });
    // The gap at 1 is filled next.
    expect(
      resultOf<Created>(await request({ method: 'starkNet_createAccount', params: {} })),
    ).toEqual({
      address: a1.address,
      addressIndex: 1,
    });
    // Re-creating index 0 returns the same account.
    expect(
      resultOf<Created>(await request({ method: 'l2_createAccount', params: { addressIndex: 0 } })),
    ).toEqual({ address: a0.address, addressIndex: 0 });
    const next = resultOf<Created>(await request({ method: 'l2_createAccount' }));
    expect(next.addressIndex).toBe(3);
  });

  // This answer follows docs/security.md#hostile-sites: the default index used to count per
  // network, so "a new Mainnet account" was index 0 again, the address already used on Testnet.
  it('keeps records per chain, but a new account is new on every network', async () => {
    const { request } = await installGranted();
    resultOf(await request({ method: 'l2_createAccount', params: { chainId: TESTNET } }));
    resultOf(await request({ method: 'l2_createAccount', params: { chainId: TESTNET } }));
    const onMainnet = resultOf<Created>(
      await request({ method: 'l2_createAccount', params: { chainId: MAINNET } }),
    );
    expect(onMainnet.addressIndex).toBe(2);
    // The same index on the other network is the same address, stored as that network's record.
    const zeroOnMainnet = resultOf<Created>(
      await request({ method: 'l2_createAccount', params: { addressIndex: 0, chainId: MAINNET } }),
    );
    expect(zeroOnMainnet).toEqual({
      address: (await expectedAccount(DEFAULT_SRP, 0)).address,
      addressIndex: 0,
    });
    expect(
      resultOf<Created>(await request({ method: 'l2_createAccount', params: { chainId: TESTNET } }))
        .addressIndex,
    ).toBe(3);
  });

  // The refusals store nothing, and the padded form is the shape of the first account created,
  // whatever was refused before or after: they share one snap, installed when this block starts.
  // Nothing here installs another snap.
  describe('on one granted snap', () => {
    let shared: Awaited<ReturnType<typeof installGranted>>;
    beforeAll(async () => {
      shared = await installGranted();
    });

    it('returns the padded address form', async () => {
      const { request } = shared;
      const { address } = resultOf<Created>(await request({ method: 'l2_createAccount' }));
      expect(address).toBe(pad(address));
    });

    describe('invalid params', () => {
      it.each([
        [{ addressIndex: -1 }, /"addressIndex".*integer from 0 to 2147483647/u],
        [{ addressIndex: 1.5 }, /"addressIndex"/u],
        [{ addressIndex: '3' }, /"addressIndex"/u],
        [{ addressIndex: 2 ** 31 }, /"addressIndex"/u],
        [{ deploy: 'yes' }, /"deploy".*boolean/u],
        [{ chainId: '0x1' }, /"chainId".*known chain ID/u],
        [{ chainId: 5 }, /"chainId"/u],
      ])('rejects invalid params %j with -32602', async (params, message) => {
        expectError(await shared.request({ method: 'l2_createAccount', params }), -32602, message);
      });
    });
  });
});
