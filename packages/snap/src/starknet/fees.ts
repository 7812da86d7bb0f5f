/**
 * Fee estimates and resource bounds for v3 transactions (fees in STRK, counted in FRI): a node's
 * estimate (JSON-RPC FEE_ESTIMATE, three resources, each an amount and a price) mapped to the fee
 * estimate object, field by field as docs/interface/snap.md#fee-estimate defines it (`unit` is
 * always `wei`, the 10^-18 subunit of the fee token, so every amount here is in FRI).
 */
import { toHex } from './felt';

export type ResourceName = 'l1_gas' | 'l1_data_gas' | 'l2_gas';
export const RESOURCES: readonly ResourceName[] = ['l1_gas', 'l1_data_gas', 'l2_gas'];

export type ResourceBound = { max_amount: bigint; max_price_per_unit: bigint };
export type ResourceBounds = Record<ResourceName, ResourceBound>;

/** A node fee estimate with every number parsed. */
export type FeeEstimate = {
  l1_gas_consumed: bigint;
  l1_gas_price: bigint;
  l1_data_gas_consumed: bigint;
  l1_data_gas_price: bigint;
  l2_gas_consumed: bigint;
  l2_gas_price: bigint;
  overall_fee: bigint;
  unit: string;
};

/** Fee estimate (docs/interface/snap.md#fee-estimate): every number a base-10 string. */
export type FeeEstimateResult = {
  suggestedMaxFee: string;
  overallFee: string;
  gasConsumed: string;
  gasPrice: string;
  unit: 'wei';
};

/** Margins applied to an estimate when the snap chooses the bounds itself (50%, as starknet.js). */
export const AMOUNT_MARGIN_PERCENT = 50n;
export const PRICE_MARGIN_PERCENT = 50n;

function toBig(value: unknown, field: string): bigint {
  if (typeof value === 'bigint') {
    return value;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    return BigInt(value);
  }
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/u.test(value)) {
    return BigInt(value);
  }
  throw new Error(`The node's fee estimate has no valid ${field}`);
}

/** Parses one FEE_ESTIMATE object as the node returns it (hex quantities). */
export function parseFeeEstimate(raw: unknown): FeeEstimate {
  const value = (raw ?? {}) as Record<string, unknown>;
  return {
    l1_gas_consumed: toBig(value.l1_gas_consumed ?? 0, 'l1_gas_consumed'),
    l1_gas_price: toBig(value.l1_gas_price ?? 0, 'l1_gas_price'),
    l1_data_gas_consumed: toBig(value.l1_data_gas_consumed ?? 0, 'l1_data_gas_consumed'),
    l1_data_gas_price: toBig(value.l1_data_gas_price ?? 0, 'l1_data_gas_price'),
    l2_gas_consumed: toBig(value.l2_gas_consumed ?? 0, 'l2_gas_consumed'),
    l2_gas_price: toBig(value.l2_gas_price ?? 0, 'l2_gas_price'),
    overall_fee: toBig(value.overall_fee, 'overall_fee'),
    unit: typeof value.unit === 'string' ? value.unit : 'FRI',
  };
}

function withMargin(value: bigint, percent: bigint): bigint {
  return value + (value * percent) / 100n;
}

/** Bounds the snap signs for an estimate: consumed and price each raised by the margins. */
export function boundsFromEstimate(estimate: FeeEstimate): ResourceBounds {
  return {
    l1_gas: {
      max_amount: withMargin(estimate.l1_gas_consumed, AMOUNT_MARGIN_PERCENT),
      max_price_per_unit: withMargin(estimate.l1_gas_price, PRICE_MARGIN_PERCENT),
    },
    l1_data_gas: {
      max_amount: withMargin(estimate.l1_data_gas_consumed, AMOUNT_MARGIN_PERCENT),
      max_price_per_unit: withMargin(estimate.l1_data_gas_price, PRICE_MARGIN_PERCENT),
    },
    l2_gas: {
      max_amount: withMargin(estimate.l2_gas_consumed, AMOUNT_MARGIN_PERCENT),
      max_price_per_unit: withMargin(estimate.l2_gas_price, PRICE_MARGIN_PERCENT),
    },
  };
}

