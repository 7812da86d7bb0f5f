/**
 * What the chain methods do with one of the snap's accounts: read its on-chain state, plan and
 * estimate a deploy and/or invoke, and send them after the user approved.
 *
 * Round trips (each one HTTP request to the node):
 * - before the dialog: one batch (deployed? nonce, STRK balance) and one estimate;
 * - after approval: one nonce read and one submission (or two submissions when the account is
 *   deployed first), so at most 3.
 */
import { InvalidInputError } from '@metamask/snaps-sdk';
import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-constants';

import type { AccountKey } from '../keys';
import {
  readAccountSnapshot as readSnapshot,
  readAccountState,
  readNonce,
  type AccountSnapshot as FeeSnapshot,
} from '../node/accounts';
import type { BatchResult, RpcCall } from '../node/client';
import type { ChainContext } from '../node/chain';
import {
  localDeployHash,
  nextNonce,
  noteDeploySubmitted,
  noteFailedSubmission,
  noteSubmittedNonce,
  withAccountLock,
  withNextNonce,
} from '../node/nonces';
import { estimateTransactions, submitTransaction } from '../node/submit';
import { estimateDetails, givenBounds, givenDetails, type TxDetails } from '../starknet/details';
import {
  boundsFromEstimate,
  boundsWithinMaxFee,
  deployAndInvokeWithinMaxFee,
  MaxFeeTooLowError,
  maxChargeOf,
  maxFeeOfBounds,
  toFeeEstimateResult,
  type FeeEstimate,
  type FeeEstimateResult,
  type ResourceBounds,
} from '../starknet/fees';
import {
  deployAccountTransaction,
  invokeTransaction,
  QUERY_TX_VERSION,
  withSignature,
  type DeployAccountData,
  type Transaction,
  type TxCall,
} from '../starknet/transaction';
import { formatStrk } from '../starknet/units';
import { signHash } from '../keys/signing';
import { toHex } from '../starknet/felt';
import {
  findAccount,
  stateStore,
  upsertAccount,
  upsertTransaction,
  type TransactionRecord,
} from '../state';

type ChainTxDetails = TxDetails;
type ChainCall = TxCall;
type SignedTransaction = Transaction;

/** Stores the records, and the deploy hash on the account record when one is given. */
export async function storeRecords(
  records: readonly TransactionRecord[],
  deployed?: { chainId: string; address: string; deployTxnHash: string },
): Promise<void> {
  await stateStore.update((state) => {
    for (const record of records) {
      upsertTransaction(state, record);
    }
    if (deployed) {
      const account = findAccount(state, deployed.chainId, deployed.address);
      if (account) {
        upsertAccount(state, { ...account, deployTxnHash: toHex(deployed.deployTxnHash) });
      }
    }
  });
}

export type AccountSnapshot = { deployed: boolean; nonce: bigint; strkBalance: bigint };

const strkSnapshot = (snapshot: FeeSnapshot): AccountSnapshot => ({
  deployed: snapshot.deployed,
  nonce: snapshot.nonce,
  strkBalance: snapshot.feeBalance,
});

/** Deployed? nonce, STRK balance (pre_confirmed): one batch. */
export async function readAccountSnapshot(
  chain: ChainContext,
  address: string,
): Promise<AccountSnapshot> {
  const [snapshot] = await readSnapshot(chain, address, STRK_TOKEN_ADDRESS);
  return strkSnapshot(snapshot);
}

/** readAccountSnapshot with more calls in the same batch, whose answers come back as they are. */
export async function readAccountSnapshotWith(
  chain: ChainContext,
  address: string,
  also: readonly RpcCall[],
): Promise<[AccountSnapshot, BatchResult[]]> {
  const [snapshot, answers] = await readSnapshot(chain, address, STRK_TOKEN_ADDRESS, also);
  return [strkSnapshot(snapshot), answers];
}

export function deployDataOf(key: AccountKey): DeployAccountData {
  return {
    address: key.address,
    classHash: key.classHash,
    salt: key.addressSalt,
    constructorCalldata: key.constructorCalldata,
  };
}

/** The caller's details that enter the transaction as given (every default filled). */
export const baseDetails = givenDetails;

export { maxChargeOf, readAccountState };

/**
 * Refuses caller-given resource bounds whose maximum charge (tip included) is above the
 * caller's maxFee: both fields are the caller's, and maxFee is a cap.
 */
