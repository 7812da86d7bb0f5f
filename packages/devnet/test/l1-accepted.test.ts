import { RpcError } from 'starknet';
import { Conformance } from './conformance-harness';
import { rpc, startTestDevnet, TestDevnet, transferCall, WAIT } from './helpers';

// The `l1_accepted` block tag and devnet_acceptOnL1 {starting_block_id} -> {accepted: [hashes]}
// (starknet-devnet's name and shape), driven with starknet.js's RpcProvider.

describe('l1_accepted and devnet_acceptOnL1', () => {
  let t: TestDevnet;
  let c: Conformance;
  const txHashes: string[] = [];

  beforeAll(async () => {
    t = await startTestDevnet();
    c = new Conformance(t.devnet.rpcUrl);
    const other = t.devnet.predeployedAccounts[1].address;
    for (let i = 0; i < 3; i += 1) {
      const { transaction_hash } = await t.account(0).execute(transferCall(other, 1n));
      await t.provider.waitForTransaction(transaction_hash, WAIT);
      txHashes.push(transaction_hash);
    }
  });
  afterAll(() => t.devnet.close());

  test('before any block is accepted on L1, the tag is 24 BLOCK_NOT_FOUND', async () => {
    await expect(t.provider.getBlock('l1_accepted')).rejects.toThrow(RpcError);
    await c.error('starknet_getBlockWithTxHashes', ['l1_accepted'], 24);
    await c.error(
      'starknet_getNonce',
      ['l1_accepted', t.devnet.predeployedAccounts[0].address],
      24,
    );
    const latest = await t.provider.getBlock('latest');
    expect(latest.status).toBe('ACCEPTED_ON_L2');
  });

  test('accepting block 2 accepts 2, 1 and 0; statuses follow; later blocks stay on L2', async () => {
    const blocks = await Promise.all([0, 1, 2].map((n) => t.provider.getBlock(n)));
    const reply = await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', {
      starting_block_id: { block_number: 2 },
    });
    expect(reply.result).toEqual({
      accepted: [blocks[2].block_hash, blocks[1].block_hash, blocks[0].block_hash],
    });
    const tagged = await t.provider.getBlock('l1_accepted');
    expect(tagged.block_hash).toBe(blocks[2].block_hash);
    expect(tagged.status).toBe('ACCEPTED_ON_L1');
    await c.result('starknet_getBlockWithReceipts', ['l1_accepted']);
    await c.result('starknet_getStateUpdate', ['l1_accepted']);
    // Block 2 holds the second transfer (block 1 the first); the third is in block 3.
    expect((await t.provider.getTransactionStatus(txHashes[1])).finality_status).toBe(
      'ACCEPTED_ON_L1',
    );
    const receipt = await c.result<{ finality_status: string }>('starknet_getTransactionReceipt', [
      txHashes[0],
    ]);
    expect(receipt.finality_status).toBe('ACCEPTED_ON_L1');
    expect((await t.provider.getTransactionStatus(txHashes[2])).finality_status).toBe(
      'ACCEPTED_ON_L2',
    );
    expect((await t.provider.getBlock('latest')).status).toBe('ACCEPTED_ON_L2');
    // Reads at the tag see that block's state.
    const nonce = await t.provider.getNonceForAddress(
      t.devnet.predeployedAccounts[0].address,
      'l1_accepted',
    );
    expect(BigInt(nonce)).toBe(2n);
  });

  test('accepting the latest block accepts only what was not on L1 yet', async () => {
    const latest = await t.provider.getBlock('latest');
    const reply = await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', { starting_block_id: 'latest' });
    expect(reply.result).toEqual({ accepted: [latest.block_hash] });
    expect((await t.provider.getBlock('l1_accepted')).block_hash).toBe(latest.block_hash);
  });

  test('refusals: already on L1, pre-confirmed, unknown block, bad params', async () => {
    const again = await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', { starting_block_id: 'latest' });
    expect(again.error).toEqual({ code: -1, message: 'Block already accepted on L1' });
    const pending = await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', {
      starting_block_id: 'pre_confirmed',
    });
    expect(pending.error).toEqual({
      code: -1,
      message: 'Pre-confirmed block cannot be accepted on L1',
    });
    const unknown = await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', {
      starting_block_id: { block_number: 999 },
    });
    expect(unknown.error?.code).toBe(24);
    const bad = await rpc(t.devnet.rpcUrl, 'devnet_acceptOnL1', { starting_block_id: 'earliest' });
    expect(bad.error?.code).toBe(-32602);
  });

  test('devnet_abortBlocks refuses a block accepted on L1 and leaves the chain as it was', async () => {
    const tagged = await t.provider.getBlock('l1_accepted');
    const latest = await t.provider.getBlock('latest');
    const reply = await rpc(t.devnet.rpcUrl, 'devnet_abortBlocks', {
      starting_block_id: { block_number: tagged.block_number },
    });
    expect(reply.error).toEqual({
      code: -1,
      message: 'Block abortion failed: cannot abort a block accepted on L1',
    });
    expect((await t.provider.getBlock('latest')).block_hash).toBe(latest.block_hash);
    expect((await t.provider.getBlock('l1_accepted')).block_hash).toBe(tagged.block_hash);
  });

  test('a dump keeps what was accepted on L1', async () => {
    const tagged = await t.provider.getBlock('l1_accepted');
    const dump = (await rpc(t.devnet.rpcUrl, 'devnet_dump', {})).result;
    const path = `${require('node:os').tmpdir()}/devnet-l1-${process.pid}.json`;
    require('node:fs').writeFileSync(path, JSON.stringify(dump));
    expect((await rpc(t.devnet.rpcUrl, 'devnet_load', { path })).error).toBeUndefined();
    require('node:fs').unlinkSync(path);
    expect((await t.provider.getBlock('l1_accepted')).block_hash).toBe(tagged.block_hash);
  });
});
