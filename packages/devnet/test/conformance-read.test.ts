import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash, num } from 'starknet';
import { OZ_ACCOUNT_CLASS_HASH, STRK_TOKEN_ADDRESS, UDC_ADDRESS } from '../src';
import { Conformance, httpSpecMethods, QUERY_V3, signedInvoke } from './conformance-harness';
import { rpc, startTestDevnet, TestDevnet, transferCall, WAIT } from './helpers';

// Every method of the read API of starknet-specs v0.10.0, called on a running devnet with valid
// params at every kind of block id, with invalid params, and with unknown blocks, classes,
// contracts and transactions; each result and error is held to the spec's schemas.

const counterClass = JSON.parse(
  readFileSync(join(__dirname, 'fixtures/counter.contract_class.json'), 'utf8'),
);
const UNKNOWN = '0x123456789abcdef';
const UNKNOWN_BLOCKS = [{ block_number: 99_999 }, { block_hash: '0x1234' }];
const BAD_BLOCK_IDS = ['earliest', { block_number: -1 }, { block_hash: 'xyz' }];

const READ_METHODS = httpSpecMethods().filter(
  (name) =>
    !/^starknet_(add|simulate|trace)/.test(name) &&
    // Answered in their own suites, where messages are sent and blocks accepted on L1.
    !['starknet_getMessagesStatus', 'starknet_estimateMessageFee'].includes(name),
);

