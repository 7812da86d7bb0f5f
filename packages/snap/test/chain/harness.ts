/**
 * End-to-end harness of the chain tests: the real snap bundle built with Testnet pointed at
 * 127.0.0.1:5059 (build-e2e-snap.cjs), served from its own folder (the testkit's serveSnap), and
 * a packages/devnet server (the testkit's startDevnet) that each test file starts on that port
 * and stops in afterAll. Test files that need
 * the port at the same time wait for it (the bundle's URL is fixed at build time).
 *
 * Cross-checks read the devnet directly with starknet.js, never through the snap.
 */
import { installSnap } from '@metamask/snaps-jest';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { Account, RpcProvider, type CompiledSierra } from 'starknet';

import type { DevnetServer } from '@l2wallet/devnet';
import {
  approve,
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
} from '../helpers';
import type { AccountRecord, TransactionRecord as TxRecord } from '../../src/state/schema';

export type { DevnetServer };
export type { AccountRecord, TxRecord };

/** SPEC 2.4 fee estimate (base-10 strings); includeDeploy comes with l2_estimateFee only. */
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
  ensureE2eSnap: () => string;
  ensureE2eNodeSnap: () => string;
  DEVNET_PORT: number;
  E2E_RPC_TIMEOUT_MS: string;
};

export const DEVNET_PORT = builder.DEVNET_PORT;
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
 * `explorer: 'closed'` serves the build whose explorer is a closed port (history from the node).
 */
export async function serveE2eSnap({
  explorer = 'devnet',
}: { explorer?: 'devnet' | 'closed' } = {}): Promise<SnapServer> {
  return serveSnap(explorer === 'closed' ? builder.ensureE2eNodeSnap() : builder.ensureE2eSnap());
}

const PORT_LOCK = join(__dirname, '../../../../node_modules/.cache/l2wallet-devnet-5059.lock');
let portLockHeld = false;

function lockOwnerAlive(): boolean {
  try {
    const pid = Number(readFileSync(join(PORT_LOCK, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Port 5059 belongs to one test file at a time, for its whole run (a file that kills and
 * restarts its devnet keeps it): a lock directory holding the owner's pid, taken in beforeAll
 * and given back by closeChainDevnet. A lock whose process is gone is taken over.
 */
async function claimDevnetPort(deadline: number): Promise<void> {
  if (portLockHeld) {
    return;
  }
  mkdirSync(dirname(PORT_LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(PORT_LOCK);
      writeFileSync(join(PORT_LOCK, 'pid'), String(process.pid));
      portLockHeld = true;
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
      const age = Date.now() - statSync(PORT_LOCK).mtimeMs;
      if (age > 2_000 && !lockOwnerAlive()) {
        rmSync(PORT_LOCK, { recursive: true, force: true });
      } else if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${PORT_LOCK}`);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
}

/** Starts the devnet on 127.0.0.1:5059 (waiting while another test file owns the port). */
export async function startChainDevnet(
  options: { blockTime?: number; seed?: number; rpcVersion?: string; startTime?: number } = {},
): Promise<DevnetServer> {
  const deadline = Date.now() + 280_000;
  await claimDevnetPort(deadline);
  return startDevnet<DevnetServer>({
    port: DEVNET_PORT,
    seed: options.seed ?? 0,
    accounts: 2,
    blockTime: options.blockTime ?? 0,
    rpcVersion: options.rpcVersion,
    startTime: options.startTime,
    // Something outside these tests may still hold the port for a moment.
    portWaitMs: Math.max(0, deadline - Date.now()),
  });
}

/** Stops the file's devnet and gives port 5059 to the next test file. */
export async function closeChainDevnet(devnet: DevnetServer | undefined): Promise<void> {
  try {
    await devnet?.close();
  } finally {
    if (portLockHeld) {
      rmSync(PORT_LOCK, { recursive: true, force: true });
      portLockHeld = false;
    }
  }
}

export type Snap = Awaited<ReturnType<typeof installSnap>>;

/**
 * The chain build installed with the test origin already granted accounts 0..63 (helpers
 * grantedState): the chain tests are about the node, the grant dialogs have their own tests.
 */
export async function installChainSnap(snapId: string, srp?: string): Promise<Snap> {
  return installGranted({ snapId, srp });
}

/** Stops the file's devnet (giving back port 5059), then its snap server. */
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
  return new RpcProvider({ nodeUrl: devnet.rpcUrl });
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
  await devnetRpc(devnet, 'devnet_mint', { address, amount: amount.toString(), unit: 'FRI' });
}

/** An ERC-20 balance read straight from the devnet with starknet.js (u256 [low, high]). */
export async function balanceOf(
  devnet: DevnetServer,
  token: string,
  address: string,
  blockIdentifier: 'latest' | 'pre_confirmed' = 'latest',
): Promise<bigint> {
  const result = await provider(devnet).callContract(
    { contractAddress: token, entrypoint: 'balance_of', calldata: [address] },
    blockIdentifier,
  );
  return BigInt(result[0]) + (BigInt(result[1] ?? 0) << 128n);
}

export async function isDeployed(devnet: DevnetServer, address: string): Promise<boolean> {
  try {
    await provider(devnet).getClassHashAt(address, 'latest');
    return true;
  } catch {
    return false;
  }
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
