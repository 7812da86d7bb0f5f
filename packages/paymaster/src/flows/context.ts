/** What the build and execute flows work with: the node, the relayer, the policy and the memory. */
import type { ChainClock } from '../node/clock';
import type { StarknetNode } from '../node/client';
import type { Felt } from '../protocol/felt';
import type { GasToken } from '../protocol/fees';
import type { Relayer } from '../relayer/relayer';
import type { TrackingStore } from '../relayer/tracking';
import type { AccountClasses } from './accounts';
import type { BuildRecords, Claims } from './records';

export interface Policy {
  /** Suggested maximum fee = estimate + this percent. */
  feeMarginPercent: number;
  /** Of a default-mode fee, the relayer keeps its simulated cost + this percent, and refunds the rest. */
  keepMarginPercent: number;
  /** execute_before of a build without time bounds: chain time + this. */
  defaultValiditySeconds: number;
  /** The furthest execute_before accepted: chain time + this. */
  maxValiditySeconds: number;
  /** The least time an execution must have left to be submitted. */
  minValiditySeconds: number;
}

export interface FlowContext {
  node: StarknetNode;
  chainId: Felt;
  clock: ChainClock;
  relayer: Relayer;
  /** The gas tokens of `default` mode, by address; STRK is always one (at price 1). */
  tokens: Map<Felt, GasToken>;
  accounts: AccountClasses;
  builds: BuildRecords;
  claims: Claims;
  tracking: TrackingStore;
  policy: Policy;
  log: (line: string) => void;
}

/** Who is asking: whether the request carried one of the --api-key keys. */
export interface Caller {
  sponsorKey: boolean;
}