/** The most a transaction signed with these bounds can be charged (tip excluded). */
export function maxFeeOfBounds(bounds: ResourceBounds): bigint {
  return RESOURCES.reduce(
    (sum, name) => sum + bounds[name].max_amount * bounds[name].max_price_per_unit,
    0n,
  );
}

/** The most a transaction can be charged: its bounds plus the tip on every unit of L2 gas. */
export function maxChargeOf(bounds: ResourceBounds, tip: bigint): bigint {
  return maxFeeOfBounds(bounds) + tip * bounds.l2_gas.max_amount;
}

/** The least maxFee that can pay for an estimate, with `tip` on every unit of L2 gas. */
export function minimumCharge(estimate: FeeEstimate, tip = 0n): bigint {
  return estimate.overall_fee + tip * estimate.l2_gas_consumed;
}

/**
 * Bounds that respect a caller's `maxFee` (docs/interface/snap.md#transaction-details): the
 * estimated prices, the L1 amounts as estimated, and as much L2 gas as the rest of maxFee pays for,
 * the tip included (maxChargeOf(bounds, tip) <= maxFee). Fails when maxFee cannot even pay for the
 * estimate.
 */
export function boundsWithinMaxFee(
  estimate: FeeEstimate,
  maxFee: bigint,
  tip = 0n,
): ResourceBounds {
  const margined = boundsFromEstimate(estimate);
  if (maxChargeOf(margined, tip) <= maxFee) {
    return margined;
  }
  const minimum = minimumCharge(estimate, tip);
  if (maxFee < minimum) {
    throw new MaxFeeTooLowError(maxFee, minimum);
  }
  const l1Cost =
    estimate.l1_gas_consumed * estimate.l1_gas_price +
    estimate.l1_data_gas_consumed * estimate.l1_data_gas_price;
  const perL2Unit = estimate.l2_gas_price + tip;
  const l2Amount = perL2Unit === 0n ? estimate.l2_gas_consumed : (maxFee - l1Cost) / perL2Unit;
  return {
    l1_gas: { max_amount: estimate.l1_gas_consumed, max_price_per_unit: estimate.l1_gas_price },
    l1_data_gas: {
      max_amount: estimate.l1_data_gas_consumed,
      max_price_per_unit: estimate.l1_data_gas_price,
    },
    l2_gas: { max_amount: l2Amount, max_price_per_unit: estimate.l2_gas_price },
  };
}

/** One transaction of a request, as fitted under a maxFee: its estimate and its tip. */
export type FeeItem = { estimate: FeeEstimate; tip: bigint };

/**
 * Bounds for transactions sent one after another (an account deployment, then the invoke) whose
 * summed maximum charge stays within maxFee: each with the margins when they all fit, else maxFee
 * shared in proportion to their estimates and each fitted with boundsWithinMaxFee (the last gets
 * what the others leave). Fails only when maxFee cannot pay for the estimates.
 */
export function fitWithinMaxFee(items: readonly FeeItem[], maxFee: bigint): ResourceBounds[] {
  const margined = items.map(({ estimate }) => boundsFromEstimate(estimate));
  const marginedCharge = margined.reduce(
    (sum, bounds, index) => sum + maxChargeOf(bounds, items[index].tip),
    0n,
  );
  if (marginedCharge <= maxFee) {
    return margined;
  }
  const minimums = items.map(({ estimate, tip }) => minimumCharge(estimate, tip));
  const total = minimums.reduce((sum, minimum) => sum + minimum, 0n);
  if (maxFee < total) {
    throw new MaxFeeTooLowError(maxFee, total);
  }
  const fitted: ResourceBounds[] = [];
  let spent = 0n;
  items.forEach(({ estimate, tip }, index) => {
    const last = index === items.length - 1;
    const share = last ? maxFee - spent : total === 0n ? 0n : (maxFee * minimums[index]) / total;
    const bounds = boundsWithinMaxFee(estimate, share, tip);
    spent += maxChargeOf(bounds, tip);
    fitted.push(bounds);
  });
  return fitted;
}

