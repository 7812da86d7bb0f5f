import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash, num } from 'starknet';
import { OZ_ACCOUNT_CLASS_HASH, STRK_TOKEN_ADDRESS } from '../src';
import {
  BOUNDS,
  Conformance,
  httpSpecMethods,
  signedDeclare,
  signedDeployAccount,
  signedInvoke,
} from './conformance-harness';
import { rpc, startTestDevnet, TestDevnet, transferCall } from './helpers';

// The write and trace APIs of starknet-specs v0.10.0 on a running devnet: every submission,
// simulation and trace method with valid transactions of each type, with invalid params, and
// with each refusal the spec lists that this node can meet; results and errors against the
// spec's schemas.

const counterClass = JSON.parse(
  readFileSync(join(__dirname, 'fixtures/counter.contract_class.json'), 'utf8'),
);
const UNKNOWN = '0x123456789abcdef';
const UNKNOWN_BLOCKS = [{ block_number: 99_999 }, { block_hash: '0x1234' }];
const WRITE_METHODS = httpSpecMethods().filter((name) =>
  /^starknet_(add|simulate|trace)/.test(name),
);

describe('write and trace API conformance (starknet-specs v0.10.0)', () => {
  let t: TestDevnet;
  let c: Conformance;
  const hashes: string[] = [];

  beforeAll(async () => {
    t = await startTestDevnet();
    c = new Conformance(t.devnet.rpcUrl);
  });
  afterAll(() => t.devnet.close());

  const sender = () => t.devnet.predeployedAccounts[0];
  const nonceOf = async (address: string) =>
    BigInt(await c.result<string>('starknet_getNonce', ['pre_confirmed', address]));

  test('addInvokeTransaction: accepted, and refusals 52, 55, 54, 53, 59, 61, 58', async () => {
    const other = t.devnet.predeployedAccounts[1].address;
    const nonce = await nonceOf(sender().address);
    const invoke = signedInvoke(sender(), [transferCall(other, 7n)], nonce);
    const added = await c.result<{ transaction_hash: string }>('starknet_addInvokeTransaction', {
      invoke_transaction: invoke,
    });
    hashes.push(added.transaction_hash);
    await c.error('starknet_addInvokeTransaction', [invoke], 59);
    const stale = signedInvoke(sender(), [transferCall(other, 8n)], nonce);
    await c.error('starknet_addInvokeTransaction', [stale], 52);
    const next = nonce + 1n;
    const badSignature = signedInvoke(sender(), [transferCall(other, 1n)], next, {
      signature: ['0x1', '0x2'],
    });
    await c.error('starknet_addInvokeTransaction', [badSignature], 55);
    const rich = {
      ...BOUNDS,
      l2_gas: { max_amount: '0xffffffffffff', max_price_per_unit: '0xffffffffffff' },
    };
    const tooDear = { ...signedInvoke(sender(), [], next), resource_bounds: rich };
    await c.error('starknet_addInvokeTransaction', [tooDear], 54);
    const cheap = {
      ...BOUNDS,
      l2_gas: { max_amount: '0x4c4b40', max_price_per_unit: '0x1' },
    };
    await c.error(
      'starknet_addInvokeTransaction',
      [{ ...signedInvoke(sender(), [], next), resource_bounds: cheap }],
      53,
    );
    await c.error(
      'starknet_addInvokeTransaction',
      [{ ...signedInvoke(sender(), [], next), version: '0x1' }],
      61,
    );
    const notAccount = { ...signedInvoke(sender(), [], 0), sender_address: STRK_TOKEN_ADDRESS };
    await c.error('starknet_addInvokeTransaction', [notAccount], 58);
    await c.error('starknet_addInvokeTransaction', [{ ...invoke, calldata: 'x' }], -32602);
    await c.error('starknet_addInvokeTransaction', [{ ...invoke, type: 'DECLARE' }], -32602);
    await c.error('starknet_addInvokeTransaction', {}, -32602);
  });

  test('addDeclareTransaction: accepted, and refusals 51, 62, 55, 61', async () => {
    const nonce = await nonceOf(sender().address);
    const declare = signedDeclare(sender(), counterClass, '0xc0ffee', nonce);
    const added = await c.result<{ transaction_hash: string; class_hash: string }>(
      'starknet_addDeclareTransaction',
      { declare_transaction: declare },
    );
    hashes.push(added.transaction_hash);
    expect(added.class_hash).toBe(num.toHex(hash.computeContractClassHash(counterClass)));
    const again = signedDeclare(sender(), counterClass, '0xc0ffee', nonce + 1n);
    await c.error('starknet_addDeclareTransaction', [again], 51);
    const other = { ...counterClass, sierra_program: [...counterClass.sierra_program, '0x1'] };
    const oldVersion = { ...other, contract_class_version: '0.0.1' };
    await c.error(
      'starknet_addDeclareTransaction',
      [signedDeclare(sender(), oldVersion, '0xc0ffee', nonce + 1n)],
      62,
    );
    await c.error(
      'starknet_addDeclareTransaction',
      [{ ...signedDeclare(sender(), other, '0xc0ffee', nonce + 1n), signature: ['0x1', '0x2'] }],
      55,
    );
    await c.error(
      'starknet_addDeclareTransaction',
      [{ ...signedDeclare(sender(), other, '0xc0ffee', nonce + 1n), version: '0x2' }],
      61,
    );
    await c.error('starknet_addDeclareTransaction', [{ ...declare, contract_class: 1 }], -32602);
  });

  test('addDeployAccountTransaction: accepted, and refusals 28, 55, 54', async () => {
    const { address, tx } = signedDeployAccount('0x5eed1', OZ_ACCOUNT_CLASS_HASH);
    await c.error('starknet_addDeployAccountTransaction', [tx], 54);
    await rpc(t.devnet.rpcUrl, 'devnet_mint', { address, amount: 10 ** 18, unit: 'FRI' });
    await c.error(
      'starknet_addDeployAccountTransaction',
      [{ ...tx, signature: ['0x1', '0x2'] }],
      55,
    );
    const unknownClass = signedDeployAccount('0x5eed1', UNKNOWN);
    await c.error('starknet_addDeployAccountTransaction', [unknownClass.tx], 28);
    const added = await c.result<{ transaction_hash: string; contract_address: string }>(
      'starknet_addDeployAccountTransaction',
      { deploy_account_transaction: tx },
    );
    hashes.push(added.transaction_hash);
    expect(added.contract_address).toBe(address);
    await c.error('starknet_addDeployAccountTransaction', [{ ...tx, class_hash: 5 }], -32602);
  });

  test('simulateTransactions: every type, every flag, errors 24 and 41', async () => {
    const nonce = await nonceOf(sender().address);
    const other = t.devnet.predeployedAccounts[1].address;
    const invoke = signedInvoke(sender(), [transferCall(other, 3n)], nonce);
    const fresh = { ...counterClass, sierra_program: [...counterClass.sierra_program, '0x2'] };
    const declare = signedDeclare(sender(), fresh, '0xc0ffee', nonce + 1n);
    const deploy = signedDeployAccount('0x5eed2', OZ_ACCOUNT_CLASS_HASH);
    await rpc(t.devnet.rpcUrl, 'devnet_mint', {
      address: deploy.address,
      amount: 10 ** 18,
      unit: 'FRI',
    });
    const flagSets = [
      [],
      ['SKIP_VALIDATE'],
      ['SKIP_FEE_CHARGE'],
      ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'],
    ];
    for (const block_id of ['latest', 'pre_confirmed']) {
      for (const simulation_flags of flagSets) {
        const results = await c.result<unknown[]>('starknet_simulateTransactions', {
          block_id,
          transactions: [invoke, declare, deploy.tx],
          simulation_flags,
        });
        expect(results).toHaveLength(3);
      }
    }
    const stale = signedInvoke(sender(), [], 0);
    const e41 = await c.error('starknet_simulateTransactions', ['latest', [invoke, stale], []], 41);
    expect((e41.data as { transaction_index: number }).transaction_index).toBe(1);
    for (const block_id of UNKNOWN_BLOCKS)
      await c.error('starknet_simulateTransactions', [block_id, [invoke], []], 24);
    await c.error('starknet_simulateTransactions', ['latest', [invoke], ['SKIP_NOTHING']], -32602);
    await c.error('starknet_simulateTransactions', ['latest', [invoke]], -32602);
  });

  test('traces: each type, a revert, a block; errors 29, 24', async () => {
    const other = t.devnet.predeployedAccounts[1].address;
    const nonce = await nonceOf(sender().address);
    const reverted = signedInvoke(sender(), [transferCall(other, 10n ** 30n)], nonce);
    const added = await c.result<{ transaction_hash: string }>('starknet_addInvokeTransaction', [
      reverted,
    ]);
    hashes.push(added.transaction_hash);
    for (const transaction_hash of hashes) {
      await c.result('starknet_traceTransaction', { transaction_hash });
    }
    const trace = await c.result<{ execute_invocation: { revert_reason?: string } }>(
      'starknet_traceTransaction',
      [added.transaction_hash],
    );
    expect(trace.execute_invocation.revert_reason).toMatch(/balance/);
    await c.error('starknet_traceTransaction', [UNKNOWN], 29);
    await c.error('starknet_traceTransaction', [], -32602);
    for (const block_id of ['latest', 'pre_confirmed', { block_number: 1 }]) {
      await c.result('starknet_traceBlockTransactions', { block_id });
    }
    for (const block_id of UNKNOWN_BLOCKS)
      await c.error('starknet_traceBlockTransactions', { block_id }, 24);
    await c.error('starknet_traceBlockTransactions', { block_id: 'nope' }, -32602);
  });

  test('every write and trace method was checked with a result and an error', () => {
    expect(c.missing(WRITE_METHODS, true)).toEqual([]);
  });
});

describe('a transaction still RECEIVED (block-time mode)', () => {
  let t: TestDevnet;
  beforeAll(async () => {
    t = await startTestDevnet({ blockTime: 60_000, preconfirmDelayMs: 60_000 });
  });
  afterAll(() => t.devnet.close());

  test('its trace is 10 NO_TRACE_AVAILABLE with status RECEIVED; its receipt 29', async () => {
    const c = new Conformance(t.devnet.rpcUrl);
    const account = t.devnet.predeployedAccounts[0];
    const invoke = signedInvoke(account, [], 0);
    const { transaction_hash } = await c.result<{ transaction_hash: string }>(
      'starknet_addInvokeTransaction',
      [invoke],
    );
    const error = await c.error('starknet_traceTransaction', [transaction_hash], 10);
    expect(error.data).toEqual({ status: 'RECEIVED' });
    await c.error('starknet_getTransactionReceipt', [transaction_hash], 29);
    expect(await c.result('starknet_getTransactionStatus', [transaction_hash])).toEqual({
      finality_status: 'RECEIVED',
    });
  });
});
