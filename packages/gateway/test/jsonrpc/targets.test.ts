/** The contracts a call targets, as a key's contract allowlist reads them. */
import { CallData, transaction } from 'starknet';
import { contractTargets } from '../../src/jsonrpc/targets';

const invoke = (calldata: string[]) => ({ type: 'INVOKE', version: '0x3', calldata });
const A = '0xa';
const B = '0xb';

it('reads the calls of an invoke in the Cairo 1 and the Cairo 0 calldata shapes', () => {
  const calls = [
    { contractAddress: A, entrypoint: 'transfer', calldata: ['0x1', '0x2'] },
    { contractAddress: B, entrypoint: 'approve', calldata: [] },
  ];
  const cairo1 = CallData.toHex(transaction.getExecuteCalldata(calls, '1'));
  const cairo0 = CallData.toHex(transaction.getExecuteCalldata(calls, '0'));
  for (const calldata of [cairo1, cairo0]) {
    expect(contractTargets('starknet_addInvokeTransaction', [invoke(calldata)])).toEqual([A, B]);
    expect(
      contractTargets('starknet_estimateFee', {
        request: [invoke(calldata)],
        simulation_flags: [],
        block_id: 'latest',
      }),
    ).toEqual([A, B]);
  }
  expect(
    contractTargets('starknet_simulateTransactions', ['latest', [invoke(cairo1)], []]),
  ).toEqual([A, B]);
});

it('cannot tell the targets of calldata in no known shape, a declare or a deploy-account', () => {
  expect(contractTargets('starknet_addInvokeTransaction', [invoke(['0x5', '0x1'])])).toBeNull();
  expect(contractTargets('starknet_estimateFee', [[{ type: 'DECLARE' }], [], 'latest'])).toBeNull();
  expect(
    contractTargets('starknet_estimateFee', [
      [invoke(['0x1', A, '0x2', '0x0']), { type: 'DEPLOY_ACCOUNT' }],
      [],
      'latest',
    ]),
  ).toBeNull();
  expect(contractTargets('starknet_addDeployAccountTransaction', [{}])).toBeNull();
});

it('reads call, events and the EVM targets; other methods target nothing', () => {
  expect(contractTargets('starknet_call', [{ contract_address: A }, 'latest'])).toEqual([A]);
  expect(contractTargets('starknet_getEvents', { filter: { address: B } })).toEqual([B]);
  expect(contractTargets('starknet_getEvents', { filter: {} })).toBeNull();
  expect(contractTargets('eth_call', [{ to: A }])).toEqual([A]);
  expect(contractTargets('eth_call', [{ data: '0x' }])).toBeNull();
  expect(contractTargets('eth_getLogs', [{ address: [A, B] }])).toEqual([A, B]);
  expect(contractTargets('eth_getLogs', [{ address: [] }])).toBeNull();
  expect(contractTargets('eth_getBalance', [A, 'latest'])).toBeUndefined();
  expect(contractTargets('starknet_getNonce', ['latest', A])).toBeUndefined();
});

it('reads the from_address of a Starknet events subscription, by name or position', () => {
  expect(contractTargets('starknet_subscribeEvents', { from_address: A })).toEqual([A]);
  expect(contractTargets('starknet_subscribeEvents', [[A, B]])).toEqual([A, B]);
  // No address: every contract's events, which a contract allowlist does not cover.
  expect(contractTargets('starknet_subscribeEvents', { keys: [[A]] })).toBeNull();
  expect(contractTargets('starknet_subscribeNewHeads', {})).toBeUndefined();
});
