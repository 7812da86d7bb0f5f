/** l2_signDeclareTransaction: the declare v3 hash signed after a dialog, and its invalid params. */
import { hash } from 'starknet';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  jsonParams,
  MAINNET,
  OTHER_SRP,
  resultOf,
  snapWithAccounts,
  TESTNET,
  verifyWithScure,
} from '../harness/snap';
import { BOUNDS, DETAILS, toBoundsBN } from '../harness/transactions';

type SnapRequest = Awaited<ReturnType<typeof snapWithAccounts>>['request'];

/** A params edit for the declare table: overrides members of `details` (undefined drops one). */
const withDetails =
  (overrides: Record<string, unknown>) =>
  (p: Record<string, unknown>): Record<string, unknown> => ({
    ...p,
    details: { ...(p.details as object), ...overrides },
  });

describe('l2_signDeclareTransaction', () => {
  const CLASS_HASH = '0x5c478ee27f2112411f86f207605b2e2c58cdb647bac0df27f660ef2252359c6';
  const COMPILED_CLASS_HASH = '0x1f6be1e0a2e4e4fbc5f9a1bc7e2dd4ebbbb36b6fcf0c0d5d1e5b8f0f4a1d1e1';

  function expectedDeclareHash(sender: string, chainId: string): string {
    return hash.calculateDeclareTransactionHash({
      classHash: CLASS_HASH,
      compiledClassHash: COMPILED_CLASS_HASH,
      senderAddress: sender,
      version: '0x3',
      chainId: chainId as never,
      nonce: DETAILS.nonce,
      accountDeploymentData: [],
      nonceDataAvailabilityMode: 0,
      feeDataAvailabilityMode: 1,
      resourceBounds: toBoundsBN(BOUNDS),
      tip: DETAILS.tip,
      paymasterData: DETAILS.paymasterData,
    });
  }

  const declareParams = (address: string, chainId = TESTNET): Record<string, unknown> => ({
    address,
    senderAddress: address,
    chainId,
    details: {
      ...DETAILS,
      classHash: CLASS_HASH,
      compiledClassHash: COMPILED_CLASS_HASH,
      senderAddress: address,
      chainId,
    },
  });

  /** Signs the declare with `account`, the dialog shown and approved, checked with @scure. */
  async function signsTheDeclareHash(
    request: SnapRequest,
    account: Awaited<ReturnType<typeof expectedAccount>>,
    chainId: string,
  ): Promise<void> {
    const pending = request({
      method: 'l2_signDeclareTransaction',
      params: jsonParams(declareParams(account.address, chainId)),
    });
    const ui = asConfirmation(await pending.getInterface());
    const text = dialogText(ui.content);
    expect(text).toContain(account.address);
    expect(text).toContain(CLASS_HASH);
    expect(text).toContain(COMPILED_CLASS_HASH);
    await ui.ok();
    const { signature } = resultOf<{ signature: string[] }>(await pending);
    expect(signature).toHaveLength(2);
    expect(verifyWithScure(account, expectedDeclareHash(account.address, chainId), signature)).toBe(
      true,
    );
  }

  it.each([[MAINNET, OTHER_SRP, 7]])(
    'signs the v3 declare hash on %s and returns {signature}',
    async (chainId, srp, index) => {
      const { request } = await snapWithAccounts([index], srp);
      await signsTheDeclareHash(request, await expectedAccount(srp, index), chainId);
    },
  );

  // Signing stores nothing (no grant, record or counter; methods/signDeclareTransaction.ts), and
  // so neither does a decline or a refusal: the tests below share one snap, installed when this
  // block starts. snaps-jest stops a snap when another is installed, and nothing here installs.
  describe('on one snap with accounts 0 and 1', () => {
    let shared: { request: SnapRequest };
    beforeAll(async () => {
      shared = await snapWithAccounts([0, 1]);
    });

    it.each([[TESTNET, DEFAULT_SRP, 1]])(
      'signs the v3 declare hash on %s and returns {signature}',
      async (chainId, srp, index) => {
        await signsTheDeclareHash(shared.request, await expectedAccount(srp, index), chainId);
      },
    );

    it('takes the sender from details.senderAddress alone', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const { address: _a, senderAddress: _s, ...params } = declareParams(account.address);
      const pending = request({
        method: 'starkNet_signDeclareTransaction',
        params: jsonParams(params),
      });
      await asConfirmation(await pending.getInterface()).ok();
      const { signature } = resultOf<{ signature: string[] }>(await pending);
      expect(
        verifyWithScure(account, expectedDeclareHash(account.address, TESTNET), signature),
      ).toBe(true);
    });

    it('answers 4001 when the user declines', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const pending = request({
        method: 'l2_signDeclareTransaction',
        params: jsonParams(declareParams(account.address)),
      });
      await asConfirmation(await pending.getInterface()).cancel();
      expectError(await pending, 4001);
    });

    describe('invalid params', () => {
      // The shared snap's account 0.
      let account0: string;
      beforeAll(async () => {
        account0 = (await expectedAccount(DEFAULT_SRP, 0)).address;
      });

      it.each([
        [
          'no details',
          (p: Record<string, unknown>) => ({ ...p, details: undefined }),
          /"details" is required/u,
        ],
        ['no classHash', withDetails({ classHash: undefined }), /"details.classHash" is required/u],
        ['a bad classHash', withDetails({ classHash: 'hash' }), /"details.classHash".*felt/u],
        [
          'no compiledClassHash',
          withDetails({ compiledClassHash: undefined }),
          /"details.compiledClassHash" is required/u,
        ],
        ['no nonce', withDetails({ nonce: undefined }), /"details.nonce" is required/u],
        [
          'no resourceBounds',
          withDetails({ resourceBounds: undefined }),
          /"details.resourceBounds" is required/u,
        ],
        [
          'a mismatched details.chainId',
          withDetails({ chainId: MAINNET }),
          /"details.chainId" must equal "chainId"/u,
        ],
        [
          'a mismatched details.senderAddress',
          withDetails({ senderAddress: '0x1234' }),
          /"details.senderAddress" must equal/u,
        ],
        [
          'no sender at all',
          (p: Record<string, unknown>) => ({
            ...p,
            address: undefined,
            senderAddress: undefined,
            details: { ...(p.details as object), senderAddress: undefined },
          }),
          /"senderAddress" is required/u,
        ],
        [
          'a malformed compiledClassHash',
          withDetails({ compiledClassHash: '0xZZ' }),
          /"details.compiledClassHash".*felt/u,
        ],
        [
          'an unknown chainId',
          (p: Record<string, unknown>) => ({ ...p, chainId: '0x534e5f474f45524c49' }),
          /"chainId".*known chain ID/u,
        ],
        [
          'an unknown details.chainId',
          withDetails({ chainId: 'SN_GOERLI' }),
          /"details.chainId".*known chain ID/u,
        ],
        [
          'a max_amount above u64',
          (p: Record<string, unknown>) => ({
            ...p,
            details: {
              ...(p.details as object),
              resourceBounds: {
                ...BOUNDS,
                l2_gas: { max_amount: (2n ** 64n).toString(), max_price_per_unit: '1' },
              },
            },
          }),
          /"details.resourceBounds.l2_gas.max_amount".*u64/u,
        ],
        [
          'a negative max_price_per_unit',
          (p: Record<string, unknown>) => ({
            ...p,
            details: {
              ...(p.details as object),
              resourceBounds: { ...BOUNDS, l1_gas: { max_amount: '1', max_price_per_unit: -1 } },
            },
          }),
          /"details.resourceBounds.l1_gas.max_price_per_unit".*u128/u,
        ],
        [
          'an empty max_amount',
          (p: Record<string, unknown>) => ({
            ...p,
            details: {
              ...(p.details as object),
              resourceBounds: {
                ...BOUNDS,
                l1_data_gas: { max_amount: '', max_price_per_unit: '1' },
              },
            },
          }),
          /"details.resourceBounds.l1_data_gas.max_amount".*u64/u,
        ],
        [
          'a malformed address',
          (p: Record<string, unknown>) => ({ ...p, address: 'alice' }),
          /"address".*Starknet address/u,
        ],
        [
          'a malformed senderAddress',
          (p: Record<string, unknown>) => ({ ...p, senderAddress: `0x${'8'.repeat(64)}` }),
          /"senderAddress".*Starknet address/u,
        ],
        [
          'a malformed details.senderAddress',
          withDetails({ senderAddress: '0x0' }),
          /"details.senderAddress".*Starknet address/u,
        ],
        [
          'no chainId',
          (p: Record<string, unknown>) => ({ ...p, chainId: undefined }),
          /"chainId" is required/u,
        ],
      ])('rejects %s with -32602', async (_label, change, message) => {
        const params = JSON.parse(JSON.stringify(change(declareParams(account0))));
        expectError(
          await shared.request({ method: 'l2_signDeclareTransaction', params }),
          -32602,
          message,
        );
      });
    });
  });
});
