/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * Fees paid in another token through the network's SNIP-29 paymaster
 * (docs/interface/snap.md#fees-in-another-token): `details.feeMode` on l2_estimateFee,
 * l2_executeTxn and l2_createAccount with deploy: true, end to end. The real snap bundle in
 * snaps-jest, Testnet at this file's devnet, its paymaster packages/paymaster's l2-paymaster (the
 * testkit starts the built CLI; the relayer is the devnet's last predeployed account, ETH a gas
 * token at 2500 STRK) reached through a pass-through that counts requests and, in the last tests,
 * lies. Balances, deployments and transactions are read from the devnet itself.
 */
import {
  mintEth,
  startCountingProxy,
  startDevnetPaymaster,
  deployToken,
  type CountingProxy,
  type DevnetPaymaster,
} from '@l2wallet/testkit';

import {
  checkRelayedExecution,
  MAX_VALIDITY_SECONDS,
  NotAsApproved,
} from '../../src/starknet/paymaster';
import { selectorOf } from '../../src/starknet/selectors';
import type { OutsideExecutionView } from '../../src/starknet/typedData/outsideExecution';
import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  installGranted,
  pad,
  resultOf,
  type ExpectedAccount,
} from '../harness/snap';
import {
  approve,
  balanceOf,
  closeChain,
  COUNTER_SIERRA,
  decline,
  dialogOf,
  ETH,
  erc20Transfer,
  installChainSnap,
  isDeployed,
  nodeReceipt,
  serveE2eSnap,
  startChainDevnet,
  storedRecords,
  STRK,
  type DevnetServer,
  type FeeEstimate,
  type Snap,
  type SnapServer,
  type TxRecord,
} from '../harness/devnet';

const ONE_ETH = 10n ** 18n;
const RECIPIENT = '0x0123456789abcdef';
const FEE_IN_ETH = { mode: 'default', gasToken: ETH };

type RelayedEstimate = FeeEstimate & {
  overallFeeInGasToken: string;
  suggestedMaxFeeInGasToken: string;
  gasToken: string;
};

let devnet: DevnetServer | undefined;
let paymaster: DevnetPaymaster | undefined;
let proxy: CountingProxy;
let server: SnapServer | undefined;

beforeAll(async () => {
  devnet = await startChainDevnet();
  paymaster = await startDevnetPaymaster(devnet.rpcUrl, {
    gasTokens: [{ address: ETH, priceInStrk: '2500' }],
  });
  proxy = await startCountingProxy(paymaster.url);
  server = await serveE2eSnap({ paymasterUrl: proxy.url });
});

afterAll(async () => {
  await proxy?.stop();
  await paymaster?.stop();
  await closeChain(devnet, server);
});

const chain = (): DevnetServer => devnet as DevnetServer;
const relayer = (): string => pad((paymaster as DevnetPaymaster).relayer.address);
const paymasterHost = (): string => `127.0.0.1:${proxy.port}`;

/** The paymaster methods the snap called since the proxy's last reset. */
const paymasterCalls = (): string[] => proxy.requests().flat();

/** A snap account that holds `eth` and nothing else (not deployed). */
async function ethOnlyAccount(snap: Snap, index: number, eth = ONE_ETH): Promise<ExpectedAccount> {
  resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex: index } }));
  const account = await expectedAccount(DEFAULT_SRP, index);
  await mintEth(chain().rpcUrl, account.address, eth);
  expect(await balanceOf(chain(), STRK, account.address)).toBe(0n);
  return account;
}

async function balances(address: string): Promise<{ eth: bigint; strk: bigint }> {
  return {
    eth: await balanceOf(chain(), ETH, address),
    strk: await balanceOf(chain(), STRK, address),
  };
}

/** l2_executeTxn of one ETH transfer of `amount` to RECIPIENT, the fee in ETH (pending). */
function sendEthPayingInEth(snap: Snap, address: string, amount: bigint) {
  return snap.request({
    method: 'l2_executeTxn',
    params: {
      address,
      calls: [erc20Transfer(RECIPIENT, amount, ETH)],
      details: { feeMode: FEE_IN_ETH },
    },
  });
}

