import { installSnap } from '@metamask/snaps-jest';
import { typedData, type TypedData } from 'starknet';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  jsonParams,
  OTHER_SRP,
  resultOf,
  snapWithAccounts,
  verifyWithScure,
} from '../harness/snap';
import { REV0_TYPED_DATA, REV1_TYPED_DATA } from '../fixtures/typedData';

const { types: _types, ...withoutTypes } = REV0_TYPED_DATA;

type SnapRequest = Awaited<ReturnType<typeof installSnap>>['request'];

describe('l2_signMessage', () => {
  it('signs for an account of another phrase', async () => {
    const account = await expectedAccount(OTHER_SRP, 7);
    const { request } = await snapWithAccounts([7], OTHER_SRP);
    const pending = request({
      method: 'starkNet_signMessage',
      params: { typedDataMessage: REV1_TYPED_DATA, signerAddress: account.address },
    });
    await asConfirmation(await pending.getInterface()).ok();
    const signature = resultOf<string>(await pending).split(',');
    const messageHash = typedData.getMessageHash(
      REV1_TYPED_DATA as unknown as TypedData,
      account.address,
    );
    expect(verifyWithScure(account, messageHash, signature)).toBe(true);
  });

  // Signing stores nothing (no grant, record or counter; methods/signMessage.ts), and so neither
  // does a decline or a refusal: the tests below share one snap, installed when this block
  // starts. snaps-jest stops a snap when another is installed, and nothing here installs.
  describe('on one snap with accounts 0 and 1', () => {
    let shared: { request: SnapRequest };
    beforeAll(async () => {
      shared = await snapWithAccounts([0, 1]);
    });

    it.each([
      ['revision 0 as a JSON string, signerAddress', REV0_TYPED_DATA, true, 'signerAddress'],
      ['revision 0 as an object, address', REV0_TYPED_DATA, false, 'address'],
      ['revision 1 as a JSON string, address', REV1_TYPED_DATA, true, 'address'],
      ['revision 1 as an object, signerAddress', REV1_TYPED_DATA, false, 'signerAddress'],
    ])('signs %s; @scure/starknet verifies it', async (_label, data, asString, signerField) => {
      const account = await expectedAccount(DEFAULT_SRP, 1);
      const { request } = shared;
      const pending = request({
        method: 'l2_signMessage',
        params: {
          typedDataMessage: asString ? JSON.stringify(data) : data,
          [signerField]: account.address,
        },
      });
      const ui = asConfirmation(await pending.getInterface());
      expect(ui.type).toBe('confirmation');
      const text = dialogText(ui.content);
      expect(text).toContain(account.address);
      for (const value of Object.values(data.domain)) {
        // Each value as it is hashed (docs/security.md#nothing-signed-that-was-not-shown): revision
        // 0's felts as the numbers they are (the padded "0x02c9..." is 0x2c9..., "Starknet Mail" its
        // short string), revision 1's short strings as their text.
        expect(text).toContain(
          data === REV0_TYPED_DATA
            ? typedData.encodeValue(data.types as TypedData['types'], 'felt', value)[1]
            : String(value),
        );
      }
      expect(text).toContain(data.primaryType);
      expect(text).toContain(
        'Hello, Bob!'.length > 0 && data === REV0_TYPED_DATA ? 'Hello, Bob!' : '1000000',
      );
      await ui.ok();

      const signature = resultOf<string>(await pending);
      expect(signature).toMatch(/^0x[0-9a-f]+,0x[0-9a-f]+$/u);
      const messageHash = typedData.getMessageHash(data as unknown as TypedData, account.address);
      expect(verifyWithScure(account, messageHash, signature.split(','))).toBe(true);
      // Not a signature by another key.
      const other = await expectedAccount(DEFAULT_SRP, 0);
      expect(verifyWithScure(other, messageHash, signature.split(','))).toBe(false);
    });

    it('shows every member of a large message, and long values in full', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const members = Array.from({ length: 40 }, (_, index) => `field${index + 1}`);
      const data = {
        ...REV0_TYPED_DATA,
        types: {
          StarkNetDomain: REV0_TYPED_DATA.types.StarkNetDomain,
          Big: members.map((name) => ({ name, type: 'felt' })),
        },
        primaryType: 'Big',
        message: Object.fromEntries(
          members.map((name, index) => [
            name,
            `0x${(index + 1).toString(16).repeat(60).slice(0, 62)}`,
          ]),
        ),
      };
      const pending = request({
        method: 'l2_signMessage',
        params: jsonParams({ typedDataMessage: data, signerAddress: account.address }),
      });
      const ui = asConfirmation(await pending.getInterface());
      const text = dialogText(ui.content);
      for (const [name, value] of Object.entries(data.message)) {
        expect(text).toContain(name);
        expect(text).toContain(value);
      }
      expect(text).not.toMatch(/more/u);
      await ui.cancel();
      expectError(await pending, 4001);
    });

    it('answers 4001 when the user declines', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const pending = request({
        method: 'l2_signMessage',
        params: { typedDataMessage: REV0_TYPED_DATA, signerAddress: account.address },
      });
      await asConfirmation(await pending.getInterface()).cancel();
      expectError(await pending, 4001);
    });

    describe('invalid params (-32602)', () => {
      // The shared snap's account 0.
      let account0: string;
      beforeAll(async () => {
        account0 = (await expectedAccount(DEFAULT_SRP, 0)).address;
      });

      it.each([
        ['no typed data', {}, /"typedDataMessage" is required/u],
        ['typed data that is not JSON', { typedDataMessage: '{not json' }, /"typedDataMessage"/u],
        [
          'typed data without types',
          { typedDataMessage: withoutTypes },
          /"typedDataMessage.types"/u,
        ],
        [
          'typed data without primaryType',
          { typedDataMessage: { ...REV0_TYPED_DATA, primaryType: 3 } },
          /"typedDataMessage.primaryType"/u,
        ],
        [
          'a primaryType not in types',
          { typedDataMessage: { ...REV0_TYPED_DATA, primaryType: 'Nope' } },
          /"typedDataMessage.primaryType" names no type of "types"/u,
        ],
        ['typed data as a number', { typedDataMessage: 42 }, /"typedDataMessage"/u],
        [
          'no signer',
          { typedDataMessage: REV0_TYPED_DATA, omitSigner: true },
          /"signerAddress" is required/u,
        ],
        [
          'a malformed signer',
          { typedDataMessage: REV0_TYPED_DATA, signerAddress: '0xzz' },
          /"signerAddress".*Starknet address/u,
        ],
        [
          'a malformed address',
          { typedDataMessage: REV0_TYPED_DATA, omitSigner: true, address: 'not an address' },
          /"address".*Starknet address/u,
        ],
        [
          'a malformed address next to a good signerAddress',
          { typedDataMessage: REV0_TYPED_DATA, address: '0x12345g' },
          /"address".*Starknet address/u,
        ],
        ['an unknown chainId', { typedDataMessage: REV0_TYPED_DATA, chainId: '0x5' }, /"chainId"/u],
      ])('%s', async (_label, params, message) => {
        const { omitSigner, ...rest } = params as Record<string, unknown>;
        const full = omitSigner ? rest : { signerAddress: account0, ...rest };
        expectError(
          await shared.request({ method: 'l2_signMessage', params: jsonParams(full) }),
          -32602,
          message,
        );
      });

      it('signerAddress and address that disagree', async () => {
        const a0 = await expectedAccount(DEFAULT_SRP, 0);
        const a1 = await expectedAccount(DEFAULT_SRP, 1);
        const { request } = shared;
        expectError(
          await request({
            method: 'l2_signMessage',
            params: {
              typedDataMessage: REV0_TYPED_DATA,
              signerAddress: a0.address,
              address: a1.address,
            },
          }),
          -32602,
          /"address" must equal "signerAddress"/u,
        );
      });

      it("a signer that is not the snap's", async () => {
        const foreign = await expectedAccount(OTHER_SRP, 0);
        const { request } = shared;
        expectError(
          await request({
            method: 'l2_signMessage',
            params: { typedDataMessage: REV0_TYPED_DATA, signerAddress: foreign.address },
          }),
          -32602,
          /"signerAddress" is not an account of this snap/u,
        );
      });
    });
  });
});
