import { GAS_PRICES } from './constants';
import type { ResourceBounds } from './hashing';

/** Gas by resource, as receipts (execution_resources) and estimates report it. */
export interface GasUsage {
  l1Gas: bigint;
  l1DataGas: bigint;
  l2Gas: bigint;
}

/** What a transaction did, the only inputs of the resource model. */
export interface WorkDone {
  calldataLength: number;
  calls: number;
  events: number;
  signatureChecks: number;
  /** Storage slots whose value changed, nonces bumped, contracts deployed, classes declared. */
  storageWrites: number;
  nonceUpdates: number;
  deployments: number;
  declaredClasses: number;
  /** Length of a declared class's Sierra program, 0 otherwise. */
  sierraProgramLength: number;
  /** False for an L1 handler, whose fee was paid on L1: no fee transfer runs. */
  feeTransfer?: boolean;
}

/**
 * The deterministic resource model. Real Starknet measures Cairo steps and builtins; a devnet
 * without a Cairo VM charges per unit of observable work instead, so an estimate of a transaction
 * equals what it is charged when it runs on the same state (tip 0).
 */
export const GAS_MODEL = {
  l2Base: 40_000n,
  l2PerCalldataFelt: 1_000n,
  l2PerCall: 60_000n,
  l2PerEvent: 10_000n,
  l2PerSignatureCheck: 100_000n,
  l2PerStorageWrite: 25_000n,
  l2PerDeployment: 80_000n,
  l2PerSierraFelt: 100n,
  /** The fee transfer itself: two balance slots and one Transfer event. */
  l2FeeTransfer: 70_000n,
  /** Blob data: each state-diff entry is a key and a value of 32 bytes. */
  l1DataPerDiffEntry: 64n,
  l1DataFeeTransfer: 128n,
};

export function gasUsage(work: WorkDone): GasUsage {
  const m = GAS_MODEL;
  const l2Gas =
    m.l2Base +
    m.l2PerCalldataFelt * BigInt(work.calldataLength) +
    m.l2PerCall * BigInt(work.calls) +
    m.l2PerEvent * BigInt(work.events) +
    m.l2PerSignatureCheck * BigInt(work.signatureChecks) +
    m.l2PerStorageWrite * BigInt(work.storageWrites) +
    m.l2PerDeployment * BigInt(work.deployments) +
    m.l2PerSierraFelt * BigInt(work.sierraProgramLength) +
    (work.feeTransfer === false ? 0n : m.l2FeeTransfer);
  const diffEntries =
    work.storageWrites + work.nonceUpdates + work.deployments + work.declaredClasses;
  const l1DataGas =
    m.l1DataPerDiffEntry * BigInt(diffEntries) +
    (work.feeTransfer === false ? 0n : m.l1DataFeeTransfer);
  return { l1Gas: 0n, l1DataGas, l2Gas };
}

/**
 * Fee at the devnet's fixed prices, in FRI (v3 transactions) or WEI (L1 handlers, paid on L1);
 * the tip is paid per unit of L2 gas.
 */
export function feeFor(gas: GasUsage, tip = 0n, unit: 'fri' | 'wei' = 'fri'): bigint {
  return (
    gas.l1Gas * GAS_PRICES.l1Gas[unit] +
    gas.l1DataGas * GAS_PRICES.l1DataGas[unit] +
    gas.l2Gas * (GAS_PRICES.l2Gas[unit] + tip)
  );
}

/** The most a transaction can be charged: every bound at its max price, plus the tip. */
export function maxFee(bounds: ResourceBounds, tip: bigint): bigint {
  return (
    bounds.l1Gas.maxAmount * bounds.l1Gas.maxPricePerUnit +
    bounds.l1DataGas.maxAmount * bounds.l1DataGas.maxPricePerUnit +
    bounds.l2Gas.maxAmount * (bounds.l2Gas.maxPricePerUnit + tip)
  );
}

/** Bounds whose prices are below the block's, or whose amounts cannot even cover validation. */
export function boundsCoverPrices(bounds: ResourceBounds): boolean {
  return (
    bounds.l2Gas.maxPricePerUnit >= GAS_PRICES.l2Gas.fri &&
    bounds.l1DataGas.maxPricePerUnit >= GAS_PRICES.l1DataGas.fri &&
    (bounds.l1Gas.maxAmount === 0n || bounds.l1Gas.maxPricePerUnit >= GAS_PRICES.l1Gas.fri)
  );
}

/** Which resource exceeds its bound, if any. */
export function exceededBound(gas: GasUsage, bounds: ResourceBounds): string | undefined {
  if (gas.l2Gas > bounds.l2Gas.maxAmount) {
    return `Insufficient max L2Gas: max amount: ${bounds.l2Gas.maxAmount}, actual used: ${gas.l2Gas}.`;
  }
  if (gas.l1DataGas > bounds.l1DataGas.maxAmount) {
    return `Insufficient max L1DataGas: max amount: ${bounds.l1DataGas.maxAmount}, actual used: ${gas.l1DataGas}.`;
  }
  if (gas.l1Gas > bounds.l1Gas.maxAmount) {
    return `Insufficient max L1Gas: max amount: ${bounds.l1Gas.maxAmount}, actual used: ${gas.l1Gas}.`;
  }
  return undefined;
}
