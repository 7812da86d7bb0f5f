import { Account, num, RpcError, stark } from 'starknet';
import { STRK_TOKEN_ADDRESS } from '../src';
import { postRaw, rpc, startTestDevnet, TestDevnet, transferCall, WAIT } from './helpers';

/** Resource bounds generous enough for any transfer, so no estimate runs first. */
const BOUNDS = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 200_000_000_000n },
  l2_gas: { max_amount: 2_000_000n, max_price_per_unit: 2_000_000n },
  l1_data_gas: { max_amount: 2_000n, max_price_per_unit: 200_000n },
};

async function rpcCode(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RpcError) return error.code;
    throw error;
  }
  throw new Error('expected an RPC error');
}

describe('protocol error codes, each provoked for real', () => {
  let t: TestDevnet;
  const undeployed = '0x123456789abcdef';

  beforeAll(async () => {
    t = await startTestDevnet();
  });
  afterAll(() => t.devnet.close());

  test('20 CONTRACT_NOT_FOUND', async () => {
    expect(await rpcCode(t.provider.getClassHashAt(undeployed))).toBe(20);
    expect(
      await rpcCode(
        t.provider.callContract({ contractAddress: undeployed, entrypoint: 'get_owner' }),
      ),
    ).toBe(20);
    const reply = await rpc(t.devnet.rpcUrl, 'starknet_getNonce', {
      block_id: 'latest',
      contract_address: undeployed,
    });
    expect(reply.error).toEqual({ code: 20, message: 'Contract not found' });
  });

  test('21 ENTRYPOINT_NOT_FOUND', async () => {
    expect(
      await rpcCode(
        t.provider.callContract({
          contractAddress: STRK_TOKEN_ADDRESS,
          entrypoint: 'no_such_function',
        }),
      ),
    ).toBe(21);
  });

  test('24 BLOCK_NOT_FOUND, by number and by hash', async () => {
    expect(await rpcCode(t.provider.getBlock(999_999))).toBe(24);
    expect(await rpcCode(t.provider.getBlock('0x1234'))).toBe(24);
  });

  test('27 INVALID_TXN_INDEX', async () => {
    expect(await rpcCode(t.provider.getTransactionByBlockIdAndIndex(0, 5))).toBe(27);
  });

  test('28 CLASS_HASH_NOT_FOUND', async () => {
    expect(await rpcCode(t.provider.getClassByHash('0xdeadbeef'))).toBe(28);
  });

  test('29 TXN_HASH_NOT_FOUND', async () => {
    expect(await rpcCode(t.provider.getTransactionReceipt('0xabc'))).toBe(29);
    expect(await rpcCode(t.provider.getTransactionStatus('0xabc'))).toBe(29);
  });

  test('40 CONTRACT_ERROR with the revert reason', async () => {
    // A call runs with caller 0: transfer() fails like the Cairo ERC-20 does.
    const reply = await rpc(t.devnet.rpcUrl, 'starknet_call', {
      request: {
        contract_address: STRK_TOKEN_ADDRESS,
        entry_point_selector: num.toHex(
          num.toBigInt('0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e'),
        ),
        calldata: ['0x1', '0x5', '0x0'],
      },
      block_id: 'latest',
    });
    expect(reply.error).toEqual({
      code: 40,
      message: 'Contract error',
      data: { revert_error: 'ERC20: transfer from 0' },
    });
  });

  test('41 TRANSACTION_EXECUTION_ERROR: estimating a transfer above the balance', async () => {
    const sender = t.account(1);
    const error = await sender
      .estimateInvokeFee(transferCall(t.devnet.predeployedAccounts[2].address, 10n ** 30n))
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(41);
    expect(error.baseError.data).toEqual({
      transaction_index: 0,
      execution_error: 'ERC20: insufficient balance',
    });
  });

  test('52 INVALID_TRANSACTION_NONCE', async () => {
    const sender = t.account(1);
    const code = await rpcCode(
      sender.execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n), {
        nonce: 99,
        resourceBounds: BOUNDS,
      }),
    );
    expect(code).toBe(52);
  });

  test('54 INSUFFICIENT_ACCOUNT_BALANCE: bounds worth more than the balance', async () => {
    const sender = t.account(1);
    const huge = { ...BOUNDS, l2_gas: { max_amount: 2n ** 60n, max_price_per_unit: 10n ** 12n } };
    const code = await rpcCode(
      sender.execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n), {
        resourceBounds: huge,
      }),
    );
    expect(code).toBe(54);
  });

  test('53 INSUFFICIENT_RESOURCES_FOR_VALIDATE: a max price below the gas price', async () => {
    const sender = t.account(1);
    const cheap = { ...BOUNDS, l2_gas: { max_amount: 2_000_000n, max_price_per_unit: 1n } };
    expect(
      await rpcCode(
        sender.execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n), {
          resourceBounds: cheap,
        }),
      ),
    ).toBe(53);
  });

  test('55 VALIDATION_FAILURE: a signature from the wrong key; nothing executed, no fee', async () => {
    const victim = t.devnet.predeployedAccounts[6];
    const impostor = new Account({
      provider: t.provider,
      address: victim.address,
      signer: stark.randomAddress(),
    });
    const balanceBefore = await t.devnet.devnet.balanceOf(BigInt(victim.address), 'FRI');
    const nonceBefore = await t.provider.getNonceForAddress(victim.address);
    const error = await impostor
      .execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n))
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(55);
    expect(error.baseError.message).toBe('Account validation failed');
    expect(await t.provider.getNonceForAddress(victim.address)).toBe(nonceBefore);
    expect(t.devnet.devnet.balanceOf(BigInt(victim.address), 'FRI')).toBe(balanceBefore);
  });

  test('59 DUPLICATE_TX: the same signed transaction twice', async () => {
    const sender = t.account(7);
    const signed = await sender.getSignedTransaction(
      transferCall(t.devnet.predeployedAccounts[2].address, 1n),
    );
    const first = await rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', {
      invoke_transaction: signed,
    });
    expect(first.error).toBeUndefined();
    await t.provider.waitForTransaction(
      (first.result as { transaction_hash: string }).transaction_hash,
      WAIT,
    );
    const second = await rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', {
      invoke_transaction: signed,
    });
    expect(second.error?.code).toBe(59);
  });

  test('-32700 parse error, -32600 invalid request, -32601 unknown method', async () => {
    expect(
      JSON.parse((await postRaw(t.devnet.rpcUrl, '{"jsonrpc": "2.0", "id": 1, "method"')).text),
    ).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    const invalid = JSON.parse((await postRaw(t.devnet.rpcUrl, '{"id": 4, "method": 12}')).text);
    expect(invalid.error.code).toBe(-32600);
    const unknown = await rpc(t.devnet.rpcUrl, 'starknet_noSuchMethod', {});
    expect(unknown.error?.code).toBe(-32601);
  });

  test('-32602 names the offending field', async () => {
    const missingNonce = await rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', {
      invoke_transaction: {
        type: 'INVOKE',
        version: '0x3',
        sender_address: '0x1',
        calldata: [],
        resource_bounds: {
          l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
          l2_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
        },
      },
    });
    expect(missingNonce.error?.code).toBe(-32602);
    expect(missingNonce.error?.message).toContain('invoke_transaction.nonce');
    const badBlock = await rpc(t.devnet.rpcUrl, 'starknet_getBlockWithTxHashes', {
      block_id: 'pending',
    });
    expect(badBlock.error).toMatchObject({ code: -32602, data: { field: 'block_id' } });
    const badFelt = await rpc(t.devnet.rpcUrl, 'starknet_getStorageAt', ['0xzz', '0x1', 'latest']);
    expect(badFelt.error?.message).toContain('contract_address');
  });

  test('batches: one HTTP request, one response per call, errors in place', async () => {
    t.devnet.resetMetrics();
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'starknet_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'starknet_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'starknet_nope' },
      { jsonrpc: '2.0', method: 'starknet_chainId' },
    ]);
    const replies = JSON.parse((await postRaw(t.devnet.url, body)).text);
    expect(replies).toHaveLength(3);
    expect(replies[0]).toEqual({ jsonrpc: '2.0', id: 1, result: '0x534e5f5345504f4c4941' });
    expect(typeof replies[1].result).toBe('number');
    expect(replies[2].error.code).toBe(-32601);
    expect(t.devnet.metrics.httpRequests).toBe(1);
    expect(t.devnet.metrics.rpcCalls).toEqual({
      starknet_chainId: 2,
      starknet_blockNumber: 1,
      starknet_nope: 1,
    });
    const empty = JSON.parse((await postRaw(t.devnet.url, '[]')).text);
    expect(empty.error.code).toBe(-32600);
  });

  test('ids are echoed exactly as sent: long integers stay numbers, strings stay strings', async () => {
    const idOf = (text: string) => /"id":(.*?),"(result|error)"/.exec(text)?.[1];
    for (const id of ['12345678901234567890', '1234567890123456', '-98765432109876543210', '7']) {
      const body = `{"jsonrpc":"2.0","id":${id},"method":"starknet_chainId"}`;
      const reply = await postRaw(t.devnet.rpcUrl, body);
      expect(reply.status).toBe(200);
      expect(idOf(reply.text)).toBe(id);
    }
    const asString = await postRaw(
      t.devnet.rpcUrl,
      '{"jsonrpc":"2.0","id":"12345678901234567890","method":"starknet_chainId"}',
    );
    expect(idOf(asString.text)).toBe('"12345678901234567890"');
    // In a batch, next to a long integer among the params (still quoted there for BigInt).
    const batch = await postRaw(
      t.devnet.rpcUrl,
      '[{"jsonrpc":"2.0","id":11111111111111111111,"method":"devnet_mint",' +
        `"params":{"address":"${t.devnet.predeployedAccounts[6].address}","amount":100000000000000000000,"unit":"FRI"}},` +
        '{"jsonrpc":"2.0","id":22222222222222222222,"method":"starknet_chainId"},' +
        '{"jsonrpc":"2.0","id":33333333333333333333,"method":"starknet_nope"}]',
    );
    expect(batch.text).toContain('"id":11111111111111111111,"result":{"new_balance":');
    expect(batch.text).toContain('"id":22222222222222222222,"result":"0x534e5f5345504f4c4941"');
    expect(batch.text).toContain('"id":33333333333333333333,"error":{"code":-32601');
    const invalid = await postRaw(t.devnet.rpcUrl, '{"id":44444444444444444444,"method":12}');
    expect(invalid.text).toContain('"id":44444444444444444444,');
  });
});