export function requireBoundsWithinMaxFee(
  charge: bigint,
  maxFee: bigint | undefined,
  field = 'details',
): void {
  if (maxFee !== undefined && charge > maxFee) {
    throw new InvalidInputError(
      `Invalid params: "${field}.resourceBounds" (with "${field}.tip") allow a charge of up to ${charge.toString()} FRI, above "${field}.maxFee" ${maxFee.toString()} (FRI)`,
      { maxFee: maxFee.toString(10), maxCharge: charge.toString(10), unit: 'FRI' },
    );
  }
}

/** A maxFee below the estimate as the caller's error, naming the caller's field. */
function maxFeeError(error: unknown, field: string): unknown {
  if (!(error instanceof MaxFeeTooLowError)) {
    return error;
  }
  return new InvalidInputError(
    `Invalid params: "${field}.maxFee" ${error.maxFee.toString()} is below the estimated fee ${error.estimatedFee.toString()} (FRI)`,
  );
}

export type TransactionPlan = { bounds: ResourceBounds; maxCharge: bigint; overallFee?: bigint };

/**
 * Chooses the bounds of one transaction from a deployed account: the caller's resourceBounds
 * (checked against maxFee, no estimate), or the node's estimate of `queryTx` raised by the
 * margins and fitted under maxFee. `queryTx(sign)` builds the query-version transaction, signed
 * when the estimate runs the account's validation (skipValidate: false).
 */
export async function planTransaction(
  chain: ChainContext,
  details: ChainTxDetails | undefined,
  queryTx: (sign: boolean) => SignedTransaction,
  field = 'details',
): Promise<TransactionPlan> {
  const tip = details?.tip ?? 0n;
  const given = givenBounds(details);
  if (given) {
    const maxCharge = maxChargeOf(given, tip);
    requireBoundsWithinMaxFee(maxCharge, details?.maxFee, field);
    return { bounds: given, maxCharge };
  }
  const skipValidate = details?.skipValidate ?? true;
  const [estimate] = await estimateTransactions(chain.rpc, [queryTx(!skipValidate)], skipValidate);
  let bounds: ResourceBounds;
  try {
    bounds =
      details?.maxFee === undefined
        ? boundsFromEstimate(estimate)
        : boundsWithinMaxFee(estimate, details.maxFee, tip);
  } catch (error) {
    throw maxFeeError(error, field);
  }
  return { bounds, maxCharge: maxChargeOf(bounds, tip), overallFee: estimate.overall_fee };
}

/**
 * Sends with the caller's nonce, or with the account's next nonce taken one at a time per
 * account, so concurrent approvals get distinct nonces.
 */
export async function sendWithNonce(
  chain: ChainContext,
  address: string,
  fixedNonce: bigint | undefined,
  send: (nonce: bigint) => Promise<string>,
): Promise<{ transactionHash: string; nonce: bigint }> {
  const chainId = chain.network.chainId;
  if (fixedNonce !== undefined) {
    const transactionHash = await send(fixedNonce);
    noteSubmittedNonce(chainId, address, fixedNonce);
    return { transactionHash, nonce: fixedNonce };
  }
  let usedNonce = 0n;
  const transactionHash = await withNextNonce(
    chainId,
    address,
    () => readNonce(chain.rpc, address),
    async (nonce) => {
      usedNonce = nonce;
      return send(nonce);
    },
  );
  return { transactionHash, nonce: usedNonce };
}

export type InvokePlan = {
  snapshot: AccountSnapshot;
  includeDeploy: boolean;
  deployBounds?: ResourceBounds;
  invokeBounds: ResourceBounds;
  /** The nonce given in details, if any. */
  fixedNonce?: bigint;
  estimates: FeeEstimate[];
  fee: FeeEstimateResult;
  maxCharge: bigint;
  overallFee?: bigint;
};

function deployTxFor(key: AccountKey, chainId: string, bounds: ResourceBounds, query: boolean) {
  const tx = deployAccountTransaction({
    account: deployDataOf(key),
    chainId,
    details: { nonce: 0n, resourceBounds: bounds, tip: 0n, paymasterData: [] },
    version: query ? QUERY_TX_VERSION : undefined,
  });
  return query ? tx : withSignature(tx, signHash(key, tx.hash));
}

/** The query transaction, signed when the estimate runs validation. */
function queryTx(tx: Transaction, key: AccountKey, sign: boolean): Transaction {
  return sign ? withSignature(tx, signHash(key, tx.hash)) : tx;
}

/**
 * Estimates deploy (when the account is not deployed) plus invoke, and chooses the bounds that
 * will be signed. With `details.resourceBounds` and a deployed account no estimate is made
 * unless `alwaysEstimate`.
 */
