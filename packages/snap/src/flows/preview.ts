/**
 * The preview of a send (docs: the snap README, "Transaction previews"): what the simulation of
 * the exact transactions to be signed does to the account, per token, in the token's own symbol
 * and decimals (the watch list's, else read from the token's contract), the allowances it sets,
 * and the fee the account may pay at most. Never a guess: a node that could not simulate gives
 * "preview unavailable" and why.
 */
import { TransactionRejected } from '@metamask/snaps-sdk';

import type { AccountKey } from '../keys';
import { readAccounts, settled } from '../node/accounts';
import type { ChainContext } from '../node/chain';
import { expectedNonce, noteReadNonce } from '../node/nonces';
import {
  readSimulation,
  simulateTransactions,
  simulationCall,
  type SimulationAnswer,
} from '../node/simulate';
import { readTokenMetadata } from '../node/tokens';
import { effectsOn, UNLIMITED_ALLOWANCE } from '../starknet/preview';
import { findTokenIn } from '../starknet/tokens';
import { estimateDetails } from '../starknet/details';
import {
  invokeTransaction,
  QUERY_TX_VERSION,
  type Transaction,
  type TxCall,
} from '../starknet/transaction';
import type { OutsideExecutionView } from '../starknet/typedData/outsideExecution';
import { formatUnits } from '../starknet/units';
import { stateStore, tokensOf } from '../state';
import type { PreviewView } from '../ui';
import type { PreparedCommon } from './sendTypes';
import { deployTransaction } from './sendV3';

type TokenLabel = { symbol: string; decimals: number; listed: boolean } | undefined;

/** The token's symbol and decimals: the watch list's, else its contract's; undefined if unread. */
async function tokenLabels(
  chain: ChainContext,
  addresses: readonly string[],
): Promise<Map<string, TokenLabel>> {
  if (addresses.length === 0) {
    return new Map();
  }
  const listed = await stateStore.pick((state) =>
    tokensOf(state, chain.network.chainId).map((token) => ({ ...token })),
  );
  const labels = await Promise.all(
    addresses.map(async (address): Promise<TokenLabel> => {
      const known = findTokenIn(listed, address);
      if (known) {
        return { symbol: known.symbol, decimals: known.decimals, listed: true };
      }
      try {
        const read = await readTokenMetadata(chain, address);
        return { symbol: read.symbol, decimals: read.decimals, listed: false };
      } catch {
        return undefined;
      }
    }),
  );
  return new Map(addresses.map((address, index) => [address, labels[index]]));
}

/** "−1.5 STRK" / "+0.2 ETH"; raw units when the token's decimals could not be read. */
export function signedAmount(amount: bigint, label: TokenLabel, address: string): string {
  const sign = amount < 0n ? '\u2212' : '+';
  const magnitude = amount < 0n ? -amount : amount;
  return label
    ? `${sign}${formatUnits(magnitude, label.decimals, label.symbol)}`
    : `${sign}${magnitude} units of ${address} (not a token the snap can read)`;
}

function tokenName(label: TokenLabel, address: string): string {
  if (!label) {
    return `Contract ${address}`;
  }
  return label.listed ? label.symbol : `${label.symbol} (${address}, not in your token list)`;
}

/**
 * The dialog's preview of `simulation` for `account`; `fee` is the most the account may pay,
 * formatted ("up to 0.003 STRK"), `tip` the tip it pays when there is one.
 */
export async function buildPreview(
  chain: ChainContext,
  account: string,
  simulation: SimulationAnswer | undefined,
  fee: string,
  tip?: string,
): Promise<PreviewView> {
  const base = { fee, ...(tip === undefined ? {} : { tip }) };
  if (!simulation) {
    return {
      ...base,
      unavailable: 'the transaction was not simulated',
      changes: [],
      approvals: [],
    };
  }
  if ('unavailable' in simulation) {
    return { ...base, unavailable: simulation.unavailable, changes: [], approvals: [] };
  }
  const effects = effectsOn(account, simulation.simulated);
  const tokens = [
    ...new Set([
      ...effects.changes.map((change) => change.token),
      ...effects.approvals.map((approval) => approval.token),
    ]),
  ];
  const labels = await tokenLabels(chain, tokens);
  return {
    ...base,
    ...(effects.revertReason === undefined ? {} : { revertReason: effects.revertReason }),
    changes: effects.changes.map(({ token, amount }) => ({
      token: tokenName(labels.get(token), token),
      amount: signedAmount(amount, labels.get(token), token),
    })),
    approvals: effects.approvals.map(({ token, spender, amount }) => {
      const label = labels.get(token);
      const what =
        amount >= UNLIMITED_ALLOWANCE
          ? `an unlimited amount of ${tokenName(label, token)}`
          : label
            ? formatUnits(amount, label.decimals, tokenName(label, token))
            : `${amount} units of ${token}`;
      return `lets ${spender} spend ${what}`;
    }),
  };
}

/**
 * The preview simulation of a relayed send: the calls of the outside execution as the account
 * runs them (an invoke of its own with those calls; the relayer's transaction cannot be simulated
 * before the account signs), after its deployment when the relayer deploys it (then at nonce 1,
 * else at the account's `nonce`). The fee transfer is left out: the preview shows it as the fee.
 */
