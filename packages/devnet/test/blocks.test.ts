import { Account, hash, num, RpcError, stark } from 'starknet';
import { Devnet, ETH_TOKEN_ADDRESS, RPC_SPEC_VERSION, STRK_TOKEN_ADDRESS } from '../src';
import { rpc, startTestDevnet, strkBalance, TestDevnet, transferCall, WAIT } from './helpers';

/** Resource bounds generous enough for any transfer, so no estimate runs first. */
const BOUNDS = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 200_000_000_000n },
  l2_gas: { max_amount: 2_000_000n, max_price_per_unit: 2_000_000n },
  l1_data_gas: { max_amount: 2_000n, max_price_per_unit: 200_000n },
};

describe('chain info and blocks (a block per transaction)', () => {
  let t: TestDevnet;
  let txHash: string;
  beforeAll(async () => {
    t = await startTestDevnet({ seed: 42 });
    const result = await t
      .account(0)
      .execute(transferCall(t.devnet.predeployedAccounts[1].address, 100n));
    txHash = result.transaction_hash;
    await t.provider.waitForTransaction(txHash, WAIT);
  });
  afterAll(() => t.devnet.close());

  test('spec version, chain id, syncing', async () => {
    expect(await t.provider.getSpecVersion()).toBe(RPC_SPEC_VERSION);
    expect(await t.provider.getChainId()).toBe('0x534e5f5345504f4c4941');
    expect(await t.provider.getSyncingStats()).toBe(false);
  });

  test('block ids: latest, pre_confirmed, number, hash', async () => {
    const latest = await t.provider.getBlockLatestAccepted();
    expect(latest.block_number).toBe(1);
    expect(await t.provider.getBlockNumber()).toBe(1);
    const byNumber = await t.provider.getBlockWithTxHashes(1);
    const byHash = await t.provider.getBlockWithTxHashes(latest.block_hash);
    expect(byHash).toEqual(byNumber);
    expect(byNumber).toMatchObject({
      status: 'ACCEPTED_ON_L2',
      block_number: 1,
      transactions: [txHash],
    });
    const genesis = await t.provider.getBlockWithTxHashes(0);
    expect((byNumber as { parent_hash: string }).parent_hash).toBe(
      (genesis as { block_hash: string }).block_hash,
    );
    const pending = await t.provider.getBlockWithTxHashes('pre_confirmed');
    expect(pending).toMatchObject({ block_number: 2, transactions: [] });
    expect(pending).not.toHaveProperty('block_hash');
    expect(await t.provider.getBlockTransactionCount(1)).toBe(1);
  });

  test('getBlockWithTxs, getBlockWithReceipts, getTransactionByBlockIdAndIndex', async () => {
    const withTxs = (await t.provider.getBlockWithTxs(1)) as unknown as {
      transactions: { transaction_hash: string; tip: string; version: string }[];
    };
    expect(withTxs.transactions[0]).toMatchObject({ transaction_hash: txHash, version: '0x3' });
    const withReceipts = (await t.provider.getBlockWithReceipts(1)) as unknown as {
      transactions: {
        transaction: { transaction_hash: string };
        receipt: { execution_status: string };
      }[];
    };
    expect(withReceipts.transactions[0].transaction.transaction_hash).toBe(txHash);
    expect(withReceipts.transactions[0].receipt.execution_status).toBe('SUCCEEDED');
    const byIndex = await t.provider.getTransactionByBlockIdAndIndex('latest', 0);
    expect(byIndex.transaction_hash).toBe(txHash);
  });

  test('receipt and status of an accepted transaction', async () => {
    const receipt = (await t.provider.getTransactionReceipt(txHash)).value as unknown as Record<
      string,
      unknown
    >;
    const block = await t.provider.getBlockWithTxHashes(1);
    expect(receipt).toMatchObject({
      type: 'INVOKE',
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'SUCCEEDED',
      block_number: 1,
      block_hash: (block as { block_hash: string }).block_hash,
    });
    expect(await t.provider.getTransactionStatus(txHash)).toEqual({
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'SUCCEEDED',
    });
  });

  test('state reads at past blocks see the past', async () => {
    const recipient = t.devnet.predeployedAccounts[1].address;
    const now = await strkBalance(t.provider, recipient, 'latest');
    const before = await strkBalance(t.provider, recipient, '0');
    expect(now - before).toBe(100n);
    expect(await t.provider.getNonceForAddress(t.devnet.predeployedAccounts[0].address, 0)).toBe(
      '0x0',
    );
    expect(await t.provider.getNonceForAddress(t.devnet.predeployedAccounts[0].address, 1)).toBe(
      '0x1',
    );
    // OpenZeppelin ERC-20 layout: balance low word at pedersen(sn_keccak('ERC20_balances'), owner).
    const slot = hash.computePedersenHash(hash.getSelectorFromName('ERC20_balances'), recipient);
    expect(BigInt((await t.provider.getStorageAt(STRK_TOKEN_ADDRESS, slot)).value)).toBe(now);
  });

  test('getStateUpdate reports the block diff', async () => {
    const update = (await t.provider.getStateUpdate(1)) as unknown as {
      block_hash: string;
      state_diff: {
        nonces: { contract_address: string; nonce: string }[];
        storage_diffs: { address: string }[];
      };
    };
    expect(update.state_diff.nonces).toEqual([
      { contract_address: num.toHex(t.devnet.predeployedAccounts[0].address), nonce: '0x1' },
    ]);
    expect(update.state_diff.storage_diffs.map((d) => d.address)).toContain(
      num.toHex(STRK_TOKEN_ADDRESS),
    );
    const genesis = (await t.provider.getStateUpdate(0)) as unknown as {
      state_diff: { deployed_contracts: unknown[] };
    };
    // ETH, STRK, two UDCs, the faucet account, ten predeployed accounts.
    expect(genesis.state_diff.deployed_contracts.length).toBe(5 + 10);
  });

  test('getEvents: filters, chunks and continuation tokens', async () => {
    // Three more transfers: each has a Transfer for the amount and one for the fee.
    const sender = t.account(2);
    for (let i = 0; i < 3; i += 1) {
      const r = await sender.execute(
        transferCall(t.devnet.predeployedAccounts[3].address, BigInt(i + 1)),
      );
      await t.provider.waitForTransaction(r.transaction_hash, WAIT);
    }
    const transferKey = num.toHex(hash.getSelectorFromName('Transfer'));
    const filter = {
      address: STRK_TOKEN_ADDRESS,
      keys: [
        [transferKey],
        [num.toHex(sender.address)],
        [num.toHex(t.devnet.predeployedAccounts[3].address)],
      ],
      from_block: { block_number: 2 },
      to_block: 'latest' as const,
      chunk_size: 2,
    };
    const first = await t.provider.getEvents(filter);
    expect(first.events).toHaveLength(2);
    expect(first.continuation_token).toBeDefined();
    const second = await t.provider.getEvents({
      ...filter,
      continuation_token: first.continuation_token,
    });
    expect(second.events).toHaveLength(1);
    expect(second.continuation_token).toBeUndefined();
    expect([...first.events, ...second.events].map((e) => e.data[0])).toEqual([
      '0x1',
      '0x2',
      '0x3',
    ]);
    const event = first.events[0] as unknown as Record<string, unknown>;
    expect(event).toMatchObject({
      transaction_index: 0,
      from_address: num.toHex(STRK_TOKEN_ADDRESS),
    });
    expect(event.block_hash).toBeDefined();
    const bad = await rpc(t.devnet.rpcUrl, 'starknet_getEvents', {
      filter: { ...filter, continuation_token: 'zz' },
    });
    expect(bad.error?.code).toBe(33);
    const tooBig = await rpc(t.devnet.rpcUrl, 'starknet_getEvents', {
      filter: { ...filter, chunk_size: 5000 },
    });
    expect(tooBig.error?.code).toBe(31);
  });

  test('getEvents: filter.address may be a list of addresses (RPC 0.10)', async () => {
    const sender = t.account(4);
    const recipient = t.devnet.predeployedAccounts[5].address;
    const from = (await t.provider.getBlockNumber()) + 1;
    for (const token of [ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS]) {
      const r = await sender.execute(transferCall(recipient, 7n, token));
      await t.provider.waitForTransaction(r.transaction_hash, WAIT);
    }
    const transferKey = num.toHex(hash.getSelectorFromName('Transfer'));
    const filter = {
      keys: [[transferKey], [num.toHex(sender.address)], [num.toHex(recipient)]],
      from_block: { block_number: from },
      to_block: 'latest' as const,
      chunk_size: 10,
    };
    const both = await t.provider.getEvents({
      ...filter,
      address: [ETH_TOKEN_ADDRESS, STRK_TOKEN_ADDRESS],
    });
    expect(both.events.map((e) => [BigInt(e.from_address), e.data[0]])).toEqual([
      [BigInt(ETH_TOKEN_ADDRESS), '0x7'],
      [BigInt(STRK_TOKEN_ADDRESS), '0x7'],
    ]);
    const onlyEth = await t.provider.getEvents({ ...filter, address: [ETH_TOKEN_ADDRESS] });
    expect(onlyEth.events.map((e) => BigInt(e.from_address))).toEqual([BigInt(ETH_TOKEN_ADDRESS)]);
    const single = await t.provider.getEvents({ ...filter, address: STRK_TOKEN_ADDRESS });
    expect(single.events.map((e) => BigInt(e.from_address))).toEqual([BigInt(STRK_TOKEN_ADDRESS)]);
    const bad = await rpc(t.devnet.rpcUrl, 'starknet_getEvents', {
      filter: { ...filter, address: [ETH_TOKEN_ADDRESS, 'zz'] },
    });
    expect(bad.error?.code).toBe(-32602);
  });
});

