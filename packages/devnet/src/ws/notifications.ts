/**
 * What the chain's events (core/events.ts) become on the WebSocket API: the spec's notification
 * methods with their results, each result serialised once however many subscriptions get it.
 * The order within a closed block follows starknet-devnet: the header, then per transaction the
 * transaction, its status and its receipt, then the block's events.
 */
import type { Block, TransactionRecord } from '../core/blocks';
import type { ChainEvent, Devnet } from '../core/devnet';
import type { EmittedEvent } from '../core/execution';
import { Felt, toHex } from '../core/felt';
import { type L1HandlerTransaction, l1HandlerToJson } from '../core/messaging';
import { Transaction, transactionToJson } from '../core/transactions';
import { emittedEventJson, keysMatch } from '../rpc/events';
import { blockHeader, receiptJson, statusJson, transactionJson } from '../rpc/serialize';
import type { FinalityStatus, Subscription } from './subscriptions';

type ChainTransaction = Transaction | L1HandlerTransaction;

function chainTransactionJson(tx: ChainTransaction): Record<string, unknown> {
  return tx.type === 'L1_HANDLER' ? l1HandlerToJson(tx) : transactionToJson(tx);
}

export interface Note {
  method: string;
  /** The notification's `result`, as JSON text (made on first use, then shared). */
  result: () => string;
  matches: (subscription: Subscription) => boolean;
}

function once(make: () => unknown): () => string {
  let text: string | undefined;
  return () => (text ??= JSON.stringify(make()));
}

/** A closed block's header as BLOCK_HEADER (no `status`: that belongs to the block reads). */
export function headerNote(devnet: Devnet, block: Block): Note {
  return {
    method: 'starknet_subscriptionNewHeads',
    result: once(() => {
      const header = blockHeader(devnet, block);
      delete header.status;
      return header;
    }),
    matches: (s) => s.kind === 'newHeads',
  };
}

/** An L1 handler transaction has no sender: a sender filter never passes it. */
function senderPasses(senders: Set<Felt> | undefined, tx: ChainTransaction): boolean {
  return !senders || ('senderAddress' in tx && senders.has(tx.senderAddress));
}

/** A transaction's status, to the subscriptions that follow its hash. */
function statusNote(
  devnet: Devnet,
  hash: Felt,
  status: FinalityStatus,
  record?: TransactionRecord,
): Note {
  return {
    method: 'starknet_subscriptionTransactionStatus',
    result: once(() => ({
      transaction_hash: toHex(hash),
      status: record ? statusJson(devnet, record) : { finality_status: status },
    })),
    matches: (s) => s.kind === 'transactionStatus' && s.hash === hash,
  };
}

function transactionNotes(
  devnet: Devnet,
  hash: Felt,
  tx: ChainTransaction,
  status: FinalityStatus,
  record?: TransactionRecord,
): Note[] {
  const notes: Note[] = [
    {
      method: 'starknet_subscriptionNewTransaction',
      result: once(() => ({
        ...(record
          ? transactionJson(record)
          : { transaction_hash: toHex(hash), ...chainTransactionJson(tx) }),
        finality_status: status,
      })),
      matches: (s) =>
        s.kind === 'newTransactions' && s.statuses.has(status) && senderPasses(s.senders, tx),
    },
    statusNote(devnet, hash, status, record),
  ];
  if (record) {
    notes.push({
      method: 'starknet_subscriptionNewTransactionReceipts',
      result: once(() => receiptJson(devnet, record)),
      matches: (s) =>
        s.kind === 'newTransactionReceipts' &&
        s.statuses.has(status) &&
        senderPasses(s.senders, tx),
    });
  }
  return notes;
}

export function eventMatches(s: Subscription, event: EmittedEvent): boolean {
  if (s.kind !== 'events') return false;
  if (s.address && !s.address.includes(event.fromAddress)) return false;
  return keysMatch(event.keys, s.keys);
}

/** EMITTED_EVENT with its finality status; a pre-confirmed block has no hash yet. */
export function eventResult(
  block: Block,
  record: TransactionRecord,
  index: number,
  status: 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2',
): Record<string, unknown> {
  return { ...emittedEventJson(block, record, index), finality_status: status };
}

