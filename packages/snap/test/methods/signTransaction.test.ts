import { STRK_TOKEN as STRK } from '@l2wallet/testkit';
import { hash, transaction, type Call } from 'starknet';

import {
  asConfirmation,
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  hex,
  jsonParams,
  MAINNET,
  OTHER_SRP,
  pad,
  resultOf,
  snapWithAccounts,
  TESTNET,
  verifyWithScure,
} from '../harness/snap';
import { BOUNDS, DETAILS, toBoundsBN } from '../harness/transactions';

type SnapRequest = Awaited<ReturnType<typeof snapWithAccounts>>['request'];

const RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

const CALLS = [
  { contractAddress: STRK, entrypoint: 'transfer', calldata: [RECIPIENT, '1000', '0'] },
  { contractAddress: STRK, entrypoint: 'approve', calldata: ['0x42', 5, '0x0'] },
];

/** The v3 invoke hash as starknet.js computes it. */
function expectedInvokeHash(
  sender: string,
  chainId: string,
  calls: Call[],
  details = DETAILS,
): string {
  return hash.calculateInvokeTransactionHash({
    senderAddress: sender,
    version: '0x3',
    compiledCalldata: transaction.getExecuteCalldata(calls, '1'),
    chainId: chainId as never,
    nonce: details.nonce,
    accountDeploymentData: [],
    nonceDataAvailabilityMode: details.nonceDataAvailabilityMode === 'L1' ? 0 : 1,
    feeDataAvailabilityMode: details.feeDataAvailabilityMode === 'L1' ? 0 : 1,
    resourceBounds: toBoundsBN(details.resourceBounds),
    tip: details.tip,
    paymasterData: details.paymasterData,
  });
}