describe('block time: transactions wait in the pre-confirmed block', () => {
  let t: TestDevnet;
  beforeAll(async () => {
    t = await startTestDevnet({ blockTime: 400 });
  });
  afterAll(() => t.devnet.close());

  test('statuses go PRE_CONFIRMED then ACCEPTED_ON_L2; waitForTransaction waits for the block', async () => {
    const sender = t.account(0);
    const recipient = t.devnet.predeployedAccounts[1].address;
    const startBlock = await t.provider.getBlockNumber();
    const result = await sender.execute(transferCall(recipient, 5n));

    const status = await t.provider.getTransactionStatus(result.transaction_hash);
    if (status.finality_status === 'PRE_CONFIRMED') {
      // Reads on pre_confirmed see it, latest does not yet (unless the block closed meanwhile).
      const receipt = (await t.provider.getTransactionReceipt(result.transaction_hash))
        .value as unknown as Record<string, unknown>;
      expect(receipt).not.toHaveProperty('block_hash');
      expect(receipt.finality_status).toBe('PRE_CONFIRMED');
      expect(await t.provider.getNonceForAddress(sender.address, 'pre_confirmed')).toBe('0x1');
      const pending = await t.provider.getBlockWithTxHashes('pre_confirmed');
      expect(pending.transactions).toContain(result.transaction_hash);
    }
    const receipt = await t.provider.waitForTransaction(result.transaction_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);
    expect((receipt.value as unknown as { finality_status: string }).finality_status).toBe(
      'ACCEPTED_ON_L2',
    );
    expect(await t.provider.getBlockNumber()).toBeGreaterThan(startBlock);
    expect(await t.provider.getNonceForAddress(sender.address, 'latest')).toBe('0x1');
  });

  test('one account sends twice into the same pre-confirmed block (nonce from pre_confirmed)', async () => {
    const sender = t.account(4);
    const recipient = t.devnet.predeployedAccounts[1].address;
    const first = await sender.execute(transferCall(recipient, 1n));
    // Estimated against latest (where the first is not yet), sent with the pre-confirmed nonce.
    const nonce = await t.provider.getNonceForAddress(sender.address, 'pre_confirmed');
    expect(nonce).toBe('0x1');
    const second = await sender.execute(transferCall(recipient, 2n), { nonce });
    const [r1, r2] = await Promise.all([
      t.provider.waitForTransaction(first.transaction_hash, WAIT),
      t.provider.waitForTransaction(second.transaction_hash, WAIT),
    ]);
    expect(r1.isSuccess() && r2.isSuccess()).toBe(true);
    expect(await t.provider.getNonceForAddress(sender.address, 'latest')).toBe('0x2');
  });
});

