/**
 * Once the signed outside execution has gone to the paymaster, a failure of any kind (no answer,
 * a 5xx or 429, a closed connection, a non-JSON answer, a JSON-RPC error of any code) cannot
 * mean that nothing happened: the paymaster has a signed execution its relayer may submit while
 * it stays valid. So the snap says it may have been submitted, names its tracking id (known
 * before sending: pedersen(account, SNIP-9 nonce), packages/paymaster's README), and keeps a
 * RECEIVED record of it that history/relayed.ts resolves later.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';
import { hash } from 'starknet';

import { addPending } from '../history/relayed';
import { toHex } from '../starknet/felt';
import { invokeRecord } from '../starknet/records';
import { stateStore, upsertTransaction } from '../state';
import type { AccountKey } from '../keys';
import type { ChainContext } from '../node/chain';
import type { TxCall } from '../starknet/transaction';

/** What was sent: the account, its network, the typed data it signed and the calls it shows. */
export type SentExecution = {
  chain: ChainContext;
  key: AccountKey;
  typedData: { message: unknown };
  calls: readonly TxCall[];
  fee: { executeBefore: bigint };
};

/** The SNIP-9 nonce of the outside execution the account signed. */
function outsideNonce(prepared: SentExecution): string {
  const message = prepared.typedData.message as Record<string, unknown>;
  return String(message.Nonce ?? message.nonce);
}

/** The paymaster's tracking id of this execution. */
export function relayedTrackingId(prepared: SentExecution): string {
  return toHex(hash.computePedersenHash(prepared.key.address, outsideNonce(prepared)));
}

/** What went wrong, in a few words a dapp can show (never the paymaster's whole answer). */
function describe(error: unknown): string {
  const code = (error as { data?: { paymasterCode?: unknown } }).data?.paymasterCode;
  if (typeof code === 'number') {
    return `it answered error ${code}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const unavailable = /is unavailable: ([^.]{1,120})\./u.exec(message)?.[1];
  if (unavailable) {
    return `it was unavailable: ${unavailable}`;
  }
  return /malformed/u.test(message) ? 'its answer could not be read' : 'its answer was lost';
}

/** Records the execution as RECEIVED and returns the error the dapp gets. */
export async function possiblySubmitted(prepared: SentExecution, error: unknown): Promise<Error> {
  const { chain, key } = prepared;
  const chainId = chain.network.chainId;
  const trackingId = relayedTrackingId(prepared);
  const executeBefore = Number(prepared.fee.executeBefore);
  await stateStore.update((state) => {
    upsertTransaction(state, invokeRecord(trackingId, key.address, prepared.calls, chainId));
    addPending(state, chainId, {
      trackingId,
      account: key.address,
      nonce: outsideNonce(prepared),
      executeBefore,
    });
  });
  return new ResourceUnavailableError(
    `The paymaster (${chain.paymaster.host}) failed after the signed execution was sent (${describe(error)}), so the transaction may have been submitted by its relayer. Its tracking id is ${trackingId}; it stays valid until ${new Date(executeBefore * 1000).toISOString()}. Check l2_getTransactionStatus with the tracking id, or the account's transactions (l2_getTransactions), before sending it again.`,
    { retryable: false, mayHaveBeenSubmitted: true, trackingId },
  );
}
