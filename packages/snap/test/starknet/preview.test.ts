/**
 * The preview's pure reading of a simulation (src/starknet/preview.ts): Transfer and Approval
 * events in both ERC-20 layouts, what counts and what does not (another contract's events, the
 * fee transfer, malformed events), revert reasons as nodes print them; and the invoke calldata an
 * outside execution's calls are simulated with (by selector).
 */
import { hash, transaction } from 'starknet';

import {
  decodeRevertReason,
  effectsOn,
  parseSimulatedTransaction,
  UNLIMITED_ALLOWANCE,
} from '../../src/starknet/preview';
import { decodeExecuteCalldata } from '../../src/starknet/records';
import { executeCalldata, selectorExecuteCalldata } from '../../src/starknet/transaction';

const ACCOUNT = '0xa11ce';
const OTHER = '0xb0b';
const TOKEN = '0x7001';
const TRANSFER = hash.getSelectorFromName('Transfer');
const APPROVAL = hash.getSelectorFromName('Approval');
const hex = (value: bigint | number) => `0x${BigInt(value).toString(16)}`;
const pad = (value: string) => `0x${BigInt(value).toString(16).padStart(64, '0')}`;

const FEE = {
  l1_gas_consumed: '0x0',
  l1_gas_price: '0x1',
  l1_data_gas_consumed: '0x0',
  l1_data_gas_price: '0x1',
  l2_gas_consumed: '0x10',
  l2_gas_price: '0x1',
  overall_fee: '0x10',
  unit: 'FRI',
};

/** Cairo 1 layout: the addresses are keys. */
const keyed = (selector: string, a: string, b: string, amount: bigint) => ({
  keys: [selector, a, b],
  data: [hex(amount % 2n ** 128n), hex(amount >> 128n)],
});
/** Older layout: everything in data. */
const flat = (selector: string, a: string, b: string, amount: bigint) => ({
  keys: [selector],
  data: [a, b, hex(amount % 2n ** 128n), hex(amount >> 128n)],
});

function simulated(execute: unknown, extra: Record<string, unknown> = {}) {
  return parseSimulatedTransaction({
    transaction_trace: { type: 'INVOKE', execute_invocation: execute, ...extra },
    fee_estimation: FEE,
  });
}

const invocation = (contract: string, events: unknown[], calls: unknown[] = []) => ({
  contract_address: contract,
  events,
  calls,
});

