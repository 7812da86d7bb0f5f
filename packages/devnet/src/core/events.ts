import type { Block, TransactionRecord } from './blocks';
import type { Felt } from './felt';
import type { Transaction } from './transactions';

/**
 * What the chain tells its listeners, as it happens (the WebSocket API's source): a submission
 * queued as RECEIVED, a transaction executed into the pre-confirmed block, a block closed (its
 * transactions ACCEPTED_ON_L2), blocks accepted on L1 by devnet_acceptOnL1 (oldest first), and
 * blocks aborted by devnet_abortBlocks (a reorg).
 */
export type ChainEvent =
  | { kind: 'received'; hash: Felt; tx: Transaction }
  | { kind: 'preconfirmed'; record: TransactionRecord }
  | { kind: 'accepted'; block: Block }
  | { kind: 'l1accepted'; blocks: Block[] }
  | { kind: 'reorg'; aborted: Block[] };

export type ChainListener = (event: ChainEvent) => void;

/** Listeners of one chain, told in the order they were added. */
export class ChainEvents {
  private readonly listeners = new Set<ChainListener>();

  /** Adds a listener; returns what removes it. */
  on(listener: ChainListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ChainEvent): void {
    // No copy: this runs twice per transaction. A Set visits a listener added meanwhile too.
    for (const listener of this.listeners) listener(event);
  }
}