/** Polls the status until it is `wanted`; returns every distinct finality status seen. */
async function statusesUntil(t: TestDevnet, txHash: string, wanted: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 500; i += 1) {
    const status = (await t.provider.getTransactionStatus(txHash)).finality_status;
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (status === wanted) return seen;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${txHash} never reached ${wanted}: ${seen.join(' -> ')}`);
}

describe('block time: observing every status deterministically', () => {
  test('several transactions share one block', async () => {
    // The block closes when the test says (not on a 400 ms timer that two sends on a loaded
    // machine could straddle): once both are in the pre-confirmed block.
    const t = await startTestDevnet({ blockTime: 3_600_000, preconfirmDelayMs: 0 });
    try {
      const recipient = t.devnet.predeployedAccounts[1].address;
      const [ra, rb] = await Promise.all([
        t.account(2).execute(transferCall(recipient, 1n)),
        t.account(3).execute(transferCall(recipient, 1n)),
      ]);
      for (const { transaction_hash: txHash } of [ra, rb]) {
        await statusesUntil(t, txHash, 'PRE_CONFIRMED');
      }
      await rpc(t.devnet.rpcUrl, 'devnet_createBlock', {});
      const [receiptA, receiptB] = await Promise.all([
        t.provider.waitForTransaction(ra.transaction_hash, WAIT),
        t.provider.waitForTransaction(rb.transaction_hash, WAIT),
      ]);
      const blockA = (receiptA.value as unknown as { block_number: number }).block_number;
      const blockB = (receiptB.value as unknown as { block_number: number }).block_number;
      expect(blockA).toBe(blockB);
    } finally {
      await t.devnet.close();
    }
  });

  test('RECEIVED (no receipt yet), then PRE_CONFIRMED after the delay, then ACCEPTED_ON_L2 on devnet_createBlock', async () => {
    // 2 s: far past the reads made before the delay ends, however slowly a loaded machine runs.
    const t = await startTestDevnet({ blockTime: 3_600_000, preconfirmDelayMs: 2000 });
    try {
      const recipient = t.devnet.predeployedAccounts[1].address;
      const result = await t.account(0).execute(transferCall(recipient, 7n));
      const txHash = result.transaction_hash;
      expect(
        (await rpc(t.devnet.rpcUrl, 'starknet_getTransactionStatus', [txHash])).result,
      ).toEqual({ finality_status: 'RECEIVED' });
      // As on real nodes: the transaction is known, its receipt is not (29) until it is executed.
      const byHash = await rpc(t.devnet.rpcUrl, 'starknet_getTransactionByHash', [txHash]);
      expect(byHash.result).toMatchObject({ transaction_hash: txHash, type: 'INVOKE' });
      const receipt = await rpc(t.devnet.rpcUrl, 'starknet_getTransactionReceipt', [txHash]);
      expect(receipt.error?.code).toBe(29);

      expect(await statusesUntil(t, txHash, 'PRE_CONFIRMED')).toEqual([
        'RECEIVED',
        'PRE_CONFIRMED',
      ]);
      expect(await t.provider.getTransactionStatus(txHash)).toEqual({
        finality_status: 'PRE_CONFIRMED',
        execution_status: 'SUCCEEDED',
      });
      const latest = await strkBalance(t.provider, recipient, 'latest');
      const preConfirmed = await strkBalance(t.provider, recipient, 'pre_confirmed');
      expect(preConfirmed - latest).toBe(7n);
      const waiting = t.provider.waitForTransaction(txHash, WAIT);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const created = await rpc(t.devnet.rpcUrl, 'devnet_createBlock', {});
      expect((created.result as { block_hash: string }).block_hash).toMatch(/^0x/);
      const accepted = await waiting;
      expect((accepted.value as unknown as { finality_status: string }).finality_status).toBe(
        'ACCEPTED_ON_L2',
      );
    } finally {
      await t.devnet.close();
    }
  });

  test('with a block timer: RECEIVED, PRE_CONFIRMED, ACCEPTED_ON_L2 for one transaction', async () => {
    // RECEIVED lasts a second and PRE_CONFIRMED about two: a poll every 10 ms sees each even on a
    // loaded machine.
    const t = await startTestDevnet({ blockTime: 3000, preconfirmDelayMs: 1000 });
    try {
      // Submit right after a block closes, so the delay ends well before the next one.
      const start = await t.provider.getBlockNumber();
      while ((await t.provider.getBlockNumber()) === start) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const result = await t
        .account(0)
        .execute(transferCall(t.devnet.predeployedAccounts[1].address, 3n));
      expect(await statusesUntil(t, result.transaction_hash, 'ACCEPTED_ON_L2')).toEqual([
        'RECEIVED',
        'PRE_CONFIRMED',
        'ACCEPTED_ON_L2',
      ]);
    } finally {
      await t.devnet.close();
    }
  });

  test('a second transaction with the next nonce is accepted while the first is RECEIVED', async () => {
    const t = await startTestDevnet({ blockTime: 3_600_000, preconfirmDelayMs: 60_000 });
    try {
      const sender = t.account(0);
      const recipient = t.devnet.predeployedAccounts[1].address;
      const signed = async (nonce: number) =>
        sender.getSignedTransaction(transferCall(recipient, 1n), {
          nonce,
          resourceBounds: BOUNDS,
        });
      const [tx0, tx1, tx5] = [await signed(0), await signed(1), await signed(5)];
      const add = (tx: unknown) =>
        rpc(t.devnet.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: tx });
      const first = (await add(tx0)).result as { transaction_hash: string };
      const second = (await add(tx1)).result as { transaction_hash: string };
      // The gateway's nonce check counts the queued transactions: 2 is expected, not 5 (nor 0).
      expect((await add(tx5)).error?.code).toBe(52);
      expect((await add(tx0)).error?.code).toBe(59);
      for (const { transaction_hash } of [first, second]) {
        expect(await t.provider.getTransactionStatus(transaction_hash)).toEqual({
          finality_status: 'RECEIVED',
        });
      }
      expect(t.devnet.devnet.queuedCount).toBe(2);
      // Reading the pre-confirmed state executes what is queued first: the nonce there is 2.
      expect(await t.provider.getNonceForAddress(sender.address, 'pre_confirmed')).toBe('0x2');
      expect(await t.provider.getNonceForAddress(sender.address, 'latest')).toBe('0x0');
      for (const { transaction_hash } of [first, second]) {
        expect((await t.provider.getTransactionStatus(transaction_hash)).finality_status).toBe(
          'PRE_CONFIRMED',
        );
      }
      // The wallet flow (nonce read on pre_confirmed) sends the third one right away.
      const third = await sender.execute(transferCall(recipient, 1n), {
        nonce: await t.provider.getNonceForAddress(sender.address, 'pre_confirmed'),
      });
      await rpc(t.devnet.rpcUrl, 'devnet_createBlock', {});
      expect(await t.provider.getTransactionStatus(third.transaction_hash)).toEqual({
        finality_status: 'ACCEPTED_ON_L2',
        execution_status: 'SUCCEEDED',
      });
      expect(await t.provider.getNonceForAddress(sender.address, 'latest')).toBe('0x3');
    } finally {
      await t.devnet.close();
    }
  });

  test('a dump taken while transactions are RECEIVED loads them as PRE_CONFIRMED', async () => {
    const t = await startTestDevnet({ blockTime: 3_600_000, preconfirmDelayMs: 60_000 });
    try {
      const result = await t
        .account(0)
        .execute(transferCall(t.devnet.predeployedAccounts[1].address, 9n));
      expect((await t.provider.getTransactionStatus(result.transaction_hash)).finality_status).toBe(
        'RECEIVED',
      );
      const dump = (await rpc(t.devnet.rpcUrl, 'devnet_dump', {})).result as {
        actions: { kind: string }[];
      };
      expect(dump.actions[dump.actions.length - 1].kind).toBe('tx');
      const loaded = Devnet.load(dump as never);
      expect(loaded.queuedCount).toBe(0);
      const record = loaded.getTransaction(BigInt(result.transaction_hash));
      expect(loaded.isAccepted(record)).toBe(false);
      // The running node still has it queued (a dump changes nothing).
      expect(t.devnet.devnet.queuedCount).toBe(1);
    } finally {
      await t.devnet.close();
    }
  });
});

describe('block time: submission errors stay synchronous', () => {
  let t: TestDevnet;
  beforeAll(async () => {
    t = await startTestDevnet({ blockTime: 3_600_000, preconfirmDelayMs: 60_000 });
  });
  afterAll(() => t.devnet.close());

  test('52 INVALID_TRANSACTION_NONCE from addInvokeTransaction', async () => {
    const error = await t
      .account(1)
      .execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n), {
        nonce: 99,
        resourceBounds: BOUNDS,
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(52);
    expect(t.devnet.devnet.queuedCount).toBe(0);
  });

  test('55 VALIDATION_FAILURE (wrong key) from addInvokeTransaction; nothing queued', async () => {
    const victim = t.devnet.predeployedAccounts[3];
    const impostor = new Account({
      provider: t.provider,
      address: victim.address,
      signer: stark.randomAddress(),
    });
    const error = await impostor
      .execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n), {
        resourceBounds: BOUNDS,
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(55);
    expect(t.devnet.devnet.queuedCount).toBe(0);
  });

  test('a refused submission leaves no stale state: createBlock then mint, and the retry is admitted', async () => {
    const sender = t.account(4);
    const recipient = t.devnet.predeployedAccounts[5].address;
    const maxFee =
      BOUNDS.l1_gas.max_amount * BOUNDS.l1_gas.max_price_per_unit +
      BOUNDS.l2_gas.max_amount * BOUNDS.l2_gas.max_price_per_unit +
      BOUNDS.l1_data_gas.max_amount * BOUNDS.l1_data_gas.max_price_per_unit;
    const balance = await strkBalance(t.provider, sender.address);
    // Drain it: what is left after the fee is below the bound of the next transfer.
    await sender.execute(transferCall(recipient, balance - maxFee), {
      nonce: 0,
      resourceBounds: BOUNDS,
    });
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock', {});
    expect(await strkBalance(t.provider, sender.address)).toBeLessThan(maxFee);
    const next = () =>
      sender.execute(transferCall(recipient, 1n), { nonce: 1, resourceBounds: BOUNDS });
    const refused = await next().catch((e) => e);
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused.code).toBe(54);
    expect(t.devnet.devnet.queuedCount).toBe(0);
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock', {});
    const minted = await rpc(t.devnet.rpcUrl, 'devnet_mint', {
      address: sender.address,
      amount: (10n ** 20n).toString(),
      unit: 'FRI',
    });
    expect(minted.error).toBeUndefined();
    const retry = await next();
    expect(t.devnet.devnet.queuedCount).toBe(1);
    await rpc(t.devnet.rpcUrl, 'devnet_createBlock', {});
    expect(await t.provider.getTransactionStatus(retry.transaction_hash)).toEqual({
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'SUCCEEDED',
    });
  });

  test('55 for an undeployed sender', async () => {
    const ghost = new Account({
      provider: t.provider,
      address: '0x123456789abcdef',
      signer: stark.randomAddress(),
      cairoVersion: '1',
    });
    const error = await ghost
      .execute(transferCall(t.devnet.predeployedAccounts[2].address, 1n), {
        nonce: 0,
        resourceBounds: BOUNDS,
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(55);
  });
});
