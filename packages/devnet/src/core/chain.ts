import { Block, FinalityStatus, TransactionRecord } from './blocks';
import { SEQUENCER_ADDRESS } from './constants';
import { rpcErrors, UnsupportedActionError } from './errors';
import type { BlockInfo } from './execution';
import { Felt } from './felt';
import { poseidonHash, poseidonMany } from './hashing';
import { emptyDiff, mergeDiff, StateDiff, StateReader, VersionedState } from './state';

export type BlockId =
  'latest' | 'pre_confirmed' | 'l1_accepted' | { block_number: number } | { block_hash: Felt };

const SEQUENCER = BigInt(SEQUENCER_ADDRESS);

function openBlock(number: number, parentHash: Felt, timestamp: number): Block {
  return {
    number,
    parentHash,
    timestamp,
    transactions: [],
    diff: emptyDiff(),
    declared: [],
    newRoot: 0n,
  };
}

/**
 * The chain as stored: closed blocks, the pre-confirmed block being filled, the state of every
 * block, and every executed transaction by hash.
 */
export class Chain {
  readonly state = new VersionedState();
  readonly blocks: Block[] = [];
  pending: Block;
  /** The latest block accepted on L1 (devnet_acceptOnL1), with all before it; none at first. */
  l1AcceptedNumber: number | undefined;
  private readonly blockNumbersByHash = new Map<Felt, number>();
  private readonly transactions = new Map<Felt, TransactionRecord>();

  constructor(
    readonly chainId: Felt,
    genesisTimestamp: number,
  ) {
    this.pending = openBlock(0, 0n, genesisTimestamp);
  }

  blockInfo(block: Block): BlockInfo {
    return {
      blockNumber: block.number,
      timestamp: block.timestamp,
      sequencerAddress: SEQUENCER,
      chainId: this.chainId,
    };
  }

  /** The state the pre-confirmed block has reached. */
  pendingState(): StateReader {
    return this.state.at(this.pending.number);
  }

  /** Writes a diff into the pre-confirmed block (and the state history). */
  commitDiff(diff: StateDiff): void {
    this.state.apply(diff, this.pending.number);
    mergeDiff(this.pending.diff, diff);
  }

  /** Adds an executed transaction to the pre-confirmed block. */
  include(record: TransactionRecord): void {
    this.pending.transactions.push(record);
    this.transactions.set(record.hash, record);
  }

  /**
   * Closes the pre-confirmed block at `timestamp` (even when empty) and opens the next one at
   * `nextTimestamp`.
   */
  seal(timestamp: number, nextTimestamp: number): Block {
    const block = this.pending;
    block.timestamp = timestamp;
    // Deterministic commitments, not the protocol's block hash or Patricia root (no tries here):
    // the "root" chains the parent hash with the block's transactions, the hash adds number and
    // timestamp (64 bits each in one felt). Two permutations: closing a block is on the
    // per-transaction hot path in the default mode.
    const hashes = block.transactions.map((t) => t.hash);
    const txCommitment = hashes.length === 1 ? hashes[0] : poseidonMany(hashes);
    block.newRoot = poseidonHash(block.parentHash, txCommitment);
    block.hash = poseidonHash(
      block.newRoot,
      (BigInt(block.timestamp) << 64n) + BigInt(block.number),
    );
    this.blocks.push(block);
    this.blockNumbersByHash.set(block.hash, block.number);
    this.pending = openBlock(block.number + 1, block.hash, nextTimestamp);
    return block;
  }

  latestBlock(): Block {
    return this.blocks[this.blocks.length - 1];
  }

  /**
   * Removes the closed blocks from `from` on, with the pre-confirmed block: their transactions
   * are gone and the state is that of block `from - 1`, whose child is the new pre-confirmed
   * block. Returns the removed closed blocks, oldest first.
   */
  truncate(from: number): Block[] {
    const removed = this.blocks.splice(from);
    for (const block of [...removed, this.pending]) {
      if (block.hash !== undefined) this.blockNumbersByHash.delete(block.hash);
      for (const record of block.transactions) this.transactions.delete(record.hash);
    }
    this.state.truncate(from);
    const parent = this.latestBlock();
    this.pending = openBlock(
      from,
      parent.hash ?? 0n,
      Math.max(this.pending.timestamp, parent.timestamp),
    );
    return removed;
  }

  /** A closed block by id, or the pre-confirmed block; throws 24 when there is none. */
  block(id: BlockId): Block {
    if (id === 'pre_confirmed') return this.pending;
    if (id === 'latest') return this.latestBlock();
    if (id === 'l1_accepted') {
      if (this.l1AcceptedNumber === undefined) throw rpcErrors.blockNotFound();
      return this.blocks[this.l1AcceptedNumber];
    }
    if ('block_number' in id) {
      const block = this.blocks[id.block_number];
      if (!block) throw rpcErrors.blockNotFound();
      return block;
    }
    const number = this.blockNumbersByHash.get(id.block_hash);
    if (number === undefined) throw rpcErrors.blockNotFound();
    return this.blocks[number];
  }

  hasTransaction(hash: Felt): boolean {
    return this.transactions.has(hash);
  }

  getTransaction(hash: Felt): TransactionRecord {
    const record = this.transactions.get(hash);
    if (!record) throw rpcErrors.txnHashNotFound();
    return record;
  }

  isAccepted(record: TransactionRecord): boolean {
    return record.blockNumber < this.pending.number;
  }

  /** A block's status: PRE_CONFIRMED, ACCEPTED_ON_L2, or ACCEPTED_ON_L1 once accepted there. */
  blockStatus(number: number): FinalityStatus {
    if (number >= this.pending.number) return 'PRE_CONFIRMED';
    return this.l1AcceptedNumber !== undefined && number <= this.l1AcceptedNumber
      ? 'ACCEPTED_ON_L1'
      : 'ACCEPTED_ON_L2';
  }

  /**
   * devnet_acceptOnL1 (as starknet-devnet): the block and every block before it not yet on L1
   * become ACCEPTED_ON_L1; returns their hashes, from that block down. The pre-confirmed block
   * and a block already on L1 are refused.
   */
  acceptOnL1(id: BlockId): Felt[] {
    const block = this.block(id);
    if (block.hash === undefined)
      throw new UnsupportedActionError('Pre-confirmed block cannot be accepted on L1');
    const from = this.l1AcceptedNumber ?? -1;
    if (block.number <= from) throw new UnsupportedActionError('Block already accepted on L1');
    const accepted: Felt[] = [];
    for (let n = block.number; n > from; n -= 1) accepted.push(this.blocks[n].hash as Felt);
    this.l1AcceptedNumber = block.number;
    return accepted;
  }

  blockOf(record: TransactionRecord): Block {
    return this.isAccepted(record) ? this.blocks[record.blockNumber] : this.pending;
  }

  /** Every transaction, oldest first. */
  allTransactions(): IterableIterator<TransactionRecord> {
    return this.transactions.values();
  }
}
