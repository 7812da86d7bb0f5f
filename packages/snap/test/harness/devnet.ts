/**
 * End-to-end harness of the chain tests: each test file has its own packages/devnet server (the
 * testkit's startDevnet) on a port of its own, chosen when the file first needs it, and the real
 * snap bundle with Testnet pointed at that port (build-e2e-snap.cjs: a variant of one cached
 * build, made in milliseconds), served from its own folder (the testkit's serveSnap). Files run
 * side by side in the jest workers; none waits for another's port.
 *
 * Cross-checks read the devnet directly with starknet.js, never through the snap.
 */
import { installSnap } from '@metamask/snaps-jest';
import { readFileSync } from 'fs';
import { join } from 'path';
import { Account, RpcProvider, type CompiledSierra } from 'starknet';

import type { DevnetServer } from '@l2wallet/devnet';
import {
  approve,
  erc20Balance,
  freePort,
  isDeployed as deployedAt,
  LOOPBACK,
  mintStrk as mint,
  rpc,
  serveSnap,
  startDevnet,
  STARKNET_TESTNET,
  STRK_TOKEN,
  ETH_TOKEN,
  TOKEN_UNIT,
} from '@l2wallet/testkit';
import {
  DEFAULT_SRP,
  expectedAccount,
  expectError,
  installGranted,
  resultOf,
  type ExpectedAccount,
} from './snap';
import type { AccountRecord, TransactionRecord as TxRecord } from '../../src/state/schema';

export type { DevnetServer };
export type { AccountRecord, TxRecord };

/**
 * Fee estimate (docs/interface/snap.md#fee-estimate) (base-10 strings); includeDeploy comes with
 * l2_estimateFee only.
 */
export type FeeEstimate = {
  suggestedMaxFee: string;
  overallFee: string;
  gasConsumed: string;
  gasPrice: string;
  unit: string;
  includeDeploy?: boolean;
};

// Each file that uses the harness gives a test 120 s (less than the shared setup's 180 s).
jest.setTimeout(120_000);

const builder = require('./build-e2e-snap.cjs') as {
  ensureE2eSnap: (
    devnetUrl: string,
    options?: { timeoutMs?: number; paymasterUrl?: string },
  ) => Promise<string>;
  ensureE2eNodeSnap: (devnetUrl: string) => Promise<string>;
  E2E_RPC_TIMEOUT_MS: string;
};

let filePort: Promise<number> | undefined;

/**
 * The port of this test file's devnet (a free one, picked once per file: jest loads the harness
 * once per file), which its snap bundle is built for. A restarted devnet comes back on it.
 */
export function devnetPort(): Promise<number> {
  filePort ??= freePort();
  return filePort;
}

/** This file's devnet address as the snap shows it in messages, e.g. 127.0.0.1:40123. */
export async function devnetHost(): Promise<string> {
  return `${LOOPBACK}:${await devnetPort()}`;
}

export const RPC_TIMEOUT_MS = Number(builder.E2E_RPC_TIMEOUT_MS);
export const TESTNET = STARKNET_TESTNET;
export const STRK = STRK_TOKEN;
export const ETH = ETH_TOKEN;
export const STRK_UNIT = TOKEN_UNIT;

/**
 * The devnet's Sierra fixture (counter.cairo compiled by wasm-cairo, see
 * packages/devnet/test/fixtures/README.md).
 */
export const COUNTER_SIERRA = JSON.parse(
  readFileSync(
    join(__dirname, '../../../devnet/test/fixtures/counter.contract_class.json'),
    'utf8',
  ),
) as CompiledSierra;

export type SnapServer = { snapId: string; close: () => Promise<void> };

/**
 * Serves the e2e snap folder on 127.0.0.1 (a random port) for snaps-simulation to install;
 * `explorer: 'closed'` serves the build whose explorer is a closed port (history from the node);
 * `timeoutMs` replaces the node timeout (RPC_TIMEOUT_MS) of the build with the devnet explorer,
 * and `paymasterUrl` names Testnet's paymaster (a closed port otherwise).
 */
export async function serveE2eSnap({
  explorer = 'devnet',
  timeoutMs,
  paymasterUrl,
}: {
  explorer?: 'devnet' | 'closed';
  timeoutMs?: number;
  paymasterUrl?: string;
} = {}): Promise<SnapServer> {
  const devnetUrl = `http://${await devnetHost()}`;
  return serveSnap(
    await (explorer === 'closed'
      ? builder.ensureE2eNodeSnap(devnetUrl)
      : builder.ensureE2eSnap(devnetUrl, { timeoutMs, paymasterUrl })),
  );
}

