/** l2_extractPublicKey: the public key of one of the snap's accounts, and the errors for others. */
import {
  DEFAULT_SRP,
  expectError,
  expectedAccount,
  installGranted,
  OTHER_SRP,
  pad,
  resultOf,
  TESTNET,
} from '../harness/snap';

describe('l2_extractPublicKey', () => {
  it('answers for an account given without zero padding', async () => {
    const expected = await expectedAccount(DEFAULT_SRP, 1);
    const { request } = await installGranted();
    resultOf(await request({ method: 'l2_createAccount', params: { addressIndex: 1 } }));
    const unpadded = `0x${BigInt(expected.address).toString(16)}`;
    expect(
      resultOf<string>(
        await request({
          method: 'starkNet_extractPublicKey',
          params: { userAddress: unpadded, chainId: TESTNET },
        }),
      ),
    ).toBe(expected.publicKey);
  });

  it("gives a clear error for an address that is not the snap's", async () => {
    const other = await expectedAccount(OTHER_SRP, 0);
    const { request } = await installGranted();
    resultOf(await request({ method: 'l2_createAccount' }));
    expectError(
      await request({ method: 'l2_extractPublicKey', params: { userAddress: other.address } }),
      -32602,
      /"userAddress" is not an account of this snap/u,
    );
  });

  // The rows touch no state: they share one installed snap (snaps-jest runs one snap at a time,
  // so it is installed when this block starts).
  describe('invalid params', () => {
    let shared: Awaited<ReturnType<typeof installGranted>>;
    beforeAll(async () => {
      shared = await installGranted();
    });

    it.each([
      [{}, /"userAddress" is required/u],
      [{ userAddress: 'xyz' }, /"userAddress".*Starknet address/u],
      [{ userAddress: '0x0' }, /"userAddress"/u],
      [{ userAddress: pad(2n ** 251n) }, /"userAddress"/u],
      [{ userAddress: '0x1', chainId: 'SN_GOERLI' }, /"chainId"/u],
    ])('rejects invalid params %j with -32602', async (params, message) => {
      expectError(await shared.request({ method: 'l2_extractPublicKey', params }), -32602, message);
    });
  });
});