export async function planInvoke(
  chain: ChainContext,
  key: AccountKey,
  calls: readonly ChainCall[],
  details: ChainTxDetails | undefined,
  alwaysEstimate = false,
): Promise<InvokePlan> {
  const chainId = chain.network.chainId;
  const snapshot = await readAccountSnapshot(chain, key.address);
  const includeDeploy = !snapshot.deployed;
  const fixedNonce = details?.nonce;
  const invokeNonce = fixedNonce ?? (includeDeploy ? 1n : snapshot.nonce);
  const base = baseDetails(details);
  const given = givenBounds(details);
  const skipValidate = details?.skipValidate ?? true;

  let estimates: FeeEstimate[] = [];
  if (includeDeploy || !given || alwaysEstimate) {
    const txs: Transaction[] = [];
    if (includeDeploy) {
      txs.push(
        queryTx(
          deployAccountTransaction({
            account: deployDataOf(key),
            chainId,
            details: estimateDetails(0n),
            version: QUERY_TX_VERSION,
          }),
          key,
          !skipValidate,
        ),
      );
    }
    txs.push(
      queryTx(
        invokeTransaction({
          senderAddress: key.address,
          calls,
          chainId,
          details: estimateDetails(invokeNonce, base),
          version: QUERY_TX_VERSION,
        }),
        key,
        !skipValidate,
      ),
    );
    estimates = await estimateTransactions(chain.rpc, txs, skipValidate);
  }

  const invokeEstimate = estimates[estimates.length - 1];
  const maxFee = details?.maxFee;
  let deployBounds: ResourceBounds | undefined;
  let invokeBounds: ResourceBounds;
  try {
    if (given) {
      invokeBounds = given;
      const invokeCharge = maxChargeOf(given, base.tip);
      requireBoundsWithinMaxFee(invokeCharge, maxFee);
      if (includeDeploy) {
        deployBounds =
          maxFee === undefined
            ? boundsFromEstimate(estimates[0])
            : boundsWithinMaxFee(estimates[0], maxFee - invokeCharge);
      }
    } else if (maxFee !== undefined) {
      if (includeDeploy) {
        ({ deployBounds, invokeBounds } = deployAndInvokeWithinMaxFee(
          estimates[0],
          invokeEstimate,
          maxFee,
          base.tip,
        ));
      } else {
        invokeBounds = boundsWithinMaxFee(invokeEstimate, maxFee, base.tip);
      }
    } else {
      deployBounds = includeDeploy ? boundsFromEstimate(estimates[0]) : undefined;
      invokeBounds = boundsFromEstimate(invokeEstimate);
    }
  } catch (error) {
    throw maxFeeError(error, 'details');
  }

  const boundsList = deployBounds ? [deployBounds, invokeBounds] : [invokeBounds];
  const fee =
    estimates.length > 0
      ? toFeeEstimateResult(estimates, boundsList)
      : {
          suggestedMaxFee: maxFeeOfBounds(invokeBounds).toString(10),
          overallFee: maxFeeOfBounds(invokeBounds).toString(10),
          gasConsumed: '0',
          gasPrice: '0',
          unit: 'wei' as const,
        };
  const maxCharge =
    (deployBounds ? maxChargeOf(deployBounds, 0n) : 0n) + maxChargeOf(invokeBounds, base.tip);
  return {
    snapshot,
    includeDeploy,
    deployBounds,
    invokeBounds,
    fixedNonce,
    estimates,
    fee,
    maxCharge,
    overallFee: estimates.length > 0 ? BigInt(fee.overallFee) : undefined,
  };
}

export type DeployPlan = {
  snapshot: AccountSnapshot;
  bounds: ResourceBounds;
  estimate: FeeEstimate;
  fee: FeeEstimateResult;
  maxCharge: bigint;
};

/**
 * Estimates the account's deployment. An account already on chain has nothing to deploy: a
 * clear error, unless the caller handles that case itself (`snapshot.deployed`).
 */
export async function planDeploy(
  chain: ChainContext,
  key: AccountKey,
  snapshot?: AccountSnapshot,
): Promise<DeployPlan> {
  const state = snapshot ?? (await readAccountSnapshot(chain, key.address));
  if (state.deployed) {
    throw new InvalidInputError(
      `Account ${key.address} is already deployed on ${chain.network.name}: there is no deployment fee to estimate.`,
    );
  }
  const [estimate] = await estimateTransactions(
    chain.rpc,
    [deployTxFor(key, chain.network.chainId, estimateDetails(0n).resourceBounds, true)],
    true,
  );
  const bounds = boundsFromEstimate(estimate);
  return {
    snapshot: state,
    bounds,
    estimate,
    fee: toFeeEstimateResult([estimate], [bounds]),
    maxCharge: maxChargeOf(bounds, 0n),
  };
}