function eventNotes(block: Block, record: TransactionRecord, accepted: boolean): Note[] {
  const status = accepted ? 'ACCEPTED_ON_L2' : 'PRE_CONFIRMED';
  return record.events.map((event, index) => ({
    method: 'starknet_subscriptionEvents',
    result: once(() => eventResult(block, record, index, status)),
    // PRE_CONFIRMED subscribers get an event twice (pre-confirmed, then accepted), as the spec
    // says; ACCEPTED_ON_L2 subscribers once, when its block closes.
    matches: (s) => eventMatches(s, event) && (accepted || (s.kind === 'events' && s.preConfirmed)),
  }));
}

/** The notes one chain event makes. */
export function notesFor(devnet: Devnet, event: ChainEvent): Note[] {
  switch (event.kind) {
    case 'received':
      return transactionNotes(devnet, event.hash, event.tx, 'RECEIVED');
    case 'preconfirmed': {
      const { record } = event;
      return [
        ...transactionNotes(devnet, record.hash, record.tx, 'PRE_CONFIRMED', record),
        ...eventNotes(devnet.pending, record, false),
      ];
    }
    case 'accepted': {
      const { block } = event;
      const notes = [headerNote(devnet, block)];
      for (const record of block.transactions)
        notes.push(...transactionNotes(devnet, record.hash, record.tx, 'ACCEPTED_ON_L2', record));
      for (const record of block.transactions) notes.push(...eventNotes(block, record, true));
      return notes;
    }
    case 'l1accepted':
      // Only a transaction's status goes on to ACCEPTED_ON_L1; the other subscriptions' filters
      // stop at ACCEPTED_ON_L2.
      return event.blocks.flatMap((block) =>
        block.transactions.map((record) =>
          statusNote(devnet, record.hash, 'ACCEPTED_ON_L2', record),
        ),
      );
    case 'reorg': {
      const first = event.aborted[0];
      const last = event.aborted[event.aborted.length - 1];
      const result = once(() => ({
        starting_block_hash: toHex(first.hash ?? 0n),
        starting_block_number: first.number,
        ending_block_hash: toHex(last.hash ?? 0n),
        ending_block_number: last.number,
      }));
      // Every subscription hears of a reorg, whatever it follows (as starknet-devnet does).
      return [{ method: 'starknet_subscriptionReorg', result, matches: () => true }];
    }
  }
}

/**
 * What a new subscription gets at once: the headers or events from its starting block (to the
 * pre-confirmed block for PRE_CONFIRMED events), or a known transaction's current status.
 */
export function catchUp(devnet: Devnet, s: Subscription): Note[] {
  const notes: Note[] = [];
  if (s.kind === 'newHeads' && s.from !== undefined) {
    for (let n = s.from; n < devnet.blocks.length; n += 1)
      notes.push(headerNote(devnet, devnet.blocks[n]));
  } else if (s.kind === 'events') {
    const last = s.preConfirmed ? devnet.pending.number : devnet.latestBlock().number;
    for (let n = s.from; n <= last; n += 1) {
      const block = n === devnet.pending.number ? devnet.pending : devnet.blocks[n];
      for (const record of block.transactions) {
        for (const note of eventNotes(block, record, block.hash !== undefined)) {
          if (note.matches(s)) notes.push(note);
        }
      }
    }
  } else if (s.kind === 'transactionStatus') {
    const queued = devnet.queuedTransaction(s.hash);
    if (queued)
      return transactionNotes(devnet, s.hash, queued, 'RECEIVED').filter((n) => n.matches(s));
    let record: TransactionRecord;
    try {
      record = devnet.getTransaction(s.hash);
    } catch {
      return notes; // not known yet: its first status comes when it is
    }
    const status = devnet.isAccepted(record) ? 'ACCEPTED_ON_L2' : 'PRE_CONFIRMED';
    return transactionNotes(devnet, s.hash, record.tx, status, record).filter((n) => n.matches(s));
  }
  return notes;
}
