/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_createAccount (deploy: true), l2_estimateAccountDeployFee, l2_extractPublicKey (on chain)
 * and l2_recoverAccounts end to end against a packages/devnet node on this file's own port.
 * Expected keys and addresses come from key-tree + @scure/starknet (test/harness/snap.ts).
 */
import { hash } from 'starknet';

import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  OTHER_SRP,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import {
  closeChain,
  decline,
  devnetRpc,
  dialogOf,
  expectNotSnapAccount,
  installChainSnap,
  isDeployed,
  mintStrk,
  nodeReceipt,
  nodeTransaction,
  provider,
  serveE2eSnap,
  startChainDevnet,
  storedRecords,
  STRK_UNIT,
  submissions,
  TESTNET,
  v3HashArgs,
  type AccountRecord,
  type DevnetServer,
  type FeeEstimate,
  type RpcV3Fields,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

let devnet: DevnetServer;
let server: SnapServer;
const accounts: ExpectedAccount[] = [];

beforeAll(async () => {
  server = await serveE2eSnap();
  devnet = await startChainDevnet();
  for (let index = 0; index < 8; index += 1) {
    accounts.push(await expectedAccount(OTHER_SRP, index));
  }
}, 300_000);

afterAll(() => closeChain(devnet, server));

async function freshSnap(): Promise<Snap> {
  return installChainSnap(server.snapId, OTHER_SRP);
}

/**
 * For a table of rows whose params are refused by validation (-32602) before any state or node
 * is touched: a refusal changes nothing, so the rows share one snap, installed by the first row
 * that runs. One per table, in a describe of its own: snaps-jest stops a snap when the next one is
 * installed, and a describe's tests run together in any order, so no other test's install can
 * come between the rows.
 */
function snapPerTable(): () => Promise<Snap> {
  let snap: Promise<Snap> | undefined;
  return () => {
    snap ??= freshSnap();
    return snap;
  };
}

/** Asserts that `txHash` deployed `account` (a DEPLOY_ACCOUNT salted with its public key). */
async function expectDeployOf(txHash: string, account: ExpectedAccount): Promise<void> {
  const deployTx = await nodeTransaction<{ type: string; contract_address_salt: string }>(
    devnet,
    txHash,
  );
  expect(deployTx.type).toBe('DEPLOY_ACCOUNT');
  expect(BigInt(deployTx.contract_address_salt)).toBe(BigInt(account.publicKey));
}

describe('l2_estimateAccountDeployFee', () => {
  it('returns the documented fee estimate as base-10 strings in FRI (unit wei)', async () => {
    const snap = await freshSnap();
    const fee = resultOf<FeeEstimate>(
      await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 0 } }),
    );
    expect(Object.keys(fee).sort()).toEqual(
      ['gasConsumed', 'gasPrice', 'overallFee', 'suggestedMaxFee', 'unit'].sort(),
    );
    expect(fee.unit).toBe('wei');
    for (const field of ['suggestedMaxFee', 'overallFee', 'gasConsumed', 'gasPrice'] as const) {
      expect(fee[field]).toMatch(/^[0-9]+$/u);
    }
    expect(BigInt(fee.overallFee)).toBeGreaterThan(0n);
    expect(BigInt(fee.suggestedMaxFee)).toBeGreaterThanOrEqual(BigInt(fee.overallFee));
    // Estimating changes nothing on chain.
    expect(await isDeployed(devnet, accounts[0].address)).toBe(false);
  });

  describe('refused by validation', () => {
    const refusalSnap = snapPerTable();

    it.each([
      [{ addressIndex: -1 }, /"addressIndex"/u],
      [{ addressIndex: 'one' }, /"addressIndex"/u],
      [{ chainId: 'nope' }, /"chainId"/u],
    ])('rejects invalid params %j with -32602', async (params, message) => {
      const snap = await refusalSnap();
      expectError(
        await snap.request({ method: 'l2_estimateAccountDeployFee', params }),
        -32602,
        message,
      );
    });
  });
});

