/**
 * Transaction record status (docs/interface/snap.md#transaction-statuses): RECEIVED -> PENDING ->
 * ACCEPTED_ON_L2, or REJECTED.
 *
 * Mapping of the node's answer (starknet_getTransactionStatus, JSON-RPC 0.10):
 * - execution_status REVERTED, or finality REJECTED -> REJECTED, keeping the failure reason;
 * - RECEIVED or CANDIDATE -> RECEIVED (the sequencer has it, not yet in a block);
 * - PRE_CONFIRMED -> PENDING (executed in the block being built);
 * - ACCEPTED_ON_L2 or ACCEPTED_ON_L1 -> ACCEPTED_ON_L2.
 * A status never moves backwards: a stale answer cannot turn ACCEPTED_ON_L2 back into PENDING.
 */
export type RecordStatus = 'RECEIVED' | 'PENDING' | 'ACCEPTED_ON_L2' | 'REJECTED';

export type NodeTransactionStatus = {
  finality_status?: string;
  execution_status?: string;
  failure_reason?: string;
};

export type MappedStatus = { status: RecordStatus; failureReason: string | null };

export function mapNodeStatus(node: NodeTransactionStatus): MappedStatus {
  const finality = (node.finality_status ?? '').toUpperCase();
  const execution = (node.execution_status ?? '').toUpperCase();
  if (execution === 'REVERTED' || finality === 'REJECTED') {
    return {
      status: 'REJECTED',
      failureReason:
        node.failure_reason ??
        (execution === 'REVERTED' ? 'Transaction reverted' : 'Transaction rejected'),
    };
  }
  switch (finality) {
    case 'ACCEPTED_ON_L2':
    case 'ACCEPTED_ON_L1':
      return { status: 'ACCEPTED_ON_L2', failureReason: null };
    case 'PRE_CONFIRMED':
      return { status: 'PENDING', failureReason: null };
    default:
      return { status: 'RECEIVED', failureReason: null };
  }
}

const RANK: Record<RecordStatus, number> = {
  RECEIVED: 0,
  PENDING: 1,
  ACCEPTED_ON_L2: 2,
  REJECTED: 2,
};

const FINAL: readonly string[] = ['ACCEPTED_ON_L2', 'REJECTED'];

/**
 * The status to store: the newer of the stored one and the node's, never a step back. A final
 * status (ACCEPTED_ON_L2 or REJECTED) is sticky: neither replaces the other.
 */
export function advanceStatus(stored: string | undefined, next: RecordStatus): RecordStatus {
  if (stored === undefined || !(stored in RANK)) {
    return next;
  }
  const current = stored as RecordStatus;
  if (FINAL.includes(current)) {
    return current;
  }
  return RANK[next] >= RANK[current] ? next : current;
}

/**
 * Merges a newer answer (node or explorer) into a stored status: advanceStatus, and a
 * failureReason only for REJECTED (the newer non-null reason, else the stored one).
 */
export function mergeStatus(
  stored: { status?: string; failureReason?: string | null } | undefined,
  next: { status: RecordStatus; failureReason?: string | null },
): { status: RecordStatus; failureReason: string | null } {
  const status = advanceStatus(stored?.status, next.status);
  if (status !== 'REJECTED') {
    return { status, failureReason: null };
  }
  const fromNext = next.status === 'REJECTED' ? (next.failureReason ?? null) : null;
  const fromStored = stored?.status === 'REJECTED' ? (stored.failureReason ?? null) : null;
  return { status, failureReason: fromNext ?? fromStored };
}
