/**
 * Fee arithmetic: STRK (FRI) into a gas token at its price, the margin between estimate and
 * suggested maximum, and the relayer's resource bounds from a node's fee estimate. All integers:
 * amounts round up, so the relayer is never paid less than the STRK it spends.
 */
import type { Felt } from './felt';

/** 1 STRK in FRI. */
export const FRI_PER_STRK = 10n ** 18n;

export interface GasToken {
  address: Felt;
  decimals: number;
  /** FRI per whole token (10^decimals units): SNIP-29's price_in_strk. */
  priceInFri: bigint;
}

/** "0.5", "2500", "1e-3" is refused: a plain decimal of STRK into FRI. */
export function parseStrkPrice(text: string): bigint {
  const match = /^([0-9]+)(?:\.([0-9]{1,18}))?$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a decimal price in STRK (e.g. 2500 or 0.5)`);
  const fraction = (match[2] ?? '').padEnd(18, '0');
  const fri = BigInt(match[1]) * FRI_PER_STRK + BigInt(fraction);
  if (fri === 0n) throw new Error('a price must be above 0');
  return fri;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** An amount in FRI as the gas token's smallest units, rounded up. */
export function friToToken(fri: bigint, token: GasToken): bigint {
  return ceilDiv(fri * 10n ** BigInt(token.decimals), token.priceInFri);
}

/** The estimate plus `marginPercent` (50: 1.5x), rounded up. */
export function withMargin(amount: bigint, marginPercent: number): bigint {
  return ceilDiv(amount * BigInt(100 + marginPercent), 100n);
}

/** Starknet JSON-RPC 0.10 FEE_ESTIMATE, as bigints. */
export interface NodeFeeEstimate {
  l1Gas: bigint;
  l1GasPrice: bigint;
  l2Gas: bigint;
  l2GasPrice: bigint;
  l1DataGas: bigint;
  l1DataGasPrice: bigint;
  overallFee: bigint;
}

export function readNodeFeeEstimate(json: Record<string, string>): NodeFeeEstimate {
  return {
    l1Gas: BigInt(json.l1_gas_consumed),
    l1GasPrice: BigInt(json.l1_gas_price),
    l2Gas: BigInt(json.l2_gas_consumed),
    l2GasPrice: BigInt(json.l2_gas_price),
    l1DataGas: BigInt(json.l1_data_gas_consumed),
    l1DataGasPrice: BigInt(json.l1_data_gas_price),
    overallFee: BigInt(json.overall_fee),
  };
}

export interface ResourceBounds {
  l1Gas: { maxAmount: bigint; maxPricePerUnit: bigint };
  l2Gas: { maxAmount: bigint; maxPricePerUnit: bigint };
  l1DataGas: { maxAmount: bigint; maxPricePerUnit: bigint };
}

/** What the relayer's bounds allow above a node's estimate: amounts (its own validation, which
 * a SKIP_VALIDATE simulation leaves out, and a busier block) and unit prices (a price that moves
 * before inclusion). The price check charges the whole of it, so they always agree. */
export const BOUNDS_MARGIN = { amountPercent: 50, pricePercent: 20 };

/**
 * The relayer's bounds for a transaction the node estimated: amounts +50% and unit prices +20%.
 * The most they allow (maxFeeOf) is what the relayer is paid at least: it never signs bounds it
 * would not be paid for.
 */
export function boundsFor(estimate: NodeFeeEstimate): ResourceBounds {
  const amount = (value: bigint) => withMargin(value, BOUNDS_MARGIN.amountPercent);
  const price = (value: bigint) => withMargin(value, BOUNDS_MARGIN.pricePercent);
  return {
    l1Gas: { maxAmount: amount(estimate.l1Gas), maxPricePerUnit: price(estimate.l1GasPrice) },
    l2Gas: { maxAmount: amount(estimate.l2Gas), maxPricePerUnit: price(estimate.l2GasPrice) },
    l1DataGas: {
      maxAmount: amount(estimate.l1DataGas),
      maxPricePerUnit: price(estimate.l1DataGasPrice),
    },
  };
}

/** An amount of FRI as the bounds' margins scale it (for a build's suggested maximum). */
export const withBoundsMargin = (fri: bigint): bigint =>
  withMargin(withMargin(fri, BOUNDS_MARGIN.amountPercent), BOUNDS_MARGIN.pricePercent);

/** The most a transaction with these bounds can be charged (tip per L2 gas unit included). */
export function maxFeeOf(bounds: ResourceBounds, tip: bigint): bigint {
  return (
    bounds.l1Gas.maxAmount * bounds.l1Gas.maxPricePerUnit +
    bounds.l1DataGas.maxAmount * bounds.l1DataGas.maxPricePerUnit +
    bounds.l2Gas.maxAmount * (bounds.l2Gas.maxPricePerUnit + tip)
  );
}