describe('read API conformance (starknet-specs v0.10.0)', () => {
  let t: TestDevnet;
  let c: Conformance;
  let transferHash: string;
  let revertedHash: string;
  let declareHash: string;
  let counterAddress: string;
  const classHash = num.toHex(hash.computeContractClassHash(counterClass));
  let blockIds: unknown[];

  beforeAll(async () => {
    t = await startTestDevnet();
    c = new Conformance(t.devnet.rpcUrl);
    const account = t.account(0);
    const other = t.devnet.predeployedAccounts[1].address;
    transferHash = (await account.execute(transferCall(other, 5n))).transaction_hash;
    await t.provider.waitForTransaction(transferHash, WAIT);
    const declared = await account.declare({
      contract: counterClass,
      compiledClassHash: '0xc0ffee',
    });
    declareHash = declared.transaction_hash;
    await t.provider.waitForTransaction(declareHash, WAIT);
    const deployed = await account.deployContract({ classHash, unique: false }, WAIT);
    counterAddress = deployed.contract_address;
    // Above the balance: included, REVERTED, with a reason.
    revertedHash = (
      await account.execute(transferCall(other, 10n ** 30n), {
        resourceBounds: {
          l1_gas: { max_amount: 0n, max_price_per_unit: 200_000_000_000n },
          l2_gas: { max_amount: 2_000_000n, max_price_per_unit: 2_000_000n },
          l1_data_gas: { max_amount: 2_000n, max_price_per_unit: 200_000n },
        },
      })
    ).transaction_hash;
    await t.provider.waitForTransaction(revertedHash, WAIT);
    const head = await c.result<{ block_hash: string; block_number: number }>(
      'starknet_blockHashAndNumber',
    );
    await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', { starting_block_id: { block_number: 2 } });
    blockIds = [
      'latest',
      'pre_confirmed',
      { block_number: 0 },
      { block_number: head.block_number },
      { block_hash: head.block_hash },
      'l1_accepted',
    ];
  });
  afterAll(() => t.devnet.close());

  test('chain: spec version, chain id, syncing, heads', async () => {
    expect(await c.result('starknet_specVersion')).toBe('0.10.0');
    expect(await c.result('starknet_chainId')).toBe('0x534e5f5345504f4c4941');
    expect(await c.result('starknet_syncing')).toBe(false);
    expect(await c.result('starknet_blockNumber')).toBeGreaterThan(0);
    await c.result('starknet_blockNumber', []);
    await c.error('starknet_blockNumber', ['extra'], -32602);
    await c.error('starknet_blockHashAndNumber', { extra: 1 }, -32602);
  });

  test('blocks at every kind of block id, each against the half of the oneOf it selects', async () => {
    const methods = [
      'starknet_getBlockWithTxHashes',
      'starknet_getBlockWithTxs',
      'starknet_getBlockWithReceipts',
      'starknet_getStateUpdate',
      'starknet_getBlockTransactionCount',
    ];
    for (const method of methods) {
      for (const block_id of blockIds) await c.result(method, { block_id });
      await c.result(method, ['latest']);
      for (const block_id of UNKNOWN_BLOCKS) await c.error(method, { block_id }, 24);
      for (const block_id of BAD_BLOCK_IDS) await c.error(method, { block_id }, -32602);
      await c.error(method, {}, -32602);
    }
    const block = await c.result<{ status: string; transactions: unknown[] }>(
      'starknet_getBlockWithReceipts',
      { block_id: 'latest' },
    );
    expect(block.status).toBe('ACCEPTED_ON_L2');
    expect(block.transactions).toHaveLength(1);
  });

  test('state: nonce, class hash, class, storage', async () => {
    const address = t.devnet.predeployedAccounts[0].address;
    for (const block_id of blockIds) {
      await c.result('starknet_getNonce', { block_id, contract_address: address });
      await c.result('starknet_getClassHashAt', { block_id, contract_address: address });
      await c.result('starknet_getClassAt', { block_id, contract_address: address });
      await c.result('starknet_getClass', { block_id, class_hash: OZ_ACCOUNT_CLASS_HASH });
      await c.result('starknet_getStorageAt', {
        contract_address: STRK_TOKEN_ADDRESS,
        key: '0x0',
        block_id,
      });
    }
    // The declared Sierra class, served as declared.
    const served = await c.result<{ sierra_program: string[] }>('starknet_getClass', {
      block_id: 'latest',
      class_hash: classHash,
    });
    expect(served.sierra_program).toHaveLength(counterClass.sierra_program.length);
    await c.result('starknet_getClassAt', ['latest', counterAddress]);
    for (const method of ['starknet_getNonce', 'starknet_getClassHashAt', 'starknet_getClassAt']) {
      await c.error(method, { block_id: 'latest', contract_address: UNKNOWN }, 20);
      for (const block_id of UNKNOWN_BLOCKS)
        await c.error(method, { block_id, contract_address: address }, 24);
      await c.error(method, { block_id: 'latest', contract_address: 'not a felt' }, -32602);
      await c.error(method, { block_id: 'latest' }, -32602);
    }
    await c.error('starknet_getClass', { block_id: 'latest', class_hash: UNKNOWN }, 28);
    // A class declared after block 0 is unknown there.
    await c.error(
      'starknet_getClass',
      { block_id: { block_number: 0 }, class_hash: classHash },
      28,
    );
    for (const block_id of UNKNOWN_BLOCKS) {
      await c.error('starknet_getClass', { block_id, class_hash: classHash }, 24);
      await c.error(
        'starknet_getStorageAt',
        { contract_address: STRK_TOKEN_ADDRESS, key: '0x0', block_id },
        24,
      );
    }
    await c.error(
      'starknet_getStorageAt',
      { contract_address: UNKNOWN, key: '0x0', block_id: 'latest' },
      20,
    );
    await c.error(
      'starknet_getStorageAt',
      { contract_address: STRK_TOKEN_ADDRESS, key: '0x' + '1'.repeat(70), block_id: 'latest' },
      -32602,
    );
  });

  test('transactions: by hash, by index, receipts, statuses', async () => {
    for (const txHash of [transferHash, revertedHash, declareHash]) {
      await c.result('starknet_getTransactionByHash', { transaction_hash: txHash });
      await c.result('starknet_getTransactionReceipt', { transaction_hash: txHash });
      await c.result('starknet_getTransactionStatus', { transaction_hash: txHash });
    }
    const reverted = await c.result<{ execution_status: string; revert_reason: string }>(
      'starknet_getTransactionReceipt',
      [revertedHash],
    );
    expect(reverted.execution_status).toBe('REVERTED');
    expect(reverted.revert_reason).toMatch(/balance/);
    for (const method of [
      'starknet_getTransactionByHash',
      'starknet_getTransactionReceipt',
      'starknet_getTransactionStatus',
    ]) {
      await c.error(method, { transaction_hash: UNKNOWN }, 29);
      await c.error(method, { transaction_hash: 12 }, -32602);
      await c.error(method, {}, -32602);
    }
    // Genesis (block 0) is built without transactions.
    for (const block_id of blockIds.slice(3)) {
      await c.result('starknet_getTransactionByBlockIdAndIndex', { block_id, index: 0 });
    }
    await c.error('starknet_getTransactionByBlockIdAndIndex', ['latest', 1], 27);
    await c.error('starknet_getTransactionByBlockIdAndIndex', ['pre_confirmed', 0], 27);
    for (const block_id of UNKNOWN_BLOCKS)
      await c.error('starknet_getTransactionByBlockIdAndIndex', { block_id, index: 0 }, 24);
    await c.error('starknet_getTransactionByBlockIdAndIndex', ['latest', -1], -32602);
  });

  test('call: results, and errors 20, 21, 40, 24', async () => {
    const request = {
      contract_address: STRK_TOKEN_ADDRESS,
      entry_point_selector: hash.getSelectorFromName('balance_of'),
      calldata: [t.devnet.predeployedAccounts[0].address],
    };
    for (const block_id of blockIds) await c.result('starknet_call', { request, block_id });
    await c.error(
      'starknet_call',
      { request: { ...request, contract_address: UNKNOWN }, block_id: 'latest' },
      20,
    );
    const missing = { ...request, entry_point_selector: hash.getSelectorFromName('nope') };
    const e21 = await c.error('starknet_call', { request: missing, block_id: 'latest' }, 21);
    expect(e21.message).toBe('Requested entry point does not exist in the contract');
    // A declared class that cannot run here still knows its entry points.
    await c.error(
      'starknet_call',
      { request: { ...missing, contract_address: counterAddress }, block_id: 'latest' },
      21,
    );
    const transfer = {
      ...request,
      entry_point_selector: hash.getSelectorFromName('transfer'),
      calldata: [t.devnet.predeployedAccounts[1].address, '0x1', '0x0'],
    };
    await c.error('starknet_call', { request: transfer, block_id: 'latest' }, 40);
    for (const block_id of UNKNOWN_BLOCKS)
      await c.error('starknet_call', { request, block_id }, 24);
    await c.error('starknet_call', { request: { calldata: [] }, block_id: 'latest' }, -32602);
    await c.error('starknet_call', { request }, -32602);
  });

  test('estimateFee: results with and without flags, errors 41 and 24', async () => {
    const sender = t.devnet.predeployedAccounts[0];
    const nonce = BigInt(await c.result<string>('starknet_getNonce', ['latest', sender.address]));
    const other = t.devnet.predeployedAccounts[2].address;
    const invoke = signedInvoke(sender, [transferCall(other, 1n)], nonce, { version: QUERY_V3 });
    for (const block_id of blockIds.slice(0, 2)) {
      await c.result('starknet_estimateFee', {
        request: [invoke],
        simulation_flags: [],
        block_id,
      });
      await c.result('starknet_estimateFee', [[invoke], ['SKIP_VALIDATE'], block_id]);
    }
    // Two in a row: the second sees the first's nonce.
    const next = signedInvoke(sender, [transferCall(other, 1n)], nonce + 1n, {
      version: QUERY_V3,
    });
    const both = await c.result<unknown[]>('starknet_estimateFee', [[invoke, next], [], 'latest']);
    expect(both).toHaveLength(2);
    const stale = signedInvoke(sender, [transferCall(other, 1n)], 0, { version: QUERY_V3 });
    const e41 = await c.error('starknet_estimateFee', [[invoke, stale], [], 'latest'], 41);
    expect((e41.data as { transaction_index: number }).transaction_index).toBe(1);
    const undeployed = { ...invoke, sender_address: UNKNOWN };
    await c.error('starknet_estimateFee', [[undeployed], [], 'latest'], 41);
    for (const block_id of UNKNOWN_BLOCKS)
      await c.error('starknet_estimateFee', [[invoke], [], block_id], 24);
    await c.error('starknet_estimateFee', [[invoke], ['SKIP_FEE_CHARGE'], 'latest'], -32602);
    await c.error(
      'starknet_estimateFee',
      [[{ ...invoke, nonce: undefined }], [], 'latest'],
      -32602,
    );
    await c.error('starknet_estimateFee', [[{ ...invoke, version: '0x1' }], [], 'latest'], -32602);
    await c.error('starknet_estimateFee', [[invoke], []], -32602);
  });

  test('getEvents: pages, and errors 31, 33, 24, 34', async () => {
    const filter = { from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 2 };
    const page = await c.result<{ events: unknown[]; continuation_token?: string }>(
      'starknet_getEvents',
      { filter },
    );
    expect(page.events).toHaveLength(2);
    await c.result('starknet_getEvents', {
      filter: { ...filter, continuation_token: page.continuation_token },
    });
    await c.result('starknet_getEvents', {
      filter: { ...filter, address: STRK_TOKEN_ADDRESS, keys: [[], [UNKNOWN]] },
    });
    await c.result('starknet_getEvents', { filter: { ...filter, to_block: 'pre_confirmed' } });
    await c.error('starknet_getEvents', { filter: { ...filter, chunk_size: 100_000 } }, 31);
    await c.error('starknet_getEvents', { filter: { ...filter, continuation_token: 'x' } }, 33);
    await c.error('starknet_getEvents', { filter: { ...filter, to_block: UNKNOWN_BLOCKS[0] } }, 24);
    const keys = [Array.from({ length: 1_000 }, (_, i) => num.toHex(i))];
    await c.error('starknet_getEvents', { filter: { ...filter, keys } }, 34);
    await c.error('starknet_getEvents', { filter: { from_block: 'latest' } }, -32602);
  });

  test('getStorageProof: 42 for any block here, 24 for an unknown one', async () => {
    for (const block_id of blockIds) {
      const error = await c.error('starknet_getStorageProof', { block_id }, 42);
      expect(error.message).toMatch(/storage proofs/);
    }
    await c.error(
      'starknet_getStorageProof',
      ['latest', [OZ_ACCOUNT_CLASS_HASH], [UDC_ADDRESS]],
      42,
    );
    for (const block_id of UNKNOWN_BLOCKS)
      await c.error('starknet_getStorageProof', { block_id }, 24);
    await c.error('starknet_getStorageProof', { block_id: 'earliest' }, -32602);
  });

  test('getCompiledCasm: 28 for an unknown class, else 100 (no Sierra compiler here)', async () => {
    for (const class_hash of [classHash, OZ_ACCOUNT_CLASS_HASH]) {
      const error = await c.error('starknet_getCompiledCasm', { class_hash }, 100);
      expect((error.data as { compilation_error: string }).compilation_error).toMatch(/CASM/);
    }
    await c.error('starknet_getCompiledCasm', { class_hash: UNKNOWN }, 28);
    await c.error('starknet_getCompiledCasm', {}, -32602);
  });

  test('every HTTP method of the spec is served (none is -32601)', async () => {
    for (const method of httpSpecMethods()) {
      const reply = await rpc(t.devnet.rpcUrl, method, {});
      expect({ method, code: reply.error?.code }).not.toEqual({ method, code: -32601 });
    }
  });

  test('every read method was checked with a result and an error', () => {
    // Errors only: what a node without tries or a Sierra compiler cannot give.
    const alwaysErrors = ['starknet_getStorageProof', 'starknet_getCompiledCasm'];
    expect(c.seen.get('starknet_getStorageProof')?.errors).toEqual(new Set([42, 24, -32602]));
    expect(c.seen.get('starknet_getCompiledCasm')?.errors).toEqual(new Set([100, 28, -32602]));
    const noError = ['starknet_specVersion', 'starknet_chainId', 'starknet_syncing'];
    const answering = READ_METHODS.filter((name) => !alwaysErrors.includes(name));
    expect(c.missing(answering, false)).toEqual([]);
    expect(
      c.missing(
        answering.filter((name) => !noError.includes(name)),
        true,
      ),
    ).toEqual([]);
  });
});