/** Fails before any dialog when the account cannot pay the most the transactions may cost. */
export function requireFunds(address: string, balance: bigint, needed: bigint, what: string): void {
  if (balance >= needed) {
    return;
  }
  const missing = needed - balance;
  throw new InvalidInputError(
    `Not enough STRK to pay for ${what}: fund the account ${address} with at least ${formatStrk(missing)} (${missing} FRI). It holds ${formatStrk(balance)} and the maximum fee is ${formatStrk(needed)} (${needed} FRI).`,
    {
      address,
      balance: balance.toString(10),
      maxFee: needed.toString(10),
      missing: missing.toString(10),
      unit: 'FRI',
    },
  );
}

/** Sends the account's DEPLOY_ACCOUNT. Call it with the account's lock held. */
export async function sendDeploy(
  chain: ChainContext,
  key: AccountKey,
  bounds: ResourceBounds,
): Promise<string> {
  const signed = deployTxFor(key, chain.network.chainId, bounds, false);
  const txHash = await submitTransaction(chain.rpc, signed, 'Account deployment');
  noteDeploySubmitted(chain.network.chainId, key.address, txHash);
  return txHash;
}

export type DeployOutcome =
  { sent: true; transactionHash: string } | { sent: false; deployed: true; localHash?: string };

/**
 * Deploys the account unless, checked under the account's lock, it is already on chain
 * (pre_confirmed) or this snap already sent its deployment: concurrent approvals send one
 * DEPLOY_ACCOUNT.
 */
export async function deployOnce(
  chain: ChainContext,
  key: AccountKey,
  bounds: ResourceBounds,
): Promise<DeployOutcome> {
  const chainId = chain.network.chainId;
  return withAccountLock(chainId, key.address, async () => {
    const localHash = localDeployHash(chainId, key.address);
    const state = await readAccountState(chain.rpc, key.address);
    if (state.deployed || localHash !== undefined) {
      return { sent: false, deployed: true, localHash };
    }
    return { sent: true, transactionHash: await sendDeploy(chain, key, bounds) };
  });
}

export type SentInvoke = { deployTxnHash?: string; transactionHash: string; nonce: bigint };

/**
 * Sends what planInvoke planned: the deploy first when needed, then the invoke with the next
 * nonce (one at a time per account, so concurrent approvals get distinct nonces).
 * `onDeployed` runs as soon as the deploy is accepted, so it is recorded even if the invoke fails.
 */
export async function sendInvoke(
  chain: ChainContext,
  key: AccountKey,
  calls: readonly ChainCall[],
  details: ChainTxDetails | undefined,
  plan: InvokePlan,
  onDeployed: (deployTxnHash: string) => Promise<void>,
): Promise<SentInvoke> {
  const chainId = chain.network.chainId;
  const base = baseDetails(details);
  const sendInvokeWithNonce = async (nonce: bigint): Promise<string> => {
    const tx = invokeTransaction({
      senderAddress: key.address,
      calls,
      chainId,
      details: { ...base, nonce, resourceBounds: plan.invokeBounds },
    });
    return submitTransaction(chain.rpc, withSignature(tx, signHash(key, tx.hash)), 'Transaction');
  };

  if (plan.includeDeploy && plan.deployBounds) {
    const deployBounds = plan.deployBounds;
    // Deploy and invoke under the account's lock, re-checking the deployment there: another
    // approved request (or l2_createAccount deploy) may have deployed it since the estimate.
    return withAccountLock(chainId, key.address, async () => {
      const state = await readAccountState(chain.rpc, key.address);
      let deployTxnHash: string | undefined;
      if (!state.deployed && localDeployHash(chainId, key.address) === undefined) {
        deployTxnHash = await sendDeploy(chain, key, deployBounds);
        await onDeployed(deployTxnHash);
      }
      const nonce = plan.fixedNonce ?? nextNonce(chainId, key.address, state.nonce);
      let transactionHash: string;
      try {
        transactionHash = await sendInvokeWithNonce(nonce);
      } catch (error) {
        noteFailedSubmission(chainId, key.address, error);
        throw error;
      }
      noteSubmittedNonce(chainId, key.address, nonce);
      return { deployTxnHash, transactionHash, nonce };
    });
  }
  return sendWithNonce(chain, key.address, plan.fixedNonce, sendInvokeWithNonce);
}