describe('the fee in ETH through the paymaster', () => {
  let snap: Snap;
  let account: ExpectedAccount;
  let firstHash: string;

  beforeAll(async () => {
    snap = await installChainSnap((server as SnapServer).snapId);
    account = await ethOnlyAccount(snap, 0);
  });

  it('estimates an undeployed account deploy + invoke, in STRK and in ETH', async () => {
    proxy.reset();
    const estimate = resultOf<RelayedEstimate>(
      await snap.request({
        method: 'l2_estimateFee',
        params: {
          address: account.address,
          invocations: [erc20Transfer(RECIPIENT, 1000n, ETH)],
          details: { feeMode: FEE_IN_ETH },
        },
      }),
    );
    expect(estimate).toMatchObject({ includeDeploy: true, unit: 'wei', gasToken: ETH });
    for (const field of [
      'suggestedMaxFee',
      'overallFee',
      'overallFeeInGasToken',
      'suggestedMaxFeeInGasToken',
    ] as const) {
      expect(estimate[field]).toMatch(/^[0-9]+$/u);
    }
    expect(BigInt(estimate.overallFeeInGasToken)).toBeGreaterThan(0n);
    expect(BigInt(estimate.suggestedMaxFeeInGasToken)).toBeGreaterThanOrEqual(
      BigInt(estimate.overallFeeInGasToken),
    );
    // ETH at 2500 STRK: the same fee in both units.
    expect(BigInt(estimate.overallFee) / 2500n).toBeLessThanOrEqual(
      BigInt(estimate.overallFeeInGasToken),
    );
    expect(paymasterCalls()).toEqual(['paymaster_buildTransaction']);
  });

  it('deploys an ETH-only account and runs its calls in one approval, STRK 0 throughout, the fee paid in ETH to the relayer', async () => {
    const before = { account: await balances(account.address), relayer: await balances(relayer()) };
    proxy.reset();
    const pending = sendEthPayingInEth(snap, account.address, 1000n);
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    expect(text).toMatch(
      new RegExp(`Fee paid in ETH: up to [0-9.]+ ETH \\(through ${paymasterHost()}\\)`, 'u'),
    );
    expect(text).toContain('the relayer deploys it in the same transaction');
    expect(text).toContain(`Submitted by (relayer)\n${relayer()}`);
    expect(text).toContain('Call 1 of 1: transfer');
    expect(text).toContain('A relayer submits this transaction and pays its STRK fee');
    expect(paymasterCalls()).toEqual(['paymaster_buildTransaction']);
    await dialog.ok();
    firstHash = resultOf<{ transaction_hash: string }>(await pending).transaction_hash;
    expect(paymasterCalls()).toEqual([
      'paymaster_buildTransaction',
      'paymaster_executeTransaction',
    ]);

    const receipt = await nodeReceipt<{ execution_status: string }>(chain(), firstHash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(await isDeployed(chain(), account.address)).toBe(true);
    const after = { account: await balances(account.address), relayer: await balances(relayer()) };
    expect(after.account.strk).toBe(0n);
    expect(await balanceOf(chain(), ETH, RECIPIENT)).toBe(1000n);
    const paid = before.account.eth - after.account.eth - 1000n;
    expect(paid).toBeGreaterThan(0n);
    // The fee went to the relayer, in ETH; the relayer paid the STRK.
    expect(after.relayer.eth - before.relayer.eth).toBe(paid);
    expect(after.relayer.strk).toBeLessThan(before.relayer.strk);
  });

  it('sends from the deployed account the same way (an invoke), still without STRK', async () => {
    proxy.reset();
    const { transaction_hash: hash } = resultOf<{ transaction_hash: string }>(
      await approve(sendEthPayingInEth(snap, account.address, 500n)),
    );
    const built = proxy.log().find((entry) => entry.calls.includes('paymaster_buildTransaction'));
    expect(built).toBeDefined();
    expect(await balanceOf(chain(), ETH, RECIPIENT)).toBe(1500n);
    expect((await balances(account.address)).strk).toBe(0n);
    const receipt = await nodeReceipt<{ execution_status: string }>(chain(), hash);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(
      resultOf(
        await snap.request({
          method: 'l2_getTransactionStatus',
          params: { transactionHash: hash },
        }),
      ),
    ).toBe('ACCEPTED_ON_L2');
  });

  it('records the relayer transactions like any other, and the deployment hash on the account', async () => {
    const stored = await storedRecords(snap, account.address);
    const relayed = stored.filter((record) => record.txnType === 'invoke');
    expect(relayed).toHaveLength(2);
    for (const record of relayed) {
      expect(record).toMatchObject({
        senderAddress: account.address,
        contractAddress: pad(ETH),
        contractFuncName: 'transfer',
      });
    }
    expect(relayed.map((record) => BigInt(record.txnHash))).toContain(BigInt(firstHash));
    const [recovered] = resultOf<{ deployTxnHash: string }[]>(
      await snap.request({ method: 'l2_recoverAccounts', params: { startScanIndex: 0 } }),
    );
    expect(BigInt(recovered.deployTxnHash)).toBe(BigInt(firstHash));
  });

  it("finds them from the node alone as the account's own transactions (a snap that never sent them)", async () => {
    const fresh = await installGranted({ snapId: (server as SnapServer).snapId });
    const history = resultOf<TxRecord[]>(
      await fresh.request({
        method: 'l2_getTransactions',
        params: { senderAddress: account.address, txnsInLastNumOfDays: 1 },
      }),
    );
    const first = history.find((record) => BigInt(record.txnHash) === BigInt(firstHash));
    // The calls the account signed: the transfer, then the fee transfer to the relayer.
    expect(first).toMatchObject({
      txnType: 'invoke',
      senderAddress: account.address,
      contractAddress: pad(ETH),
      contractFuncName: 'transfer,transfer',
      status: 'ACCEPTED_ON_L2',
    });
  });
});

describe('l2_createAccount deploy: true with the fee in ETH', () => {
  it('has the relayer deploy an ETH-only account, the call it carries shown', async () => {
    const snap = await installChainSnap((server as SnapServer).snapId);
    const account = await ethOnlyAccount(snap, 1);
    const pending = snap.request({
      method: 'l2_createAccount',
      params: { addressIndex: 1, deploy: true, details: { feeMode: FEE_IN_ETH } },
    });
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    expect(text).toContain('Deploy account');
    expect(text).toMatch(/Fee paid in ETH: up to [0-9.]+ ETH/u);
    expect(text).toContain('Call 1 of 1: balance_of');
    expect(text).toContain(`Calldata\n${account.address}`);
    await dialog.ok();
    const result = resultOf<{ address: string; transaction_hash: string }>(await pending);
    expect(result.address).toBe(account.address);
    expect(await isDeployed(chain(), account.address)).toBe(true);
    expect((await balances(account.address)).strk).toBe(0n);
    const [record] = await storedRecords(snap, account.address);
    expect(record).toMatchObject({ txnType: 'deploy_account', senderAddress: account.address });
    expect(BigInt(record.txnHash)).toBe(BigInt(result.transaction_hash));
  });

  it('refuses a fee mode without deploy: true', async () => {
    const snap = await installChainSnap((server as SnapServer).snapId);
    expectError(
      await snap.request({
        method: 'l2_createAccount',
        params: { addressIndex: 5, details: { feeMode: FEE_IN_ETH } },
      }),
      -32602,
      /"details\.feeMode" applies only with deploy: true/u,
    );
  });
});

describe('what the fee mode refuses before asking the paymaster', () => {
  let snap: Snap;
  let account: ExpectedAccount;

  beforeAll(async () => {
    snap = await installChainSnap((server as SnapServer).snapId);
    account = await ethOnlyAccount(snap, 3);
  });

  it.each([
    ['nonce', '0x1'],
    [
      'resourceBounds',
      {
        l1_gas: { max_amount: 1, max_price_per_unit: 1 },
        l2_gas: { max_amount: 1, max_price_per_unit: 1 },
      },
    ],
    ['maxFee', '10'],
  ])(
    'refuses details.%s beside a fee mode (a relayer sends the transaction)',
    async (member, value) => {
      proxy.reset();
      expectError(
        await snap.request({
          method: 'l2_executeTxn',
          params: {
            address: account.address,
            calls: [erc20Transfer(RECIPIENT, 1n, ETH)],
            details: { feeMode: FEE_IN_ETH, [member]: value },
          },
        }),
        -32602,
        new RegExp(`"details\\.${member}" does not apply with feeMode`, 'u'),
      );
      expect(paymasterCalls()).toEqual([]);
    },
  );

  it('refuses a gas token the paymaster does not take, naming the field', async () => {
    const token = await deployToken(chain().rpcUrl, {
      name: 'Other',
      symbol: 'OTH',
      decimals: 18,
      recipient: account.address,
      supply: ONE_ETH,
    });
    expectError(
      await snap.request({
        method: 'l2_executeTxn',
        params: {
          address: account.address,
          calls: [erc20Transfer(RECIPIENT, 1n, ETH)],
          details: { feeMode: { mode: 'default', gasToken: token } },
        },
      }),
      -32602,
      /"details\.feeMode\.gasToken" is not a gas token the paymaster/u,
    );
  });

  it('refuses a fee mode on a declaration', async () => {
    proxy.reset();
    expectError(
      await snap.request({
        method: 'l2_declareContract',
        params: {
          senderAddress: account.address,
          contractPayload: {
            contract: COUNTER_SIERRA as unknown as Record<string, never>,
            compiledClassHash: '0x1234567890abcdef',
          },
          invocationsDetails: { feeMode: FEE_IN_ETH },
        },
      }),
      -32602,
      /"invocationsDetails\.feeMode" is not available for a declaration/u,
    );
    expect(paymasterCalls()).toEqual([]);
  });
});

/** A v1 outside execution as the paymaster answers it (SNIP-9 v1: Argent 0.3.1). */
type Built = {
  type: string;
  fee: { suggested_max_fee_in_gas_token: string };
  typed_data: {
    domain: Record<string, unknown>;
    message: {
      caller: string;
      execute_after: string;
      execute_before: string;
      calls_len: string;
      calls: { to: string; selector: string; calldata_len: string; calldata: string[] }[];
      [member: string]: unknown;
    };
  };
};

const hex = (value: bigint | number): string => `0x${BigInt(value).toString(16)}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);
const ATTACKER = '0xbad';

/** Each lie a paymaster could tell in its build, and the refusal that names it. */
const LIES: [string, (built: Built) => void, RegExp][] = [
  [
    'a call appended before the fee',
    ({ typed_data: { message } }) => {
      message.calls.splice(message.calls.length - 1, 0, {
        to: STRK,
        selector: selectorOf('transfer'),
        calldata_len: '0x3',
        calldata: [ATTACKER, '0x1', '0x0'],
      });
      message.calls_len = hex(message.calls.length);
    },
    /it has 3 calls where the 1 approved and one fee transfer were expected/u,
  ],
  [
    'the approved call changed',
    ({ typed_data: { message } }) => {
      message.calls[0].calldata[0] = ATTACKER;
    },
    /its call 1 is not the call transfer approved/u,
  ],
  [
    'the fee transfer left out',
    ({ typed_data: { message } }) => {
      message.calls.pop();
      message.calls_len = hex(message.calls.length);
    },
    /it has 1 calls where the 1 approved and one fee transfer were expected/u,
  ],
  [
    'a fee above its own quote',
    (built) => {
      const fee = built.typed_data.message.calls.at(-1)!;
      fee.calldata[1] = hex(BigInt(built.fee.suggested_max_fee_in_gas_token) + 1n);
    },
    /its fee transfer of [0-9]+ is above the fee it quoted/u,
  ],
  [
    'the fee paid in another token',
    ({ typed_data: { message } }) => {
      message.calls.at(-1)!.to = STRK;
    },
    /its last call is not a transfer of the gas token/u,
  ],
  [
    'anyone allowed to submit it',
    ({ typed_data: { message } }) => {
      message.caller = hex(0x414e595f43414c4c4552n);
    },
    /anyone could submit it \(ANY_CALLER\)/u,
  ],
  [
    'valid for a day',
    ({ typed_data: { message } }) => {
      message.execute_before = hex(nowSeconds() + 86_400);
    },
    /it would stay valid for [0-9]+ s, more than 900 s/u,
  ],
  [
    'already expired',
    ({ typed_data: { message } }) => {
      message.execute_after = hex(nowSeconds() - 3600);
      message.execute_before = hex(nowSeconds() - 60);
    },
    /it is not valid now/u,
  ],
  [
    'bound to another network',
    ({ typed_data: { domain } }) => {
      domain.chainId = '0x534e5f4d41494e';
    },
    /typedDataMessage\.domain\.chainId/u,
  ],
  [
    'a member its type does not declare',
    ({ typed_data: { message } }) => {
      message.memo = '0x1';
    },
    /is not a member of type "OutsideExecution"/u,
  ],
  [
    'not an outside execution',
    ({ typed_data: { domain } }) => {
      domain.name = 'Mail';
    },
    /its typed data is not a SNIP-9 outside execution/u,
  ],
  [
    'another transaction type',
    (built) => {
      built.type = 'invoke';
    },
    /it built a invoke where deploy_and_invoke was asked/u,
  ],
];

describe('a paymaster that lies is refused before any dialog, and nothing is signed', () => {
  let snap: Snap;
  let account: ExpectedAccount;

  beforeAll(async () => {
    snap = await installChainSnap((server as SnapServer).snapId);
    account = await ethOnlyAccount(snap, 4);
  });

  afterEach(() => proxy.rewriteAnswers(undefined));

  it.each(LIES)('refuses %s', async (_lie, tell, refusal) => {
    proxy.rewriteAnswers((answer, request) => {
      const { method } = request as { method: string };
      const { result } = answer as { result?: Built };
      if (method === 'paymaster_buildTransaction' && result) {
        tell(result);
      }
      return answer;
    });
    proxy.reset();
    const ethBefore = await balanceOf(chain(), ETH, account.address);
    const pending = sendEthPayingInEth(snap, account.address, 7n);
    const first = await Promise.race([
      Promise.resolve(pending).then(() => 'answered'),
      pending.getInterface().then(
        () => 'dialog',
        () => 'answered',
      ),
    ]);
    expect(first).toBe('answered');
    expectError(await pending, -32002, /built an outside execution the snap will not sign/u);
    expectError(await pending, -32002, refusal);
    expectError(await pending, -32002, /Nothing was signed or sent\.$/u);
    expect(paymasterCalls()).toEqual(['paymaster_buildTransaction']);
    expect(await balanceOf(chain(), ETH, account.address)).toBe(ethBefore);
    expect(await isDeployed(chain(), account.address)).toBe(false);
  });

  it('sends nothing when the user declines (4001)', async () => {
    proxy.reset();
    expectError(await decline(sendEthPayingInEth(snap, account.address, 7n)), 4001);
    expect(paymasterCalls()).toEqual(['paymaster_buildTransaction']);
    expect(await isDeployed(chain(), account.address)).toBe(false);
  });
});

describe('checkRelayedExecution (the check itself)', () => {
  const token = pad(ETH);
  const call = {
    contractAddress: pad(STRK),
    entrypoint: 'transfer',
    calldata: ['0x1', '0x2', '0x0'],
  };
  const now = 1_800_000_000;
  const view = (
    amount: bigint,
    overrides: Partial<OutsideExecutionView> = {},
  ): OutsideExecutionView => ({
    version: 1,
    caller: pad('0x1234'),
    nonce: '0x9',
    executeAfter: BigInt(now - 60),
    executeBefore: BigInt(now + 600),
    calls: [
      {
        to: pad(STRK),
        functionName: 'transfer',
        selector: selectorOf('transfer'),
        calldata: ['0x1', '0x2', '0x0'],
        args: [],
      },
      {
        to: token,
        functionName: 'transfer',
        selector: selectorOf('transfer'),
        calldata: ['0xfee', hex(amount), '0x0'],
        args: [],
      },
    ],
    ...overrides,
  });

  it('accepts the same fee or a lower one than quoted, and names the recipient and caller', () => {
    expect(checkRelayedExecution(view(100n), [call], token, 100n, now)).toMatchObject({
      amount: 100n,
      recipient: pad('0xfee'),
      caller: pad('0x1234'),
    });
    expect(checkRelayedExecution(view(99n), [call], token, 100n, now).amount).toBe(99n);
    expect(() => checkRelayedExecution(view(101n), [call], token, 100n, now)).toThrow(
      NotAsApproved,
    );
  });

  it('accepts up to MAX_VALIDITY_SECONDS and a clock a minute ahead, nothing more', () => {
    const at = (after: number, before: number) =>
      view(1n, { executeAfter: BigInt(after), executeBefore: BigInt(before) });
    expect(() =>
      checkRelayedExecution(at(now, now + MAX_VALIDITY_SECONDS), [call], token, 1n, now),
    ).not.toThrow();
    expect(() =>
      checkRelayedExecution(at(now + 60, now + 600), [call], token, 1n, now),
    ).not.toThrow();
    expect(() => checkRelayedExecution(at(now + 61, now + 600), [call], token, 1n, now)).toThrow(
      /not valid now/u,
    );
    expect(() =>
      checkRelayedExecution(at(now, now + MAX_VALIDITY_SECONDS + 1), [call], token, 1n, now),
    ).toThrow(/stay valid/u);
  });

  it('refuses an amount that is not a u256', () => {
    const built = view(1n);
    built.calls[1].calldata = ['0xfee', hex(2n ** 128n), '0x0'];
    expect(() => checkRelayedExecution(built, [call], token, 2n ** 200n, now)).toThrow(
      /not a u256/u,
    );
  });

  it('compares addresses and calldata as numbers', () => {
    const spelled = {
      ...call,
      contractAddress: STRK.replace(/^0x0*/u, '0x'),
      calldata: ['1', '2', '0'],
    };
    expect(checkRelayedExecution(view(1n), [spelled], token, 1n, now).amount).toBe(1n);
  });
});