export function relayedQueries(
  key: AccountKey,
  chainId: string,
  calls: readonly TxCall[],
  includeDeploy: boolean,
  nonce: bigint,
): Transaction[] {
  const invoke = invokeTransaction({
    senderAddress: key.address,
    calls,
    chainId,
    details: estimateDetails(includeDeploy ? 1n : nonce),
    version: QUERY_TX_VERSION,
  });
  const deploy = includeDeploy
    ? [deployTransaction(key, chainId, estimateDetails(0n).resourceBounds, QUERY_TX_VERSION)]
    : [];
  return [...deploy, invoke];
}

/** The relayer runs the calls, not the node: a simulation the node refuses is no preview. */
export function refusedSimulation(error: unknown): SimulationAnswer {
  return {
    unavailable: `the simulation failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** relayedQueries simulated in a round trip of its own, beside paymaster_buildTransaction. */
export async function simulateRelayedCalls(
  common: PreparedCommon,
  calls: readonly TxCall[],
): Promise<SimulationAnswer> {
  const { chain, key, includeDeploy, snapshot } = common;
  const queries = relayedQueries(key, chain.network.chainId, calls, includeDeploy, snapshot.nonce);
  try {
    return await simulateTransactions(chain.rpc, queries, true);
  } catch (error) {
    return refusedSimulation(error);
  }
}

/**
 * The paymaster refused to build a transaction whose calls revert in the snap's own simulation:
 * there is no outside execution to sign yet, but the user sees the approval dialog with the
 * warning (RefusedRelayedFee) and may decline (4001) or approve, which asks the paymaster again.
 */
export class RefusedReverting extends Error {
  constructor(
    readonly refusal: Error,
    readonly reason: string,
    readonly host: string,
    readonly simulation: SimulationAnswer,
    readonly includeDeploy: boolean,
  ) {
    super(refusal.message);
  }
}

/** The paymaster's refusal, as a RefusedReverting when the simulation says the calls revert. */
export async function withRevertReason(
  refusal: unknown,
  simulating: Promise<SimulationAnswer | undefined>,
  host: string,
  includeDeploy: boolean,
): Promise<unknown> {
  const simulation = await simulating;
  if (!(refusal instanceof TransactionRejected) || !simulation || !('simulated' in simulation)) {
    return refusal;
  }
  const reason = simulation.simulated.find((tx) => tx.revertReason)?.revertReason;
  return reason === undefined
    ? refusal
    : new RefusedReverting(refusal, reason, host, simulation, includeDeploy);
}

/** The preview of a relayed send the paymaster refused to build: the warning, no fee quoted. */
export async function refusedPreview(
  chain: ChainContext,
  account: string,
  refused: RefusedReverting,
): Promise<PreviewView> {
  const preview = await buildPreview(
    chain,
    account,
    refused.simulation,
    `none quoted: the paymaster (${refused.host}) did not build it`,
  );
  return {
    ...preview,
    ifApproved:
      'If you approve, the paymaster is asked again: nothing is signed or sent unless it builds the transaction, and then its fee is shown to you first.',
  };
}

/** The paymaster refused again after the user approved: -32003, the reason, nothing sent. */
export function refusedAgain(refused: RefusedReverting): Error {
  return new TransactionRejected(
    `${refused.refusal.message} The simulation of the calls reverts: ${refused.reason}. Nothing was signed or sent.`,
    { revertReason: refused.reason },
  );
}

const OUTSIDE_FEE =
  'none from your account: whoever submits it pays the network fee (a payment to them is a change above)';

/** The error's message without its final period: the banner's sentence goes on after it. */
const reasonOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\.$/u, '');

/**
 * The preview of a SNIP-9 outside execution `account` is asked to sign: its calls, exactly as
 * signed (by selector), simulated as an invoke of the account's own with validation skipped. One
 * round trip: the simulation rides with the read of the account's deployment and nonce, at the
 * nonce this execution expects (node/nonces.ts); a second runs only when the read disagrees. An
 * account not deployed cannot run an invoke, and a node that cannot simulate gives no preview:
 * both say why, and neither stops the signing.
 */
export async function previewOutsideExecution(
  chain: ChainContext,
  account: string,
  execution: OutsideExecutionView,
): Promise<PreviewView> {
  const chainId = chain.network.chainId;
  const invokeAt = (nonce: bigint) =>
    invokeTransaction({
      senderAddress: account,
      calls: { bySelector: execution.calls },
      chainId,
      details: estimateDetails(nonce),
      version: QUERY_TX_VERSION,
    });
  const guess = expectedNonce(chainId, account) ?? 0n;
  let simulation: SimulationAnswer;
  try {
    const {
      accounts: [read],
      also: [riding],
    } = await readAccounts(chain.rpc, [account], { block: 'pre_confirmed', nonce: true }, [
      simulationCall([invokeAt(guess)], true),
    ]);
    const nonce = settled(read.nonce, 'Reading the account nonce');
    if (!settled(read.deployed, 'Reading the account')) {
      simulation = {
        unavailable:
          'your account is not deployed yet, and the node can only simulate calls from a deployed account',
      };
    } else {
      noteReadNonce(chainId, account, nonce);
      simulation =
        nonce === guess
          ? readSimulation(riding, 1, chain.rpc.url)
          : await simulateTransactions(chain.rpc, [invokeAt(nonce)], true);
    }
  } catch (error) {
    simulation = { unavailable: `it could not be simulated: ${reasonOf(error)}` };
  }
  const preview = await buildPreview(chain, account, simulation, OUTSIDE_FEE);
  return {
    ...preview,
    ifApproved:
      'If you sign, whoever submits the signature can still run these calls; on chain they are expected to fail.',
  };
}