describe('l2_createAccount with deploy: true', () => {
  it('shows address and fee, deploys, records the deploy, and returns {address, transaction_hash}', async () => {
    const snap = await freshSnap();
    const account = accounts[0];
    await mintStrk(devnet, account.address, 5n * STRK_UNIT);
    const fee = resultOf<FeeEstimate>(
      await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 0 } }),
    );
    const pending = snap.request({
      method: 'l2_createAccount',
      params: { addressIndex: 0, deploy: true, chainId: TESTNET },
    });
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    expect(text).toContain(account.address);
    expect(text).toContain(`${BigInt(fee.suggestedMaxFee)} FRI`);
    await dialog.ok();
    const result = resultOf<{ address: string; transaction_hash: string }>(await pending);
    expect(result.address).toBe(account.address);
    expect(await isDeployed(devnet, account.address)).toBe(true);

    // The deploy hash is the v3 DEPLOY_ACCOUNT hash starknet.js computes for what is on chain.
    await expectDeployOf(result.transaction_hash, account);
    const tx = await nodeTransaction<
      RpcV3Fields & {
        class_hash: string;
        contract_address_salt: string;
        constructor_calldata: string[];
      }
    >(devnet, result.transaction_hash);
    const recomputed = hash.calculateDeployAccountTransactionHash({
      contractAddress: account.address,
      classHash: tx.class_hash,
      compiledConstructorCalldata: tx.constructor_calldata,
      salt: tx.contract_address_salt,
      ...v3HashArgs(tx),
    });
    expect(BigInt(recomputed)).toBe(BigInt(result.transaction_hash));

    // The fee charged is what the estimate said (the devnet charges exactly its estimate).
    const receipt = await nodeReceipt<{ actual_fee: { amount: string } }>(
      devnet,
      result.transaction_hash,
    );
    expect(BigInt(receipt.actual_fee.amount)).toBe(BigInt(fee.overallFee));

    const records = await storedRecords(snap, account.address);
    expect(records).toEqual([
      expect.objectContaining({
        txnHash: `0x${BigInt(result.transaction_hash).toString(16)}`,
        txnType: 'deploy_account',
      }),
    ]);
  });

  it('answers an already deployed account without a dialog or a transaction, with its deploy hash', async () => {
    const snap = await freshSnap();
    const sent = submissions(devnet);
    const result = resultOf<{ address: string; transaction_hash: string }>(
      await snap.request({ method: 'l2_createAccount', params: { addressIndex: 0, deploy: true } }),
    );
    expect(result.address).toBe(accounts[0].address);
    expect(submissions(devnet)).toBe(sent);
    // This snap has no record of the deployment: the hash comes from the explorer.
    await expectDeployOf(result.transaction_hash, accounts[0]);
    expectError(
      await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 0 } }),
      -32000,
      new RegExp(`${accounts[0].address} is already deployed`, 'u'),
    );
  });

  // Each test here stores nothing and sends nothing (each checks so for its own account, and
  // the accounts differ), so they share one snap as a refusal table does.
  describe('refused or declined, storing nothing', () => {
    const refusalSnap = snapPerTable();

    it('tells which address to fund and how much, before any dialog, and stores nothing', async () => {
      const snap = await refusalSnap();
      const account = accounts[6];
      const sent = submissions(devnet);
      const response = await snap.request({
        method: 'l2_createAccount',
        params: { addressIndex: 6, deploy: true },
      });
      expectError(
        response,
        -32000,
        new RegExp(
          `fund the account ${account.address} with at least [0-9.]+ STRK \\([0-9]+ FRI\\)`,
          'u',
        ),
      );
      expect(submissions(devnet)).toBe(sent);
      await expectNotSnapAccount(snap, account.address);
    });

    it('sends nothing and stores nothing when the user declines', async () => {
      const snap = await refusalSnap();
      const account = accounts[5];
      await mintStrk(devnet, account.address, STRK_UNIT);
      const sent = submissions(devnet);
      expectError(
        await decline(
          snap.request({ method: 'l2_createAccount', params: { addressIndex: 5, deploy: true } }),
        ),
        4001,
      );
      expect(submissions(devnet)).toBe(sent);
      expect(await isDeployed(devnet, account.address)).toBe(false);
      await expectNotSnapAccount(snap, account.address);
    });

    it.each([
      [{ deploy: 'yes' }, /"deploy"/u],
      [{ deploy: true, addressIndex: -2 }, /"addressIndex"/u],
      [{ deploy: true, chainId: '0x5' }, /"chainId"/u],
    ])('rejects invalid params %j with -32602', async (params, message) => {
      const snap = await refusalSnap();
      expectError(await snap.request({ method: 'l2_createAccount', params }), -32602, message);
    });
  });
});

describe('l2_extractPublicKey on chain', () => {
  it('reads the owner of a deployed account with get_owner', async () => {
    const snap = await freshSnap();
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 0 } }));
    const before = devnet.metrics.rpcCalls.starknet_call ?? 0;
    const key = resultOf<string>(
      await snap.request({
        method: 'l2_extractPublicKey',
        params: { userAddress: accounts[0].address },
      }),
    );
    expect((devnet.metrics.rpcCalls.starknet_call ?? 0) - before).toBe(1);
    const [owner] = await provider(devnet).callContract({
      contractAddress: accounts[0].address,
      entrypoint: 'get_owner',
      calldata: [],
    });
    expect(BigInt(key)).toBe(BigInt(owner));
    expect(BigInt(key)).toBe(BigInt(accounts[0].publicKey));
  });

  it('answers the derived key for an account that is not deployed', async () => {
    const snap = await freshSnap();
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: 3 } }));
    expect(
      resultOf<string>(
        await snap.request({
          method: 'l2_extractPublicKey',
          params: { userAddress: accounts[3].address },
        }),
      ),
    ).toBe(accounts[3].publicKey);
  });
});

