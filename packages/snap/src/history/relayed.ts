/**
 * Relayed executions that may have been submitted: sent to the paymaster, whose answer was lost or
 * an error. Their record (status RECEIVED, txnHash the tracking id) is resolved later, when the
 * account's history or a status is asked: the paymaster's paymaster_trackingIdToLatestHash names
 * the relayer's transaction (the record takes its hash, and the node its status from then on) or
 * says it was dropped. For an id the paymaster does not know (another paymaster's ids, AVNU's,
 * are its own), the account says: a SNIP-9 nonce it has used means the execution ran
 * (ACCEPTED_ON_L2, its hash unknown); one still unused once the execution can no longer run
 * (its execute_before has passed) means it never will (REJECTED).
 */
import { CONTRACT_NOT_FOUND, getChain, viewCall } from '../node/chain';
import {
  type PendingRelayed,
  type SnapState,
  stateStore,
  transactionsOf,
  updateTransaction,
} from '../state';

const same = (a: string, b: string): boolean => BigInt(a) === BigInt(b);

/** The grace after execute_before before an unknown id counts as never submitted (clock skew). */
const EXPIRY_GRACE_SECONDS = 120;

export function pendingOf(state: SnapState, chainId: string): PendingRelayed[] {
  return state.relayedPending?.[chainId] ?? [];
}

/** Keeps `pending` until resolve() settles it. */
export function addPending(state: SnapState, chainId: string, pending: PendingRelayed): void {
  const list = pendingOf(state, chainId).filter((p) => !same(p.trackingId, pending.trackingId));
  state.relayedPending = { ...state.relayedPending, [chainId]: [...list, pending] };
}

/** Settled entries are kept this long after they expire, so a tracking id still answers. */
const KEEP_SETTLED_SECONDS = 30 * 86_400;

/** Marks the entry settled with its final hash (if any), and forgets long-settled ones. */
function settle(state: SnapState, chainId: string, trackingId: string, hash?: string): void {
  const now = Date.now() / 1000;
  const list = pendingOf(state, chainId)
    .map((p) =>
      same(p.trackingId, trackingId) ? { ...p, settled: true, transactionHash: hash } : p,
    )
    .filter((p) => !p.settled || p.executeBefore + KEEP_SETTLED_SECONDS > now);
  state.relayedPending = { ...state.relayedPending, [chainId]: list };
}

type Outcome =
  | { kind: 'hash'; transactionHash: string; final: boolean }
  | { kind: 'ran'; transactionHash?: undefined }
  | { kind: 'dropped'; transactionHash?: string; why: string }
  | { kind: 'unknown' };

/** Whether the account used the execution's SNIP-9 nonce; undefined when it cannot tell. */
async function nonceUsed(chainId: string, pending: PendingRelayed): Promise<boolean | undefined> {
  if (pending.nonce === undefined) {
    return undefined;
  }
  const [answer] = await getChain(chainId)
    .rpc.batch<string[]>([
      viewCall(pending.account, 'is_valid_outside_execution_nonce', [pending.nonce]),
    ])
    .catch(() => [undefined]);
  if (!answer) {
    return undefined;
  }
  if (!answer.ok) {
    // Not deployed: a deploy_and_invoke that never ran.
    return answer.error.code === CONTRACT_NOT_FOUND ? false : undefined;
  }
  const [valid] = answer.result;
  return valid === undefined ? undefined : BigInt(valid) === 0n;
}

async function ask(chainId: string, pending: PendingRelayed): Promise<Outcome> {
  const { paymaster } = getChain(chainId);
  let answer;
  try {
    answer = await paymaster.trackingIdToLatestHash(pending.trackingId);
  } catch {
    // Not reachable now: asked again next time.
    return { kind: 'unknown' };
  }
  if (!answer) {
    const used = await nonceUsed(chainId, pending);
    if (used) {
      return { kind: 'ran' };
    }
    const expired = Date.now() / 1000 > pending.executeBefore + EXPIRY_GRACE_SECONDS;
    return expired && used === false
      ? {
          kind: 'dropped',
          why: `the paymaster (${paymaster.host}) never submitted it, and it expired unsent`,
        }
      : { kind: 'unknown' };
  }
  if (answer.status === 'dropped') {
    return {
      kind: 'dropped',
      transactionHash: answer.transactionHash,
      why: `the paymaster (${paymaster.host}) dropped it: it was never included`,
    };
  }
  return {
    kind: 'hash',
    transactionHash: answer.transactionHash,
    final: answer.status === 'accepted',
  };
}

/**
 * Resolves the pending executions `which` selects, on `chainId`: each record keyed by a tracking
 * id takes the relayer's transaction hash once the paymaster names it. Returns tracking id ->
 * hash for those resolved. A paymaster that does not answer leaves them as they are.
 */
export async function resolvePending(
  chainId: string,
  which: (pending: PendingRelayed) => boolean,
): Promise<Map<string, string>> {
  const selected = pendingOf(await stateStore.read(), chainId).filter(which);
  const resolved = new Map<string, string>();
  for (const pending of selected) {
    if (pending.settled && pending.transactionHash) {
      resolved.set(BigInt(pending.trackingId).toString(16), pending.transactionHash);
    }
  }
  const chosen = selected.filter((pending) => !pending.settled);
  if (chosen.length === 0) {
    return resolved;
  }
  const outcomes = await Promise.all(chosen.map(async (p) => [p, await ask(chainId, p)] as const));
  await stateStore.update((state) => {
    for (const [pending, outcome] of outcomes) {
      if (outcome.kind === 'unknown') {
        continue;
      }
      const record = transactionsOf(state, chainId).find(
        (known) =>
          same(known.txnHash, pending.trackingId) ||
          same(known.txnHash, outcome.transactionHash ?? '0x0'),
      );
      const hash = outcome.transactionHash;
      if (record && hash !== undefined && !same(record.txnHash, hash)) {
        // Another record may already hold the hash (the node's history found it first).
        const list = transactionsOf(state, chainId).filter(
          (known) => known === record || !same(known.txnHash, hash),
        );
        state.transactions[chainId] = list;
        record.txnHash = hash;
      }
      if (outcome.kind === 'ran' && record) {
        updateTransaction(state, chainId, record.txnHash, {
          status: 'ACCEPTED_ON_L2',
          failureReason: null,
        });
      }
      if (outcome.kind === 'dropped' && record) {
        updateTransaction(state, chainId, record.txnHash, {
          status: 'REJECTED',
          failureReason: outcome.why,
        });
      }
      if (hash !== undefined) {
        resolved.set(BigInt(pending.trackingId).toString(16), hash);
      }
      if (
        outcome.kind === 'dropped' ||
        outcome.kind === 'ran' ||
        (outcome.kind === 'hash' && outcome.final)
      ) {
        settle(state, chainId, pending.trackingId, hash);
      }
    }
  });
  return resolved;
}