/** Starts this file's devnet on its port (devnetPort). */
export async function startChainDevnet(
  options: {
    blockTime?: number;
    seed?: number;
    rpcVersion?: string;
    startTime?: number;
    starknetVersion?: string;
  } = {},
): Promise<DevnetServer> {
  return startDevnet<DevnetServer>({
    port: await devnetPort(),
    seed: options.seed ?? 0,
    accounts: 2,
    blockTime: options.blockTime ?? 0,
    rpcVersion: options.rpcVersion,
    startTime: options.startTime,
    starknetVersion: options.starknetVersion,
  });
}

/** Stops the file's devnet. */
export async function closeChainDevnet(devnet: DevnetServer | undefined): Promise<void> {
  await devnet?.close();
}

export type Snap = Awaited<ReturnType<typeof installSnap>>;

/**
 * The chain build installed with the test origin already granted accounts 0..63 (helpers
 * grantedState): the chain tests are about the node, the grant dialogs have their own tests.
 */
export async function installChainSnap(snapId: string, srp?: string): Promise<Snap> {
  return installGranted({ snapId, srp });
}

/** Stops the file's devnet, then its snap server. */
export async function closeChain(
  devnet: DevnetServer | undefined,
  server: SnapServer | undefined,
): Promise<void> {
  await closeChainDevnet(devnet);
  await server?.close();
}

/**
 * The usual start of a file that sends transactions: the snap installed with the default phrase,
 * its accounts at `indexes` (0 first) added, account 0 funded with 100 STRK (and every address
 * of `alsoFund` likewise) and deployed. Returns the snap, account 0 and its deploy hash.
 */
export async function deployedSender(
  server: SnapServer,
  devnet: DevnetServer,
  { indexes = [0], alsoFund = [] }: { indexes?: number[]; alsoFund?: string[] } = {},
): Promise<{ snap: Snap; sender: ExpectedAccount; deployTxnHash: string }> {
  const snap = await installChainSnap(server.snapId);
  const sender = await expectedAccount(DEFAULT_SRP, 0);
  for (const addressIndex of indexes) {
    resultOf(await snap.request({ method: 'l2_createAccount', params: { addressIndex } }));
  }
  for (const address of [sender.address, ...alsoFund]) {
    await mintStrk(devnet, address, 100n * STRK_UNIT);
  }
  return { snap, sender, deployTxnHash: await deployAccount(snap, 0) };
}

/** Deploys the snap's (funded) account at addressIndex, approving the dialog; its hash. */
export async function deployAccount(snap: Snap, addressIndex: number): Promise<string> {
  return resultOf<{ transaction_hash: string }>(
    await approve(
      snap.request({ method: 'l2_createAccount', params: { addressIndex, deploy: true } }),
    ),
  ).transaction_hash;
}

export function provider(devnet: DevnetServer): RpcProvider {
  // The devnet mines each transaction as it arrives: waitForTransaction need not wait starknet.js's
  // default 5 s before each look at the receipt.
  return new RpcProvider({ nodeUrl: devnet.rpcUrl, transactionRetryIntervalFallback: 100 });
}

/** starknet.js's own Account for a key of the snap, against the devnet (not through the snap). */
export function starknetJsAccount(devnet: DevnetServer, account: ExpectedAccount): Account {
  return new Account({
    provider: provider(devnet),
    address: account.address,
    signer: account.privateKey,
    cairoVersion: '1',
  });
}

/**
 * The devnet's first predeployed account (an account that is not the snap's) signs typed data
 * with starknet.js: its address, its key (for cross-checks) and the signature as hex parts.
 */
export async function predeployedSignature(
  devnet: DevnetServer,
  data: unknown,
): Promise<{ address: string; privateKey: string; parts: string[] }> {
  const [predeployed] = devnet.predeployedAccounts;
  const account = new Account({
    provider: provider(devnet),
    address: predeployed.address,
    signer: predeployed.private_key,
  });
  const signature = (await account.signMessage(data as never)) as unknown as
    { r: bigint; s: bigint } | string[];
  const parts = Array.isArray(signature)
    ? signature.map((value) => `0x${BigInt(value).toString(16)}`)
    : [`0x${signature.r.toString(16)}`, `0x${signature.s.toString(16)}`];
  return { address: predeployed.address, privateKey: predeployed.private_key, parts };
}

/** A transaction as the node returns it (JSON-RPC field names), typed by the caller. */
export async function nodeTransaction<T>(devnet: DevnetServer, txHash: string): Promise<T> {
  return (await provider(devnet).getTransactionByHash(txHash)) as unknown as T;
}