describe('effectsOn', () => {
  it('sums signed changes per token from nested calls, in both event layouts', () => {
    const tx = simulated(
      invocation(
        ACCOUNT,
        [],
        [
          invocation(TOKEN, [keyed(TRANSFER, ACCOUNT, OTHER, 15n * 10n ** 17n)]),
          invocation(OTHER, [], [invocation('0x7002', [flat(TRANSFER, OTHER, ACCOUNT, 2n)])]),
          invocation(TOKEN, [keyed(TRANSFER, OTHER, ACCOUNT, 5n)]),
        ],
      ),
    );
    expect(effectsOn(ACCOUNT, [tx]).changes).toEqual([
      { token: pad(TOKEN), amount: -15n * 10n ** 17n + 5n },
      { token: pad('0x7002'), amount: 2n },
    ]);
  });

  it('leaves out transfers that do not touch the account, and nets a transfer to itself to nothing', () => {
    const tx = simulated(
      invocation(TOKEN, [
        keyed(TRANSFER, OTHER, '0xc4a5', 9n),
        keyed(TRANSFER, ACCOUNT, ACCOUNT, 9n),
      ]),
    );
    expect(effectsOn(ACCOUNT, [tx]).changes).toEqual([]);
  });

  it('never reads the fee transfer, malformed events, or an amount that is no u256', () => {
    const tx = simulated(
      invocation(TOKEN, [
        { keys: [TRANSFER, ACCOUNT, OTHER], data: ['0x1'] },
        { keys: [TRANSFER, ACCOUNT, OTHER], data: [hex(2n ** 128n), '0x0'] },
        { keys: [TRANSFER, ACCOUNT, OTHER], data: ['0x1', 'nope'] },
      ]),
      { fee_transfer_invocation: invocation(TOKEN, [keyed(TRANSFER, ACCOUNT, OTHER, 100n)]) },
    );
    expect(effectsOn(ACCOUNT, [tx]).changes).toEqual([]);
  });

  it('keeps the last allowance the account sets per token and spender', () => {
    const tx = simulated(
      invocation(TOKEN, [
        keyed(APPROVAL, ACCOUNT, OTHER, 10n),
        flat(APPROVAL, ACCOUNT, OTHER, 2n ** 256n - 1n),
        keyed(APPROVAL, OTHER, ACCOUNT, 7n),
      ]),
    );
    const { approvals } = effectsOn(ACCOUNT, [tx]);
    expect(approvals).toEqual([
      { token: pad(TOKEN), spender: pad(OTHER), amount: 2n ** 256n - 1n },
    ]);
    expect(approvals[0].amount >= UNLIMITED_ALLOWANCE).toBe(true);
  });

  it('counts the deployment and the invoke together, and reports a revert with no execute events', () => {
    const deploy = parseSimulatedTransaction({
      transaction_trace: {
        type: 'DEPLOY_ACCOUNT',
        constructor_invocation: invocation(TOKEN, [keyed(TRANSFER, OTHER, ACCOUNT, 3n)]),
      },
      fee_estimation: FEE,
    });
    const reverted = simulated({
      revert_reason:
        "Execution failed. Failure reason:\n(0x45524332303a20696e73756666696369656e742062616c616e6365 ('ERC20: insufficient balance')).",
    });
    expect(effectsOn(ACCOUNT, [deploy, reverted])).toEqual({
      changes: [{ token: pad(TOKEN), amount: 3n }],
      approvals: [],
      revertReason: 'ERC20: insufficient balance',
    });
    expect(reverted.estimate.overall_fee).toBe(16n);
  });
});

describe('decodeRevertReason', () => {
  it.each([
    ['ERC20: insufficient balance', 'ERC20: insufficient balance'],
    [
      "Error in the called contract (0x1):\n(0x4f7574206f6620676173 ('Out of gas'), 0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED'))",
      'Out of gas, ENTRYPOINT_FAILED',
    ],
    ['Failure reason: 0x556e617574686f72697a6564.', 'Unauthorized'],
    ['  many   spaces\nand lines ', 'many spaces and lines'],
  ])('%j -> %j', (raw, decoded) => {
    expect(decodeRevertReason(raw)).toBe(decoded);
  });

  it('cuts a long reason at 300 characters', () => {
    expect(decodeRevertReason('x'.repeat(1000))).toHaveLength(303);
  });
});

describe('selectorExecuteCalldata', () => {
  const calls = [
    { contractAddress: TOKEN, entrypoint: 'transfer', calldata: [OTHER, '0x5', '0x0'] },
    { contractAddress: OTHER, entrypoint: 'approve', calldata: [] },
  ];
  const bySelector = calls.map((call) => ({
    to: call.contractAddress,
    selector: hash.getSelectorFromName(call.entrypoint),
    calldata: call.calldata,
  }));

  it("is starknet.js' Cairo 1 __execute__ calldata of the same calls named", () => {
    const named = transaction
      .getExecuteCalldata(
        calls.map((call) => ({ ...call })),
        '1',
      )
      .map((felt) => BigInt(felt));
    expect(selectorExecuteCalldata(bySelector).map((felt) => BigInt(felt))).toEqual(named);
    expect(selectorExecuteCalldata(bySelector)).toEqual(executeCalldata(calls));
  });

  it('runs the selector given, never a name: a selector that is no known entry point stays so', () => {
    const odd = [{ to: TOKEN, selector: '0x7472616e73666572', calldata: ['0x1'] }];
    const encoded = selectorExecuteCalldata(odd);
    expect(encoded).toEqual(['0x1', TOKEN, '0x7472616e73666572', '0x1', '0x1']);
    expect(decodeExecuteCalldata(encoded)).toEqual(odd);
  });
});
