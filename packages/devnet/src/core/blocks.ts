import type { DecodedCall } from './calldata';
import type { EmittedEvent } from './execution';
import { Felt } from './felt';
import { StateDiff } from './state';
import type { GasUsage } from './fees';
import type { RunResult } from './runner';
import type { L1HandlerTransaction } from './messaging';
import type { Transaction } from './transactions';

export type FinalityStatus = 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1';
export type ExecutionStatus = 'SUCCEEDED' | 'REVERTED';

/** An executed transaction and everything its receipt reports. */
export interface TransactionRecord {
  hash: Felt;
  tx: Transaction | L1HandlerTransaction;
  blockNumber: number;
  index: number;
  executionStatus: ExecutionStatus;
  revertReason?: string;
  actualFee: bigint;
  gas: GasUsage;
  events: EmittedEvent[];
  /** Multicall items of an account invoke (for the explorer); empty for other types. */
  calls: DecodedCall[];
  /** The full run, with its call trace and state diff (starknet_traceTransaction). */
  run: RunResult;
}

export interface Block {
  number: number;
  /** Set when the block closes; a pre-confirmed block has none. */
  hash?: Felt;
  parentHash: Felt;
  timestamp: number;
  transactions: TransactionRecord[];
  diff: StateDiff;
  declared: { classHash: Felt; compiledClassHash: Felt }[];
  newRoot: Felt;
}