describe('l2_recoverAccounts', () => {
  it('finds deployed and funded accounts in one batch and stops after maxMissed', async () => {
    // Index 0 is deployed (above), index 1 holds ETH only, index 2 holds STRK only; 3.. are empty.
    await devnetRpc(devnet, 'devnet_mint', {
      address: accounts[1].address,
      amount: '1000',
      unit: 'WEI',
    });
    await mintStrk(devnet, accounts[2].address, 1000n);
    const snap = await freshSnap();
    devnet.resetMetrics();
    const records = resultOf<AccountRecord[]>(
      await snap.request({
        method: 'l2_recoverAccounts',
        params: { startScanIndex: 0, maxScanned: 10, maxMissed: 2 },
      }),
    );
    // One JSON-RPC batch for the scan; the explorer is asked for the deploy of index 0 only.
    expect(devnet.metrics.httpRequests).toBe(1);
    expect(records.map((record) => record.addressIndex)).toEqual([0, 1, 2, 3, 4]);
    records.forEach((record, position) => {
      expect(record).toEqual({
        address: accounts[position].address,
        addressIndex: position,
        publicKey: accounts[position].publicKey,
        addressSalt: accounts[position].publicKey,
        deployTxnHash: record.deployTxnHash,
        derivationPath: `m/44'/9004'/0'/0/${position}`,
        chainId: TESTNET,
      });
    });
    await expectDeployOf(records[0].deployTxnHash, accounts[0]);
    expect(records.slice(1).every((record) => record.deployTxnHash === '')).toBe(true);

    // Stored: the recovered accounts are the snap's now.
    expect(
      resultOf<string>(
        await snap.request({
          method: 'l2_extractPublicKey',
          params: { userAddress: accounts[2].address },
        }),
      ),
    ).toBe(accounts[2].publicKey);
    expect(await isDeployed(devnet, accounts[1].address)).toBe(false);
  });

  it('honours startScanIndex and maxScanned, with the documented defaults', async () => {
    const snap = await freshSnap();
    const one = resultOf<AccountRecord[]>(
      await snap.request({ method: 'starkNet_recoverAccounts', params: {} }),
    );
    expect(one.map((record) => record.addressIndex)).toEqual([0]);
    const some = resultOf<AccountRecord[]>(
      await snap.request({
        method: 'l2_recoverAccounts',
        params: { startScanIndex: 2, maxScanned: 3, maxMissed: 10 },
      }),
    );
    expect(some.map((record) => record.addressIndex)).toEqual([2, 3, 4]);
  });

  describe('refused by validation', () => {
    const refusalSnap = snapPerTable();

    it.each([
      [{ startScanIndex: -1 }, /"startScanIndex"/u],
      [{ maxScanned: 0 }, /"maxScanned"/u],
      [{ maxMissed: 'many' }, /"maxMissed"/u],
      [{ chainId: 'SN_GOERLI' }, /"chainId"/u],
    ])('rejects invalid params %j with -32602', async (params, message) => {
      const snap = await refusalSnap();
      expectError(await snap.request({ method: 'l2_recoverAccounts', params }), -32602, message);
    });
  });

  it('scans the default phrase independently of the other one', async () => {
    const snap = await installChainSnap(server.snapId);
    const mine = await expectedAccount(DEFAULT_SRP, 0);
    const records = resultOf<AccountRecord[]>(
      await snap.request({ method: 'l2_recoverAccounts', params: { maxScanned: 1 } }),
    );
    expect(records[0].address).toBe(mine.address);
    expect(records[0].deployTxnHash).toBe('');
  });
});

describe('chain errors', () => {
  it('answers a dead node with a clear, retryable -32002 and changes nothing', async () => {
    const snap = await freshSnap();
    await devnet.close();
    try {
      const response = await snap.request({
        method: 'l2_recoverAccounts',
        params: { maxScanned: 2, maxMissed: 2 },
      });
      expectError(response, -32002, /Starknet node .*unavailable.*try again/u);
      expect(
        (response.response as { error: { data?: { retryable?: boolean } } }).error.data?.retryable,
      ).toBe(true);
      expectError(
        await snap.request({ method: 'l2_estimateAccountDeployFee', params: { addressIndex: 7 } }),
        -32002,
        /unavailable/u,
      );
      expectError(
        await snap.request({
          method: 'l2_createAccount',
          params: { addressIndex: 7, deploy: true },
        }),
        -32002,
        /unavailable/u,
      );
      // Nothing was stored by the failed calls: neither account is the snap's.
      for (const account of [accounts[0], accounts[7]]) {
        await expectNotSnapAccount(snap, account.address);
      }
    } finally {
      devnet = await startChainDevnet();
    }
  });
});
