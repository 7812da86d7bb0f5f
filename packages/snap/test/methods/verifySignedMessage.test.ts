/**
 * l2_verifySignedMessage: a signature checked against the account's key, mangled signatures,
 * bad params.
 */
import { installSnap } from '@metamask/snaps-jest';
import { typedData, type TypedData } from 'starknet';

import {
  asConfirmation,
  DEFAULT_SRP,
  expectedAccount,
  expectError,
  jsonParams,
  resultOf,
  snapWithAccounts,
  verifyWithScure,
} from '../harness/snap';
import { REV0_TYPED_DATA, REV1_TYPED_DATA } from '../fixtures/typedData';

type SnapRequest = Awaited<ReturnType<typeof installSnap>>['request'];

describe('l2_verifySignedMessage', () => {
  // Signing and verifying store nothing (no grant, record or counter; methods/signMessage.ts,
  // methods/verifySignedMessage.ts), and so neither does a refusal: every test shares one snap
  // with account 0, installed when the file starts. snaps-jest stops a snap when another is
  // installed, and no test installs one.
  let shared: { request: SnapRequest };
  beforeAll(async () => {
    shared = await snapWithAccounts([0]);
  });

  /** A signature of `data` by account 0, made by the shared snap (its dialog approved). */
  async function signed(data: object): Promise<{
    request: SnapRequest;
    address: string;
    signature: string;
  }> {
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const { request } = shared;
    const pending = request({
      method: 'l2_signMessage',
      params: jsonParams({ typedDataMessage: data, signerAddress: account.address }),
    });
    await asConfirmation(await pending.getInterface()).ok();
    const signature = resultOf<string>(await pending);
    // Every signature a test obtains is checked independently first.
    const messageHash = typedData.getMessageHash(data as unknown as TypedData, account.address);
    expect(verifyWithScure(account, messageHash, signature.split(','))).toBe(true);
    return { request, address: account.address, signature };
  }

  it("is true for the snap's signature, given as a string or an array, typed data as string or object", async () => {
    const { request, address, signature } = await signed(REV1_TYPED_DATA);
    for (const typedDataMessage of [REV1_TYPED_DATA, JSON.stringify(REV1_TYPED_DATA)]) {
      for (const sig of [signature, signature.split(','), signature.split(',').join(' , ')]) {
        expect(
          resultOf(
            await request({
              method: 'l2_verifySignedMessage',
              params: { typedDataMessage, address, signature: sig },
            }),
          ),
        ).toBe(true);
      }
    }
  });

  it('is true for a signature made independently with @scure/starknet', async () => {
    const { sign } = await import('@scure/starknet');
    const account = await expectedAccount(DEFAULT_SRP, 0);
    const { request } = shared;
    const hash = typedData.getMessageHash(REV0_TYPED_DATA as unknown as TypedData, account.address);
    const sig = sign(hash, account.privateKey);
    expect(
      resultOf(
        await request({
          method: 'starkNet_verifySignedMessage',
          params: {
            typedDataMessage: REV0_TYPED_DATA,
            signerAddress: account.address,
            signature: [`0x${sig.r.toString(16)}`, `0x${sig.s.toString(16)}`],
          },
        }),
      ),
    ).toBe(true);
  });

  // The rows below verify against one signature, signed once.
  describe('one signature, mangled', () => {
    let once: Awaited<ReturnType<typeof signed>>;
    beforeAll(async () => {
      once = await signed(REV0_TYPED_DATA);
    });

    it.each([
      ['a tampered signature', (sig: string) => sig.replace(/.$/u, (c) => (c === '1' ? '2' : '1'))],
      ['r and s swapped', (sig: string) => sig.split(',').reverse().join(',')],
      ['a signature with one value', (sig: string) => sig.split(',')[0]],
      ['a signature with three values', (sig: string) => `${sig},0x1`],
      ['garbage', () => 'hello,world'],
      ['an empty string', () => ''],
      ['values above the field prime', () => `0x${'f'.repeat(64)},0x1`],
      ['zero values', () => '0x0,0x0'],
    ])('is false for %s', async (_label, mangle) => {
      const { request, address, signature } = once;
      expect(
        resultOf(
          await request({
            method: 'l2_verifySignedMessage',
            params: { typedDataMessage: REV0_TYPED_DATA, address, signature: mangle(signature) },
          }),
        ),
      ).toBe(false);
    });
  });

  it('is false when the message changed', async () => {
    const { request, address, signature } = await signed(REV0_TYPED_DATA);
    const changed = {
      ...REV0_TYPED_DATA,
      message: { ...REV0_TYPED_DATA.message, contents: 'Bye' },
    };
    expect(
      resultOf(
        await request({
          method: 'l2_verifySignedMessage',
          params: { typedDataMessage: changed, address, signature },
        }),
      ),
    ).toBe(false);
  });

  it('rejects address and signerAddress that disagree with -32602', async () => {
    const { request, address, signature } = await signed(REV0_TYPED_DATA);
    const other = await expectedAccount(DEFAULT_SRP, 1);
    expectError(
      await request({
        method: 'l2_verifySignedMessage',
        params: {
          typedDataMessage: REV0_TYPED_DATA,
          address,
          signerAddress: other.address,
          signature,
        },
      }),
      -32602,
      /"signerAddress" must equal "address"/u,
    );
  });

  describe('invalid params', () => {
    let address: string;
    beforeAll(async () => {
      address = (await expectedAccount(DEFAULT_SRP, 0)).address;
    });

    it.each([
      ['no typed data', { typedDataMessage: undefined }, /"typedDataMessage" is required/u],
      ['bad typed data', { typedDataMessage: '[1,2' }, /"typedDataMessage"/u],
      ['no signature', { signature: undefined }, /"signature" is required/u],
      ['a numeric signature', { signature: 12 }, /"signature"/u],
      ['no address', { address: undefined }, /"address" is required/u],
      ['a malformed signerAddress', { signerAddress: '0x' }, /"signerAddress".*Starknet address/u],
      ['an unknown chainId', { chainId: 'SN_MAINNET' }, /"chainId"/u],
    ])('rejects %s with -32602', async (_label, override, message) => {
      const params: Record<string, unknown> = {
        typedDataMessage: REV0_TYPED_DATA,
        address,
        signature: '0x1,0x2',
        ...override,
      };
      for (const key of Object.keys(params)) {
        if (params[key] === undefined) {
          delete params[key];
        }
      }
      expectError(
        await shared.request({ method: 'l2_verifySignedMessage', params: jsonParams(params) }),
        -32602,
        message,
      );
    });
  });
});
