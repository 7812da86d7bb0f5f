import { hash, num, RpcError } from 'starknet';
import { encodePacked, keccak256 } from 'viem';
import { L1L2_CLASS_HASH } from '../src';
import { Conformance } from './conformance-harness';
import { rpc, startTestDevnet, TestDevnet, WAIT } from './helpers';

// L1 -> L2 messages: devnet_postmanSendMessageToL2 (starknet-devnet's name and shape) makes an
// L1 handler transaction; starknet.js's RpcProvider reads its status (getL1MessagesStatus) and
// estimates a message's fee (estimateMessageFee); results held to the spec's schemas. Hashes
// are checked against starknet.js (the transaction) and viem (the L1 message hash).

const L1_SENDER = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const L1_TX = '0xabc123';
const DEPOSIT = hash.getSelectorFromName('deposit');
const USER = '0x77';

describe('L1 -> L2 messages', () => {
  let t: TestDevnet;
  let c: Conformance;
  let target: string;

  beforeAll(async () => {
    t = await startTestDevnet();
    c = new Conformance(t.devnet.rpcUrl);
    // starknet-devnet's l1_l2 example class is native here: deploy it through the UDC.
    const deployed = await t
      .account(0)
      .deployContract({ classHash: L1L2_CLASS_HASH, unique: false }, WAIT);
    target = deployed.contract_address;
  });
  afterAll(() => t.devnet.close());

  const balance = async () =>
    BigInt(
      (
        await t.provider.callContract({
          contractAddress: target,
          entrypoint: 'get_balance',
          calldata: [USER],
        })
      )[0],
    );

  test('a message runs the l1_handler; RpcProvider sees its status and receipt', async () => {
    const message = {
      l2_contract_address: target,
      entry_point_selector: DEPOSIT,
      l1_contract_address: L1_SENDER,
      payload: [USER, '0x64'],
      paid_fee_on_l1: '0x123456abcdef',
      nonce: '0x0',
      l1_transaction_hash: L1_TX,
    };
    const before = await balance();
    const sent = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', message);
    const { transaction_hash } = sent.result as { transaction_hash: string };
    expect(await balance()).toBe(before + 100n);

    const expectedHash = hash.calculateL2MessageTxHash(
      L1_SENDER,
      target,
      DEPOSIT,
      [USER, '0x64'],
      '0x534e5f5345504f4c4941',
      0,
    );
    expect(num.toHex(transaction_hash)).toBe(num.toHex(expectedHash));

    const statuses = await t.provider.getL1MessagesStatus(L1_TX);
    expect(statuses).toEqual([
      { transaction_hash, finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' },
    ]);
    await c.result('starknet_getMessagesStatus', [L1_TX]);

    const receipt = await c.result<Record<string, unknown>>('starknet_getTransactionReceipt', [
      transaction_hash,
    ]);
    const l1Hash = keccak256(
      encodePacked(
        ['uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256'],
        [BigInt(L1_SENDER), BigInt(target), 0n, BigInt(DEPOSIT), 2n, 0x77n, 100n],
      ),
    );
    expect(BigInt(receipt.message_hash as string)).toBe(BigInt(l1Hash));
    expect(receipt).toMatchObject({ type: 'L1_HANDLER', actual_fee: { unit: 'WEI' } });
    expect(receipt.events).toEqual([
      {
        from_address: target,
        keys: [num.toHex(hash.getSelectorFromName('DepositFromL1')), USER, '0x64'],
        data: [],
      },
    ]);
    const tx = await c.result<Record<string, unknown>>('starknet_getTransactionByHash', [
      transaction_hash,
    ]);
    expect(tx).toEqual({
      transaction_hash,
      type: 'L1_HANDLER',
      version: '0x0',
      nonce: '0x0',
      contract_address: target,
      entry_point_selector: num.toHex(DEPOSIT),
      calldata: [L1_SENDER, USER, '0x64'],
    });
    const trace = await c.result<{ function_invocation: { entry_point_type: string } }>(
      'starknet_traceTransaction',
      [transaction_hash],
    );
    expect(trace.function_invocation.entry_point_type).toBe('L1_HANDLER');
    await c.result('starknet_getBlockWithReceipts', ['latest']);
    await c.result('starknet_traceBlockTransactions', ['latest']);
  });

  test('a handler that fails is included REVERTED, with its reason in the status', async () => {
    const sent = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', {
      l2_contract_address: target,
      entry_point_selector: hash.getSelectorFromName('increase_balance'), // not an l1_handler
      l1_contract_address: L1_SENDER,
      payload: [USER, '0x1'],
      paid_fee_on_l1: '0x1',
      nonce: '0x1',
      l1_transaction_hash: '0xdef',
    });
    const { transaction_hash } = sent.result as { transaction_hash: string };
    const [status] = await c.result<Record<string, unknown>[]>('starknet_getMessagesStatus', [
      '0xdef',
    ]);
    expect(status).toMatchObject({ transaction_hash, execution_status: 'REVERTED' });
    expect(status.failure_reason).toMatch(/not found/);
  });

  test('estimateMessageFee through RpcProvider, in WEI; errors 20, 40, 24', async () => {
    const message = {
      from_address: L1_SENDER,
      to_address: target,
      entry_point_selector: 'deposit',
      payload: [USER, '0x5'],
    };
    const before = await balance();
    const fee = await t.provider.estimateMessageFee(message);
    expect(fee.unit).toBe('WEI');
    expect(BigInt(fee.overall_fee)).toBeGreaterThan(0n);
    expect(await balance()).toBe(before); // an estimate changes nothing
    const raw = { ...message, entry_point_selector: DEPOSIT };
    await c.result('starknet_estimateMessageFee', { message: raw, block_id: 'latest' });
    await c.result('starknet_estimateMessageFee', [raw, 'pre_confirmed']);
    await c.error('starknet_estimateMessageFee', [{ ...raw, to_address: '0x999' }, 'latest'], 20);
    const notHandler = { ...raw, entry_point_selector: hash.getSelectorFromName('get_balance') };
    await c.error('starknet_estimateMessageFee', [notHandler, 'latest'], 40);
    await c.error('starknet_estimateMessageFee', [raw, { block_number: 10_000 }], 24);
    await c.error(
      'starknet_estimateMessageFee',
      [{ ...raw, from_address: '0x' + 'f'.repeat(41) }, 'latest'],
      -32602,
    );
    await c.error('starknet_estimateMessageFee', [raw], -32602);
  });

  test('getMessagesStatus of an unknown L1 transaction is 29', async () => {
    await c.error('starknet_getMessagesStatus', ['0x404'], 29);
    await c.error('starknet_getMessagesStatus', [], -32602);
    await expect(t.provider.getL1MessagesStatus('0x404')).rejects.toThrow(RpcError);
  });

  test('devnet_postmanSendMessageToL2 refuses bad params and an undeployed target', async () => {
    const good = {
      l2_contract_address: target,
      entry_point_selector: DEPOSIT,
      l1_contract_address: L1_SENDER,
      payload: [],
      paid_fee_on_l1: '0x1',
      nonce: '0x9',
    };
    const missing = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', {
      ...good,
      nonce: undefined,
    });
    expect(missing.error).toMatchObject({ code: -32602, data: { field: 'params.nonce' } });
    const undeployed = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', {
      ...good,
      l2_contract_address: '0x999',
    });
    expect(undeployed.error).toMatchObject({ code: 20 });
    const tooWide = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', {
      ...good,
      l1_contract_address: '0x1' + '0'.repeat(40),
    });
    expect(tooWide.error).toMatchObject({
      code: -32602,
      data: { field: 'params.l1_contract_address' },
    });
  });

  test('the same message twice is one transaction: the replay is 59 and credits nothing', async () => {
    const message = {
      l2_contract_address: target,
      entry_point_selector: DEPOSIT,
      l1_contract_address: L1_SENDER,
      payload: [USER, '0x7'],
      paid_fee_on_l1: '0x1',
      nonce: '0x42',
    };
    const first = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', message);
    expect(first.error).toBeUndefined();
    const credited = await balance();
    const replay = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', message);
    expect(replay.error?.code).toBe(59);
    expect(await balance()).toBe(credited);
    // Another nonce is another message.
    const next = await rpc(t.devnet.rpcUrl, 'devnet_postmanSendMessageToL2', {
      ...message,
      nonce: '0x43',
    });
    expect(next.error).toBeUndefined();
    expect(await balance()).toBe(credited + 7n);
  });

  test('devnet_postmanFlush: a dry run shows nothing to flush; a real flush needs an L1', async () => {
    const dry = await rpc(t.devnet.rpcUrl, 'devnet_postmanFlush', { dry_run: true });
    expect(dry.result).toEqual({
      messages_to_l1: [],
      messages_to_l2: [],
      generated_l2_transactions: [],
      l1_provider: 'dry run',
    });
    const real = await rpc(t.devnet.rpcUrl, 'devnet_postmanFlush');
    expect(real.error).toMatchObject({
      code: -32603,
      data: expect.stringMatching(/not configured/),
    });
    const load = await rpc(t.devnet.rpcUrl, 'devnet_postmanLoad', {
      network_url: 'http://127.0.0.1:1',
    });
    expect(load.error?.code).toBe(-32601);
  });

  test('messages survive devnet_dump and devnet_load with the same hashes', async () => {
    const dump = (await rpc(t.devnet.rpcUrl, 'devnet_dump', {})).result;
    const before = await t.provider.getL1MessagesStatus(L1_TX);
    const path = `${require('node:os').tmpdir()}/devnet-messages-${process.pid}.json`;
    require('node:fs').writeFileSync(path, JSON.stringify(dump));
    expect((await rpc(t.devnet.rpcUrl, 'devnet_load', { path })).error).toBeUndefined();
    require('node:fs').unlinkSync(path);
    expect(await t.provider.getL1MessagesStatus(L1_TX)).toEqual(before);
  });
});