/** fitWithinMaxFee of an account deployment (no tip) and an invoke (with `tip`). */
export function deployAndInvokeWithinMaxFee(
  deployEstimate: FeeEstimate,
  invokeEstimate: FeeEstimate,
  maxFee: bigint,
  tip = 0n,
): { deployBounds: ResourceBounds; invokeBounds: ResourceBounds } {
  const [deployBounds, invokeBounds] = fitWithinMaxFee(
    [
      { estimate: deployEstimate, tip: 0n },
      { estimate: invokeEstimate, tip },
    ],
    maxFee,
  );
  return { deployBounds, invokeBounds };
}

export class MaxFeeTooLowError extends Error {
  readonly maxFee: bigint;

  readonly estimatedFee: bigint;

  constructor(maxFee: bigint, estimatedFee: bigint) {
    super(
      `details.maxFee ${maxFee.toString()} is below the estimated fee ${estimatedFee.toString()} (FRI)`,
    );
    this.name = 'MaxFeeTooLowError';
    this.maxFee = maxFee;
    this.estimatedFee = estimatedFee;
  }
}

/** Adds estimates of transactions sent one after another (deploy, then invoke). */
export function sumEstimates(estimates: readonly FeeEstimate[]): FeeEstimate {
  const zero: FeeEstimate = {
    l1_gas_consumed: 0n,
    l1_gas_price: 0n,
    l1_data_gas_consumed: 0n,
    l1_data_gas_price: 0n,
    l2_gas_consumed: 0n,
    l2_gas_price: 0n,
    overall_fee: 0n,
    unit: 'FRI',
  };
  return estimates.reduce(
    (sum, item) => ({
      l1_gas_consumed: sum.l1_gas_consumed + item.l1_gas_consumed,
      l1_gas_price: item.l1_gas_price > sum.l1_gas_price ? item.l1_gas_price : sum.l1_gas_price,
      l1_data_gas_consumed: sum.l1_data_gas_consumed + item.l1_data_gas_consumed,
      l1_data_gas_price:
        item.l1_data_gas_price > sum.l1_data_gas_price
          ? item.l1_data_gas_price
          : sum.l1_data_gas_price,
      l2_gas_consumed: sum.l2_gas_consumed + item.l2_gas_consumed,
      l2_gas_price: item.l2_gas_price > sum.l2_gas_price ? item.l2_gas_price : sum.l2_gas_price,
      overall_fee: sum.overall_fee + item.overall_fee,
      unit: item.unit,
    }),
    zero,
  );
}

/**
 * Fee estimate object (docs/interface/snap.md#fee-estimate) of one or more estimates.
 * `suggestedMaxFee` is the sum of the bounds each transaction will be signed with.
 */
export function toFeeEstimateResult(
  estimates: readonly FeeEstimate[],
  boundsList: readonly ResourceBounds[] = estimates.map(boundsFromEstimate),
): FeeEstimateResult {
  const total = sumEstimates(estimates);
  const gasConsumed = total.l1_gas_consumed + total.l1_data_gas_consumed + total.l2_gas_consumed;
  const gasPrice = gasConsumed === 0n ? 0n : total.overall_fee / gasConsumed;
  const suggestedMaxFee = boundsList.reduce((sum, bounds) => sum + maxFeeOfBounds(bounds), 0n);
  return {
    suggestedMaxFee: suggestedMaxFee.toString(10),
    overallFee: total.overall_fee.toString(10),
    gasConsumed: gasConsumed.toString(10),
    gasPrice: gasPrice.toString(10),
    unit: 'wei',
  };
}

/** Resource bounds as the JSON-RPC wants them (hex quantities). */
export function boundsToRpc(
  bounds: ResourceBounds,
): Record<ResourceName, { max_amount: string; max_price_per_unit: string }> {
  return {
    l1_gas: {
      max_amount: toHex(bounds.l1_gas.max_amount),
      max_price_per_unit: toHex(bounds.l1_gas.max_price_per_unit),
    },
    l1_data_gas: {
      max_amount: toHex(bounds.l1_data_gas.max_amount),
      max_price_per_unit: toHex(bounds.l1_data_gas.max_price_per_unit),
    },
    l2_gas: {
      max_amount: toHex(bounds.l2_gas.max_amount),
      max_price_per_unit: toHex(bounds.l2_gas.max_price_per_unit),
    },
  };
}

export const ZERO_BOUNDS: ResourceBounds = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 0n },
  l1_data_gas: { max_amount: 0n, max_price_per_unit: 0n },
  l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
};