describe('l2_signTransaction', () => {
  /** Signs CALLS with `account` (sender in `field`), the dialog checked and approved. */
  async function signsTheInvokeHash(
    request: SnapRequest,
    account: Awaited<ReturnType<typeof expectedAccount>>,
    field: string,
    chainId: string,
  ): Promise<void> {
    const pending = request({
      method: 'l2_signTransaction',
      params: {
        [field]: account.address,
        chainId,
        transactions: CALLS,
        transactionsDetail: DETAILS,
      },
    });
    const ui = asConfirmation(await pending.getInterface());
    expect(ui.type).toBe('confirmation');
    const text = dialogText(ui.content);
    expect(text).toContain(account.address);
    expect(text).toContain('transfer');
    expect(text).toContain('approve');
    expect(text).toContain(`0x${BigInt(STRK).toString(16).padStart(64, '0')}`);
    expect(text).toContain(hex(RECIPIENT));
    await ui.ok();

    const signature = resultOf<string[]>(await pending);
    expect(signature).toHaveLength(2);
    signature.forEach((value) => expect(value).toMatch(/^0x[0-9a-f]+$/u));
    const txHash = expectedInvokeHash(account.address, chainId, CALLS as Call[]);
    expect(verifyWithScure(account, txHash, signature)).toBe(true);
  }

  it.each([['address', TESTNET, OTHER_SRP, 1]])(
    'signs the v3 invoke hash (sender in %s, chain %s)',
    async (field, chainId, srp, index) => {
      const { request } = await snapWithAccounts([index], srp);
      await signsTheInvokeHash(request, await expectedAccount(srp, index), field, chainId);
    },
  );

  // Signing stores nothing (no grant, record or counter; methods/signTransaction.ts), and so
  // neither does a decline or a refusal: the tests below share one snap, installed when this
  // block starts. snaps-jest stops a snap when another is installed, and nothing here installs.
  describe('on one snap with accounts 0, 1 and 7', () => {
    let shared: { request: SnapRequest };
    beforeAll(async () => {
      shared = await snapWithAccounts([0, 1, 7]);
    });

    it.each([
      ['address', TESTNET, DEFAULT_SRP, 0],
      ['senderAddress', MAINNET, DEFAULT_SRP, 7],
    ])('signs the v3 invoke hash (sender in %s, chain %s)', async (field, chainId, srp, index) => {
      await signsTheInvokeHash(shared.request, await expectedAccount(srp, index), field, chainId);
    });

    it('defaults tip, paymasterData, DA modes and l1_data_gas like starknet.js', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const { l1_data_gas: _omitted, ...bounds } = BOUNDS;
      const pending = request({
        method: 'starkNet_signTransaction',
        params: {
          address: account.address,
          chainId: TESTNET,
          transactions: [CALLS[0]],
          transactionsDetail: { nonce: 0, resourceBounds: bounds },
        },
      });
      await asConfirmation(await pending.getInterface()).ok();
      const signature = resultOf<string[]>(await pending);
      const txHash = expectedInvokeHash(account.address, TESTNET, [CALLS[0]] as Call[], {
        nonce: '0x0',
        resourceBounds: { ...BOUNDS, l1_data_gas: { max_amount: '0', max_price_per_unit: '0' } },
        tip: '0x0',
        paymasterData: [],
        nonceDataAvailabilityMode: 'L1',
        feeDataAvailabilityMode: 'L1',
        version: '0x3',
      });
      expect(verifyWithScure(account, txHash, signature)).toBe(true);
    });

    it('answers 4001 when the user declines', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const pending = request({
        method: 'l2_signTransaction',
        params: {
          address: account.address,
          chainId: TESTNET,
          transactions: CALLS,
          transactionsDetail: DETAILS,
        },
      });
      await asConfirmation(await pending.getInterface()).cancel();
      expectError(await pending, 4001);
    });

    it('shows all 30 of 30 calls, each with its full calldata', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const calls = Array.from({ length: 30 }, (_, index) => ({
        contractAddress: STRK,
        entrypoint: `entry_${index + 1}`,
        calldata: [hex(0xc0de00n + BigInt(index))],
      }));
      const pending = request({
        method: 'l2_signTransaction',
        params: jsonParams({
          address: account.address,
          chainId: TESTNET,
          transactions: calls,
          transactionsDetail: DETAILS,
        }),
      });
      const ui = asConfirmation(await pending.getInterface());
      const text = dialogText(ui.content);
      for (const [index, call] of calls.entries()) {
        expect(text).toContain(`Call ${index + 1} of 30: ${call.entrypoint}`);
        expect(text).toContain(call.calldata[0]);
      }
      expect(text).not.toMatch(/more calls/u);
      await ui.cancel();
      expectError(await pending, 4001);
    });

    it('shows a long calldata value in full', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const calldata = Array.from({ length: 400 }, (_, index) => pad(BigInt(index + 1) * 0x1111n));
      const pending = request({
        method: 'l2_signTransaction',
        params: jsonParams({
          address: account.address,
          chainId: TESTNET,
          transactions: [{ contractAddress: STRK, entrypoint: 'multicall_data', calldata }],
          transactionsDetail: DETAILS,
        }),
      });
      const ui = asConfirmation(await pending.getInterface());
      const text = dialogText(ui.content);
      expect(text).toContain(calldata.map((felt) => hex(felt)).join(', '));
      expect(text).not.toMatch(/\.\.\./u);
      await ui.cancel();
      expectError(await pending, 4001);
    });

    it('refuses, never cuts, a request too large for a dialog', async () => {
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const { request } = shared;
      const felt = `0x${'7'.repeat(62)}`;
      const calls = Array.from({ length: 256 }, () => ({
        contractAddress: STRK,
        entrypoint: 'big',
        calldata: Array.from({ length: 560 }, () => felt),
      }));
      expectError(
        await request({
          method: 'l2_signTransaction',
          params: jsonParams({
            address: account.address,
            chainId: TESTNET,
            transactions: calls,
            transactionsDetail: DETAILS,
          }),
        }),
        -32602,
        /"params" is too large to show in full/u,
      );
    });

    const base = (address: string): Record<string, unknown> => ({
      address,
      chainId: TESTNET,
      transactions: CALLS,
      transactionsDetail: DETAILS,
    });

    describe('invalid params', () => {
      // The shared snap's account 0.
      let account0: string;
      beforeAll(async () => {
        account0 = (await expectedAccount(DEFAULT_SRP, 0)).address;
      });

      it.each([
        ['no transactions', { transactions: undefined }, /"transactions" is required/u],
        ['an empty call list', { transactions: [] }, /"transactions"/u],
        [
          'a call with a bad contract address',
          { transactions: [{ ...CALLS[0], contractAddress: '0xg' }] },
          /"transactions.0.contractAddress".*Starknet address/u,
        ],
        [
          'a call without entrypoint',
          { transactions: [{ contractAddress: STRK, calldata: [] }] },
          /"transactions.0.entrypoint" is required/u,
        ],
        [
          'a call with an empty entrypoint',
          { transactions: [{ contractAddress: STRK, entrypoint: ' ' }] },
          /"transactions.0.entrypoint"/u,
        ],
        [
          'calldata that is not felts',
          { transactions: [{ ...CALLS[0], calldata: ['abc'] }] },
          /"transactions.0.calldata.0".*felt/u,
        ],
        [
          'calldata above the field prime',
          { transactions: [{ ...CALLS[0], calldata: [`0x${'f'.repeat(64)}`] }] },
          /"transactions.0.calldata.0"/u,
        ],
        ['no details', { transactionsDetail: undefined }, /"transactionsDetail" is required/u],
        [
          'no nonce',
          { transactionsDetail: { ...DETAILS, nonce: undefined } },
          /"transactionsDetail.nonce" is required/u,
        ],
        [
          'a negative nonce',
          { transactionsDetail: { ...DETAILS, nonce: -1 } },
          /"transactionsDetail.nonce"/u,
        ],
        [
          'a nonce above the field prime',
          { transactionsDetail: { ...DETAILS, nonce: `0x${'f'.repeat(64)}` } },
          /"transactionsDetail.nonce".*below the Stark field prime/u,
        ],
        [
          'a tip above u64',
          { transactionsDetail: { ...DETAILS, tip: (2n ** 64n).toString() } },
          /"transactionsDetail.tip".*u64/u,
        ],
        [
          'no resourceBounds',
          { transactionsDetail: { ...DETAILS, resourceBounds: undefined } },
          /"transactionsDetail.resourceBounds" is required/u,
        ],
        [
          'a u64 amount overflow',
          {
            transactionsDetail: {
              ...DETAILS,
              resourceBounds: {
                ...BOUNDS,
                l2_gas: { max_amount: (2n ** 64n).toString(), max_price_per_unit: '1' },
              },
            },
          },
          /"transactionsDetail.resourceBounds.l2_gas.max_amount".*u64/u,
        ],
        [
          'a bad DA mode',
          { transactionsDetail: { ...DETAILS, feeDataAvailabilityMode: 'L3' } },
          /"transactionsDetail.feeDataAvailabilityMode".*'L1' or 'L2'/u,
        ],
        [
          'version 1',
          { transactionsDetail: { ...DETAILS, version: '0x1' } },
          /"transactionsDetail.version"/u,
        ],
        ...(['', '  '] as const).flatMap((blank): [string, Record<string, unknown>, RegExp][] => [
          [
            `a tip of ${JSON.stringify(blank)}`,
            { transactionsDetail: { ...DETAILS, tip: blank } },
            /"transactionsDetail.tip".*u64/u,
          ],
          ...(['l1_gas', 'l2_gas', 'l1_data_gas'] as const).flatMap((gas) =>
            (['max_amount', 'max_price_per_unit'] as const).map(
              (field): [string, Record<string, unknown>, RegExp] => [
                `a ${gas}.${field} of ${JSON.stringify(blank)}`,
                {
                  transactionsDetail: {
                    ...DETAILS,
                    resourceBounds: { ...BOUNDS, [gas]: { ...BOUNDS[gas], [field]: blank } },
                  },
                },
                new RegExp(`"transactionsDetail\\.resourceBounds\\.${gas}\\.${field}"`, 'u'),
              ],
            ),
          ),
        ]),
        [
          'a paymasterData entry that is not a felt',
          { transactionsDetail: { ...DETAILS, paymasterData: ['0x7', 'pay'] } },
          /"transactionsDetail.paymasterData.1".*felt/u,
        ],
        [
          'a max_price_per_unit above u128',
          {
            transactionsDetail: {
              ...DETAILS,
              resourceBounds: {
                ...BOUNDS,
                l1_gas: { max_amount: '1', max_price_per_unit: (2n ** 128n).toString() },
              },
            },
          },
          /"transactionsDetail.resourceBounds.l1_gas.max_price_per_unit".*u128/u,
        ],
        [
          'no l1_gas',
          {
            transactionsDetail: {
              ...DETAILS,
              resourceBounds: { l2_gas: BOUNDS.l2_gas, l1_data_gas: BOUNDS.l1_data_gas },
            },
          },
          /"transactionsDetail.resourceBounds.l1_gas" is required/u,
        ],
        [
          'a bad nonceDataAvailabilityMode',
          { transactionsDetail: { ...DETAILS, nonceDataAvailabilityMode: 2 } },
          /"transactionsDetail.nonceDataAvailabilityMode".*'L1' or 'L2'/u,
        ],
        [
          'a malformed senderAddress',
          { senderAddress: '0xnot-an-address' },
          /"senderAddress".*Starknet address/u,
        ],
        [
          'a senderAddress of 64 hex digits at or above 2^251',
          { senderAddress: `0x${'8'.repeat(64)}` },
          /"senderAddress".*Starknet address/u,
        ],
        [
          'an address of 64 zero digits',
          { address: `0x${'0'.repeat(64)}` },
          /"address".*Starknet address/u,
        ],
        [
          'accountDeploymentData that is not felts',
          { transactionsDetail: { ...DETAILS, accountDeploymentData: [`0x${'f'.repeat(64)}`] } },
          /"transactionsDetail.accountDeploymentData.0".*felt/u,
        ],
        [
          'accountDeploymentData that is not a list',
          { transactionsDetail: { ...DETAILS, accountDeploymentData: '0x1' } },
          /"transactionsDetail.accountDeploymentData"/u,
        ],
        ['no chainId', { chainId: undefined }, /"chainId" is required/u],
        ['an unknown chainId', { chainId: '0x1234' }, /"chainId".*known chain ID/u],
        ['no sender', { address: undefined }, /"address" is required/u],
      ])('rejects %s with -32602', async (_label, override, message) => {
        const params = JSON.parse(JSON.stringify({ ...base(account0), ...override }));
        expectError(
          await shared.request({ method: 'l2_signTransaction', params }),
          -32602,
          message,
        );
      });
    });

    it('rejects address and senderAddress that disagree', async () => {
      const a0 = await expectedAccount(DEFAULT_SRP, 0);
      const a1 = await expectedAccount(DEFAULT_SRP, 1);
      const { request } = shared;
      expectError(
        await request({
          method: 'l2_signTransaction',
          params: jsonParams({ ...base(a0.address), senderAddress: a1.address }),
        }),
        -32602,
        /"senderAddress" must equal "address"/u,
      );
    });

    it("rejects a sender that is not the snap's", async () => {
      const foreign = await expectedAccount(OTHER_SRP, 0);
      const { request } = shared;
      expectError(
        await request({ method: 'l2_signTransaction', params: jsonParams(base(foreign.address)) }),
        -32602,
        /"address" is not an account of this snap/u,
      );
    });
  });
});
