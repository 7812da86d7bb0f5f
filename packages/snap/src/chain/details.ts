/**
 * TxDetails (SPEC 2.2) as the chain methods take it: every member optional. What the snap does
 * with each member:
 * - nonce: used as given (else the account's next nonce);
 * - resourceBounds: signed as given, and no estimate is needed;
 * - maxFee: an upper bound on the fee; the signed bounds never allow more (error when the
 *   estimate is already above it);
 * - tip, paymasterData, accountDeploymentData, nonce/fee data-availability modes: enter the
 *   transaction as given;
 * - skipValidate: whether the estimate skips the account's __validate__ (default true); with
 *   false the estimate is signed and includes validation;
 * - version: only v3 ('0x3') exists here; blockIdentifier is accepted and not used (estimates
 *   run against pre_confirmed).
 */
import { array, boolean, optional, refine, type, unknown, type Infer } from 'superstruct';

import { FeltStruct, UintStruct } from '../rpc/structs';
import { DaModeStruct, ResourceBoundsStruct, VersionStruct } from '../transactions/details';
import type { ResourceBounds } from './fees';

export const ChainTxDetailsStruct = type({
  nonce: optional(UintStruct),
  maxFee: optional(UintStruct),
  resourceBounds: optional(ResourceBoundsStruct),
  // The tip is a u64 in the v3 transaction.
  tip: optional(
    refine(UintStruct, 'u64', (value) =>
      value < 2n ** 64n ? true : 'expected a tip that fits in a u64 (below 2^64)',
    ),
  ),
  paymasterData: optional(array(FeltStruct)),
  accountDeploymentData: optional(array(FeltStruct)),
  nonceDataAvailabilityMode: optional(DaModeStruct),
  feeDataAvailabilityMode: optional(DaModeStruct),
  version: optional(VersionStruct),
  skipValidate: optional(boolean()),
  blockIdentifier: optional(unknown()),
});

export type ChainTxDetails = Infer<typeof ChainTxDetailsStruct>;

export function givenBounds(details: ChainTxDetails | undefined): ResourceBounds | undefined {
  const bounds = details?.resourceBounds;
  if (!bounds) {
    return undefined;
  }
  return {
    l1_gas: bounds.l1_gas,
    l1_data_gas: bounds.l1_data_gas,
    l2_gas: bounds.l2_gas,
  };
}
