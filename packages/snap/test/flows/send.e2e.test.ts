/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * Failure paths end to end: the node killed between the dialog and the submission, a node that
 * never answers, and on-chain signature verification for accounts that are not the snap's
 * (is_valid_signature of a devnet predeployed account). The devnet runs on this file's own port; a
 * killed devnet is restarted from its own dump (devnet_dump / devnet_load), so a retry sees the
 * same chain.
 */
import { getPublicKey, Signature, verify } from '@scure/starknet';
import { mkdtempSync, rmSync } from 'fs';
import type { ServerResponse } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import { typedData } from 'starknet';

import type { DevnetServer } from '@l2wallet/devnet';
import { serveHttp, serveSilent, startDevnet } from '@l2wallet/testkit';
import {
  DEFAULT_SRP,
  expectedAccount,
  expectError,
  OTHER_SRP,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import { REV0_TYPED_DATA, REV1_TYPED_DATA } from '../fixtures/typedData';
import {
  approve,
  closeChain,
  COUNTER_SIERRA as SIERRA,
  deployedSender,
  devnetHost,
  devnetPort,
  devnetRpc,
  dialogOf,
  expectNotSnapAccount,
  installChainSnap,
  isDeployed,
  mintStrk,
  predeployedSignature,
  provider,
  serveE2eSnap,
  startChainDevnet,
  storedRecords,
  STRK,
  STRK_UNIT,
  submissions,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

let devnet: DevnetServer;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;
let dumpDir: string;

/**
 * The tests of a node that never answers wait for the snap's node timeout. They use `quick`: the
 * same snap with a 2 s node timeout instead of the chain tests' 4 s (a variant of one build), with
 * the sender's account (deployed by `snap`) in its state.
 */
const QUICK_TIMEOUT_MS = 2000;
let quickServer: SnapServer;
let quick: Snap;

const transfer = {
  contractAddress: STRK,
  entrypoint: 'transfer',
  calldata: ['0x0555', '0x10', '0x0'],
};

async function storedHashes(address: string, from: Snap = snap): Promise<string[]> {
  return (await storedRecords(from, address)).map((record) => record.txnHash);
}

/** Stops the devnet after saving its chain; `revive` starts it again on the same chain. */
async function killDevnet(): Promise<() => Promise<void>> {
  const path = join(dumpDir, `dump-${Date.now()}.json`);
  await devnetRpc(devnet, 'devnet_dump', { path });
  await devnet.close();
  return async () => {
    devnet = await startChainDevnet();
    // A pooled keep-alive socket to the old server may still look open on a loaded machine
    // ("other side closed"): loading the same dump again is harmless.
    await devnetRpc(devnet, 'devnet_load', { path }).catch(async () =>
      devnetRpc(devnet, 'devnet_load', { path }),
    );
  };
}

beforeAll(async () => {
  dumpDir = mkdtempSync(join(tmpdir(), 'snap-chain-'));
  server = await serveE2eSnap();
  quickServer = await serveE2eSnap({ timeoutMs: QUICK_TIMEOUT_MS });
  devnet = await startChainDevnet();
  ({ snap, sender } = await deployedSender(server, devnet));
}, 300_000);

afterAll(async () => {
  await closeChain(devnet, server);
  await quickServer?.close();
  rmSync(dumpDir, { recursive: true, force: true });
});

describe('node killed mid-flow', () => {
  it('l2_executeTxn: approved after the node died -> retryable -32002, nothing stored, retry works', async () => {
    const before = await storedHashes(sender.address);
    const nonce = await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed');
    const pending = snap.request({
      method: 'l2_executeTxn',
      params: { address: sender.address, calls: [transfer] },
    });
    const dialog = await dialogOf(pending);
    const revive = await killDevnet();
    try {
      await dialog.ok();
      const response = await pending;
      const host = (await devnetHost()).replace(/\./gu, '\\.');
      expectError(
        response,
        -32002,
        new RegExp(
          `Starknet node \\(${host}\\) (is unavailable|could not be reached).*try again`,
          'u',
        ),
      );
      const { data } = (response.response as { error: { data: { retryable: boolean } } }).error;
      expect(data.retryable).toBe(true);
      expect(await storedHashes(sender.address)).toEqual(before);
    } finally {
      await revive();
    }
    // Nothing reached the chain, and the same request succeeds once the node is back.
    expect(await provider(devnet).getNonceForAddress(sender.address, 'pre_confirmed')).toBe(nonce);
    const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(
      await approve(
        snap.request({
          method: 'l2_executeTxn',
          params: { address: sender.address, calls: [transfer] },
        }),
      ),
    );
    const after = await storedHashes(sender.address);
    expect(after).toHaveLength(before.length + 1);
    expect(after).toEqual(expect.arrayContaining([...before, `0x${BigInt(txHash).toString(16)}`]));
  });

  it('l2_createAccount deploy: node dies before approval -> -32002, account not stored or deployed', async () => {
    const fresh = await expectedAccount(DEFAULT_SRP, 3);
    await mintStrk(devnet, fresh.address, STRK_UNIT);
    const pending = snap.request({
      method: 'l2_createAccount',
      params: { addressIndex: 3, deploy: true },
    });
    const dialog = await dialogOf(pending);
    const revive = await killDevnet();
    try {
      await dialog.ok();
      // The deployment is re-checked under the account's lock, so the dead node may show there
      // (is unavailable) or at the submission (could not be reached): retryable either way.
      expectError(
        await pending,
        -32002,
        /could not be reached, so the transaction was not sent|is unavailable.*try again/u,
      );
      await expectNotSnapAccount(snap, fresh.address);
    } finally {
      await revive();
    }
    expect(await isDeployed(devnet, fresh.address)).toBe(false);
  });

  it('read methods fail the same clear way while the node is down', async () => {
    const revive = await killDevnet();
    try {
      for (const [method, params] of [
        ['l2_getErc20TokenBalance', { tokenAddress: STRK, userAddress: sender.address }],
        ['l2_estimateFee', { address: sender.address, invocations: [transfer] }],
        ['l2_getTransactionStatus', { transactionHash: '0x1234' }],
        ['l2_recoverAccounts', {}],
        ['l2_extractPublicKey', { userAddress: sender.address }],
        [
          'l2_declareContract',
          {
            senderAddress: sender.address,
            contractPayload: { contract: SIERRA, compiledClassHash: '0x1' },
          },
        ],
        [
          'l2_verifySignedMessage',
          {
            typedDataMessage: REV0_TYPED_DATA,
            address: devnet.predeployedAccounts[0].address,
            signature: '0x1,0x2',
          },
        ],
      ] as const) {
        expectError(
          await snap.request({ method, params: params as never }),
          -32002,
          /unavailable.*try again/u,
        );
      }
      // The history still answers from the records in snap state (the node and explorer down).
      const history = resultOf<{ senderAddress: string }[]>(
        await snap.request({
          method: 'l2_getTransactions',
          params: { senderAddress: sender.address },
        }),
      );
      expect(history.length).toBeGreaterThan(0);
    } finally {
      await revive();
    }
  });
});

describe('l2_verifySignedMessage on chain', () => {
  it.each([
    ['revision 0', REV0_TYPED_DATA],
    ['revision 1', REV1_TYPED_DATA],
  ])('asks is_valid_signature of a foreign deployed account (%s)', async (_label, data) => {
    const predeployed = await predeployedSignature(devnet, data);
    const { parts } = predeployed;
    const before = devnet.metrics.rpcCalls.starknet_call ?? 0;
    expect(
      resultOf<boolean>(
        await snap.request({
          method: 'l2_verifySignedMessage',
          params: {
            typedDataMessage: data,
            address: predeployed.address,
            signature: parts.join(','),
          },
        }),
      ),
    ).toBe(true);
    expect((devnet.metrics.rpcCalls.starknet_call ?? 0) - before).toBe(1);
    // Cross-check with @scure/starknet: the signature is over starknet.js's message hash.
    const messageHash = typedData.getMessageHash(data as never, predeployed.address);
    const [r, s] = parts.map((value) => BigInt(value));
    expect(
      verify(new Signature(r, s), messageHash, getPublicKey(predeployed.privateKey, false)),
    ).toBe(true);

    const tampered = [parts[0], `0x${(BigInt(parts[1]) + 1n).toString(16)}`];
    expect(
      resultOf<boolean>(
        await snap.request({
          method: 'l2_verifySignedMessage',
          params: { typedDataMessage: data, address: predeployed.address, signature: tampered },
        }),
      ),
    ).toBe(false);
  });

  it('answers false for a malformed signature without asking the chain', async () => {
    const [predeployed] = devnet.predeployedAccounts;
    const before = devnet.metrics.httpRequests;
    expect(
      resultOf<boolean>(
        await snap.request({
          method: 'l2_verifySignedMessage',
          params: {
            typedDataMessage: REV0_TYPED_DATA,
            address: predeployed.address,
            signature: 'zz,1',
          },
        }),
      ),
    ).toBe(false);
    expect(devnet.metrics.httpRequests).toBe(before);
  });

  it('gives a clear error for a foreign address with no contract', async () => {
    const foreign = await expectedAccount(OTHER_SRP, 0);
    expectError(
      await snap.request({
        method: 'l2_verifySignedMessage',
        params: {
          typedDataMessage: REV0_TYPED_DATA,
          address: foreign.address,
          signature: '0x1,0x2',
        },
      }),
      -32602,
      // The wording follows docs/security.md#hostile-sites: the same error, naming no address,
      // whether or not the address is one of the user's accounts that this site was not granted.
      /"address" has no deployed account contract on Testnet whose is_valid_signature could check the signature/u,
    );
  });
});

/**
 * Moves the devnet behind a proxy on devnetPort() (the port the snap was built for). Invoke
 * submissions go to `onSubmission`, which takes over the response when it returns true; everything
 * else is forwarded. `restore` puts the devnet back on that port with the state it reached.
 */
async function behindSubmissionProxy(
  name: string,
  onSubmission: (res: ServerResponse) => boolean,
): Promise<{ hidden: DevnetServer; restore: () => Promise<void> }> {
  const path = join(dumpDir, `${name}.json`);
  await devnetRpc(devnet, 'devnet_dump', { path });
  await devnet.close();
  const hidden = await startDevnet<DevnetServer>({ seed: 0, accounts: 2 });
  await devnetRpc(hidden, 'devnet_load', { path });
  // Closing the proxy drops every connection, the stalled submissions' too.
  const proxy = await serveHttp(
    (req, res, body) => {
      if (body.includes('starknet_addInvokeTransaction') && onSubmission(res)) {
        return;
      }
      fetch(`${hidden.url}${req.url ?? '/'}`, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: req.method === 'POST' ? body : undefined,
      })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        })
        .catch(() => res.writeHead(502).end());
    },
    { port: await devnetPort() },
  );
  return {
    hidden,
    restore: async () => {
      await proxy.close();
      const after = join(dumpDir, `${name}-after.json`);
      await devnetRpc(hidden, 'devnet_dump', { path: after });
      await hidden.close();
      devnet = await startChainDevnet();
      await devnetRpc(devnet, 'devnet_load', { path: after });
    },
  };
}