/** A receipt as the node returns it (JSON-RPC field names), typed by the caller. */
export async function nodeReceipt<T>(devnet: DevnetServer, txHash: string): Promise<T> {
  return (await provider(devnet).getTransactionReceipt(txHash)) as unknown as T;
}

type RpcBound = { max_amount: string; max_price_per_unit: string };

/** The fields of a node's v3 transaction that every v3 hash covers. */
export type RpcV3Fields = {
  nonce: string;
  resource_bounds: Record<'l1_gas' | 'l2_gas' | 'l1_data_gas', RpcBound>;
  tip: string;
  paymaster_data: string[];
};

/** starknet.js's hash arguments shared by every v3 transaction on Testnet, from the node's. */
export function v3HashArgs(tx: RpcV3Fields) {
  const bn = (bound: RpcBound) => ({
    max_amount: BigInt(bound.max_amount),
    max_price_per_unit: BigInt(bound.max_price_per_unit),
  });
  return {
    version: '0x3',
    chainId: TESTNET as never,
    nonce: tx.nonce,
    nonceDataAvailabilityMode: 0,
    feeDataAvailabilityMode: 0,
    resourceBounds: {
      l1_gas: bn(tx.resource_bounds.l1_gas),
      l2_gas: bn(tx.resource_bounds.l2_gas),
      l1_data_gas: bn(tx.resource_bounds.l1_data_gas),
    },
    tip: tx.tip,
    paymasterData: tx.paymaster_data,
  } as const;
}

/** An ERC-20 transfer call, STRK unless told (u256 amount as [low, high]). */
export function erc20Transfer(recipient: string, amount: bigint, token = STRK) {
  return {
    contractAddress: token,
    entrypoint: 'transfer',
    calldata: [recipient, `0x${amount.toString(16)}`, '0x0'],
  };
}

export async function devnetRpc<T>(
  devnet: DevnetServer,
  method: string,
  params: unknown,
): Promise<T> {
  return rpc<T>(devnet.rpcUrl, method, params);
}

export async function mintStrk(
  devnet: DevnetServer,
  address: string,
  amount: bigint,
): Promise<void> {
  await mint(devnet.rpcUrl, address, amount);
}

/** An ERC-20 balance read straight from the devnet (u256 [low, high]). */
export async function balanceOf(
  devnet: DevnetServer,
  token: string,
  address: string,
  block: 'latest' | 'pre_confirmed' = 'latest',
): Promise<bigint> {
  return erc20Balance(devnet.rpcUrl, address, { token, block });
}

export async function isDeployed(devnet: DevnetServer, address: string): Promise<boolean> {
  return deployedAt(devnet.rpcUrl, address);
}

export { approve, decline, dialogOf } from '@l2wallet/testkit';

/** The snap's stored records of `address` (deployment included), not asking the explorer. */
export async function storedRecords(snap: Snap, address: string): Promise<TxRecord[]> {
  return resultOf<TxRecord[]>(
    await snap.request({
      method: 'l2_getTransactions',
      params: { senderAddress: address, onlyFromState: true, withDeployTxn: true },
    }),
  );
}

/** Asserts that `address` is not an account of the snap (l2_extractPublicKey refuses it). */
export async function expectNotSnapAccount(snap: Snap, address: string): Promise<void> {
  expectError(
    await snap.request({ method: 'l2_extractPublicKey', params: { userAddress: address } }),
    -32602,
    /not an account of this snap/u,
  );
}

/** Starknet JSON-RPC calls the devnet answered since the last reset, by method. */
export function rpcCalls(devnet: DevnetServer): Record<string, number> {
  return { ...devnet.metrics.rpcCalls };
}

export function submissions(devnet: DevnetServer): number {
  const calls = devnet.metrics.rpcCalls;
  return (
    (calls.starknet_addInvokeTransaction ?? 0) +
    (calls.starknet_addDeployAccountTransaction ?? 0) +
    (calls.starknet_addDeclareTransaction ?? 0)
  );
}

/**
 * A counting proxy's answer rewrite for a node that does not have `method`: each call of it, alone
 * or in a batch, is answered -32601 "Method not found"; every other answer passes unchanged.
 */
export function withoutMethod(method: string) {
  return (result: unknown, request: unknown): unknown => {
    const refuse = (call: { id: unknown; method: string }, item: unknown) =>
      call.method === method
        ? { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }
        : item;
    return Array.isArray(request)
      ? (result as unknown[]).map((item, index) => refuse(request[index], item))
      : refuse(request as { id: unknown; method: string }, result);
  };
}
