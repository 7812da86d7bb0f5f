/**
 * The one fee planner: what a send estimates and the resource bounds it signs, for every method
 * that sends or estimates (an invoke, the account's deployment before it, a declaration, a
 * deployment alone). How it reads TxDetails (docs/interface/snap.md#transaction-details):
 * docs/architecture/snap.md#the-fee-planner.
 */
import { InvalidInputError } from '@metamask/snaps-sdk';

import type { ChainContext } from '../node/chain';
import { simulateTransactions, type SimulationAnswer } from '../node/simulate';
import { estimateTransactions } from '../node/submit';
import {
  boundsFromEstimate,
  fitWithinMaxFee,
  maxChargeOf,
  maxFeeOfBounds,
  MaxFeeTooLowError,
  toFeeEstimateResult,
  type FeeEstimate,
  type FeeEstimateResult,
  type ResourceBounds,
} from '../starknet/fees';
import type { Transaction } from '../starknet/transaction';

/** One transaction of a request, in the order they are sent. */
export type PlannedTransaction = {
  /** Its query-version transaction, unsigned: what the node estimates. */
  query: Transaction;
  /** The caller's bounds for it, signed as given. */
  given?: ResourceBounds | undefined;
  tip: bigint;
};

export type FeePlan = {
  /** The bounds each transaction is signed with, in order. */
  bounds: ResourceBounds[];
  /** The most the transactions can be charged together, tips included (FRI). */
  maxCharge: bigint;
  /** What the node estimates they will be charged; undefined when nothing was estimated. */
  overallFee?: bigint | undefined;
  /** The fee estimate (docs/interface/snap.md#fee-estimate) of the request. */
  fee: FeeEstimateResult;
  /** With `preview`: the simulation of the transactions, or why there is none. */
  simulation?: SimulationAnswer | undefined;
};

/**
 * Refuses caller-given resource bounds whose maximum charge (tip included) is above the caller's
 * maxFee: both fields are the caller's, and maxFee is a cap.
 */
function requireBoundsWithinMaxFee(
  charge: bigint,
  maxFee: bigint | undefined,
  field: string,
): void {
  if (maxFee !== undefined && charge > maxFee) {
    throw new InvalidInputError(
      `Invalid params: "${field}.resourceBounds" (with "${field}.tip") allow a charge of up to ${charge.toString()} FRI, above "${field}.maxFee" ${maxFee.toString()} (FRI)`,
      { maxFee: maxFee.toString(10), maxCharge: charge.toString(10), unit: 'FRI' },
    );
  }
}

/** A maxFee below the estimate, as the caller's error naming the caller's field. */
function maxFeeError(error: unknown, field: string): unknown {
  if (!(error instanceof MaxFeeTooLowError)) {
    return error;
  }
  return new InvalidInputError(
    `Invalid params: "${field}.maxFee" ${error.maxFee.toString()} is below the estimated fee ${error.estimatedFee.toString()} (FRI)`,
  );
}

/**
 * The bounds of each transaction from the caller's bounds and the node's estimates (one per
 * transaction when any was made, none otherwise), fitted under `maxFee`. Pure.
 */
export function chooseBounds(
  transactions: readonly PlannedTransaction[],
  estimates: readonly FeeEstimate[],
  maxFee: bigint | undefined,
  field: string,
): FeePlan {
  const givenCharge = transactions.reduce(
    (sum, tx) => sum + (tx.given ? maxChargeOf(tx.given, tx.tip) : 0n),
    0n,
  );
  if (transactions.some((tx) => tx.given)) {
    requireBoundsWithinMaxFee(givenCharge, maxFee, field);
  }
  const toFit = transactions.flatMap((tx, index) =>
    tx.given ? [] : [{ index, estimate: estimates[index], tip: tx.tip }],
  );
  let fitted: ResourceBounds[];
  try {
    fitted =
      maxFee === undefined
        ? toFit.map(({ estimate }) => boundsFromEstimate(estimate))
        : fitWithinMaxFee(toFit, maxFee - givenCharge);
  } catch (error) {
    throw maxFeeError(error, field);
  }
  const bounds = transactions.map(
    (tx, index) => tx.given ?? fitted[toFit.findIndex((item) => item.index === index)],
  );
  const maxCharge = bounds.reduce(
    (sum, item, index) => sum + maxChargeOf(item, transactions[index].tip),
    0n,
  );
  if (estimates.length > 0) {
    const fee = toFeeEstimateResult(estimates, bounds);
    return { bounds, maxCharge, overallFee: BigInt(fee.overallFee), fee };
  }
  const signedMax = bounds.reduce((sum, item) => sum + maxFeeOfBounds(item), 0n).toString(10);
  return {
    bounds,
    maxCharge,
    fee: {
      suggestedMaxFee: signedMax,
      overallFee: signedMax,
      gasConsumed: '0',
      gasPrice: '0',
      unit: 'wei',
    },
  };
}

/**
 * Estimates the transactions (one round trip) unless every one has the caller's bounds and no
 * estimate is asked for, then chooses the bounds. `sign` signs a query transaction, for an
 * estimate that runs the account's validation (skipValidate: false). With `preview` the one round
 * trip is a simulation of the same transactions, which gives the estimates too (and runs even
 * when every bound is given); only a node that cannot simulate costs the estimate on top.
 */
export async function planFees(
  chain: ChainContext,
  transactions: readonly PlannedTransaction[],
  options: {
    maxFee?: bigint | undefined;
    skipValidate?: boolean | undefined;
    alwaysEstimate?: boolean;
    preview?: boolean;
    /** The preview's simulation, when it rode along in an earlier batch. */
    simulated?: SimulationAnswer | undefined;
    field: string;
    sign: (tx: Transaction) => Transaction;
  },
): Promise<FeePlan> {
  const skipValidate = options.skipValidate ?? true;
  const estimate = options.alwaysEstimate === true || transactions.some((tx) => !tx.given);
  const queries = (): Transaction[] =>
    transactions.map((tx) => (skipValidate ? tx.query : options.sign(tx.query)));
  const simulation =
    options.simulated ??
    (options.preview ? await simulateTransactions(chain.rpc, queries(), skipValidate) : undefined);
  let estimates: FeeEstimate[] = [];
  if (simulation && 'simulated' in simulation) {
    estimates = estimate ? simulation.simulated.map((tx) => tx.estimate) : [];
  } else if (estimate) {
    estimates = await estimateTransactions(chain.rpc, queries(), skipValidate);
  }
  return {
    ...chooseBounds(transactions, estimates, options.maxFee, options.field),
    simulation,
  };
}
