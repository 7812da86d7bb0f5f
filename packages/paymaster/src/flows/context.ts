/** What the build and execute flows work with: the node, the relayer, the policy and the memory. */
import type { ChainClock } from '../node/clock';
import type { StarknetNode } from '../node/client';
import type { Felt } from '../protocol/felt';
import type { GasToken } from '../protocol/fees';
import type { Metrics } from '../metrics';
import type { AccountLocks } from '../relayer/accountLocks';
import type { Relayer } from '../relayer/relayer';
import type { TrackingStore } from '../relayer/tracking';
import type { StateStore } from '../store/store';
import type { AccountClasses } from './accounts';
import type { RateLimiter } from './rateLimits';
import type { BuildRecords, Claims } from './buildsAndClaims';

export interface Policy {
  /**
   * Suggested maximum fee = the estimate scaled as the relayer's bounds scale it (what it keeps
   * at most), + this percent for what the build's estimate misses of the relayer's simulation.
   */
  feeMarginPercent: number;
  /** execute_before of a build without time bounds: chain time + this. */
  defaultValiditySeconds: number;
  /** The furthest execute_before accepted: chain time + this. */
  maxValiditySeconds: number;
  /** The least time an execution must have left to be submitted. */
  minValiditySeconds: number;
  /** The highest custom tip accepted, in FRI per L2 gas unit. */
  maxTip: bigint;
  /** What one sponsor key may spend per UTC day, in FRI (maximum fees reserved, then actual). */
  sponsorDailyBudgetFri: bigint;
  /** Below this STRK balance (FRI) the relayer refuses everything that would spend. */
  minRelayerBalanceFri: bigint;
  /** How long an account's turn waits for its transaction's receipt. */
  receiptTimeoutMs: number;
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
  /** Per-account turns: one execution of an account at a time, through its receipt. */
  locks: AccountLocks;
  /** Relayer transactions found never included (their receipts are no longer waited for). */
  dropped: Set<Felt>;
  /** Tracking ids, debts and sponsor budgets (SQLite). */
  state: StateStore;
  metrics: Metrics;
  rateLimits: RateLimiter;
  /** STRK's address: the relayer's fee token. */
  strk: Felt;
  policy: Policy;
  log: (line: string) => void;
}

/** Who is asking: whether the request carried a sponsor key (and which, by id), and from where. */
export interface Caller {
  sponsorKey: boolean;
  /** A digest of the sponsor key: its budget's name (never the key). */
  sponsorId?: string;
  /** The client's address, for rate limits. */
  client?: string;
}