/**
 * Last, as snaps-jest runs one snap at a time: installing `quick` ends `snap`. The sender's
 * account, deployed by `snap`, is added to `quick` so it signs for the same address and nonce.
 */
describe('a node that does not answer (the 2 s timeout of `quick`)', () => {
  beforeAll(async () => {
    quick = await installChainSnap(quickServer.snapId);
    resultOf(await quick.request({ method: 'l2_createAccount', params: { addressIndex: 0 } }));
  });

  describe('slow node', () => {
    it('times out with a retryable -32002 when the node accepts but never answers', async () => {
      const revive = await killDevnet();
      const silent = await serveSilent({ port: await devnetPort() });
      try {
        const started = Date.now();
        const sent = submissions(devnet);
        expectError(
          await quick.request({
            method: 'l2_getErc20TokenBalance',
            params: { tokenAddress: STRK, userAddress: sender.address },
          }),
          -32002,
          new RegExp(`no answer within ${QUICK_TIMEOUT_MS / 1000} s`, 'u'),
        );
        expect(Date.now() - started).toBeGreaterThanOrEqual(QUICK_TIMEOUT_MS - 100);
        expectError(
          await quick.request({
            method: 'l2_executeTxn',
            params: { address: sender.address, calls: [transfer] },
          }),
          -32002,
          /no answer within/u,
        );
        expect(submissions(devnet)).toBe(sent);
      } finally {
        await silent.close();
        await revive();
      }
    });
  });

  describe('submission without an answer', () => {
    it('names the hash to check instead of inviting a blind retry', async () => {
      // Submissions are swallowed: no answer at all.
      const { restore } = await behindSubmissionProxy('stall', () => true);
      try {
        const before = await storedHashes(sender.address, quick);
        const response = await approve(
          quick.request({
            method: 'l2_executeTxn',
            params: { address: sender.address, calls: [transfer] },
          }),
        );
        expectError(
          response,
          -32002,
          /did not answer in time after the transaction was sent.*Check l2_getTransactionStatus for 0x[0-9a-f]+/u,
        );
        const { data } = (
          response.response as { error: { data: { retryable: boolean; transactionHash: string } } }
        ).error;
        expect(data.retryable).toBe(false);
        expect(data.transactionHash).toMatch(/^0x[0-9a-f]+$/u);
        expect(await storedHashes(sender.address, quick)).toEqual(before);
      } finally {
        await restore();
      }
    });
  });

  describe('submission answered with headers only', () => {
    it('times out the stalled body and does not block the next send from the account', async () => {
      let stallSubmissions = true;
      // The rest of the stalled body, sent at 10x the timeout unless the snap has answered.
      let stallGuard: NodeJS.Timeout | undefined;
      let stallEnded = false;
      const { hidden, restore } = await behindSubmissionProxy('stall-body', (res) => {
        if (!stallSubmissions) return false;
        // Headers and the start of a body, then nothing.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        res.write('{"jsonrpc":"2.0",');
        stallGuard = setTimeout(() => {
          stallEnded = true;
          res.end('"id":1,"error":{"code":-32603,"message":"late"}}');
        }, QUICK_TIMEOUT_MS * 10);
        return true;
      });
      try {
        const pending = quick.request({
          method: 'l2_executeTxn',
          params: { address: sender.address, calls: [transfer] },
        });
        const dialog = await dialogOf(pending);
        const started = Date.now();
        await dialog.ok();
        const response = await pending;
        // Answered while the body was still stalled, by the timeout and not by anything sooner.
        clearTimeout(stallGuard);
        expect(stallEnded).toBe(false);
        expect(Date.now() - started).toBeGreaterThanOrEqual(QUICK_TIMEOUT_MS - 100);
        expectError(response, -32002, /did not answer in time after the transaction was sent/u);
        const { data } = (
          response.response as { error: { data: { retryable: boolean; timedOut: boolean } } }
        ).error;
        expect(data).toMatchObject({ retryable: false, timedOut: true });

        // The account's nonce lock was released: the next send goes through.
        stallSubmissions = false;
        const { transaction_hash: txHash } = resultOf<{ transaction_hash: string }>(
          await approve(
            quick.request({
              method: 'l2_executeTxn',
              params: { address: sender.address, calls: [transfer] },
            }),
          ),
        );
        expect(txHash).toMatch(/^0x[0-9a-f]+$/u);
        const status = await provider(hidden).getTransactionStatus(txHash);
        expect(status.execution_status).toBe('SUCCEEDED');
      } finally {
        await restore();
      }
    });
  });
});
