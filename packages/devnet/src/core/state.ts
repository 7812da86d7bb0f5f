import { Felt } from './felt';

/** Read access to contract state at one point in the chain's history. */
export interface StateReader {
  storageAt(address: Felt, key: Felt): Felt;
  nonceOf(address: Felt): Felt;
  /** The class hash deployed at the address, or 0n when nothing is deployed there. */
  classHashAt(address: Felt): Felt;
}

/** The changes one transaction (or one block) makes, in the shape a state update reports. */
export interface StateDiff {
  storage: Map<Felt, Map<Felt, Felt>>;
  nonces: Map<Felt, Felt>;
  deployed: Map<Felt, Felt>;
}

export function emptyDiff(): StateDiff {
  return { storage: new Map(), nonces: new Map(), deployed: new Map() };
}

/** Folds `later` into `into`, later writes winning. */
export function mergeDiff(into: StateDiff, later: StateDiff): void {
  for (const [address, entries] of later.storage) {
    let target = into.storage.get(address);
    if (!target) into.storage.set(address, (target = new Map()));
    for (const [key, value] of entries) target.set(key, value);
  }
  for (const [address, nonce] of later.nonces) into.nonces.set(address, nonce);
  for (const [address, classHash] of later.deployed) into.deployed.set(address, classHash);
}

/** Values by block number; a read at block N sees the last write at or before N. */
class Versioned {
  private readonly blocks: number[] = [];
  private readonly values: Felt[] = [];

  write(block: number, value: Felt): void {
    const last = this.blocks.length - 1;
    if (last >= 0 && this.blocks[last] === block) this.values[last] = value;
    else {
      this.blocks.push(block);
      this.values.push(value);
    }
  }

  /** Forgets the writes made at `block` and after (devnet_abortBlocks). */
  truncate(block: number): void {
    while (this.blocks.length > 0 && this.blocks[this.blocks.length - 1] >= block) {
      this.blocks.pop();
      this.values.pop();
    }
  }

  read(block: number): Felt {
    let hi = this.blocks.length - 1;
    if (hi < 0) return 0n;
    if (this.blocks[hi] <= block) return this.values[hi];
    let lo = 0;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.blocks[mid] <= block) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? 0n : this.values[found];
  }
}

interface ContractRecord {
  classHash: Versioned;
  nonce: Versioned;
  storage: Map<Felt, Versioned>;
}

/** The whole chain state with its history, so any past block can be read. */
export class VersionedState {
  private readonly contracts = new Map<Felt, ContractRecord>();

  private record(address: Felt): ContractRecord {
    let record = this.contracts.get(address);
    if (!record) {
      record = { classHash: new Versioned(), nonce: new Versioned(), storage: new Map() };
      this.contracts.set(address, record);
    }
    return record;
  }

  apply(diff: StateDiff, block: number): void {
    for (const [address, classHash] of diff.deployed)
      this.record(address).classHash.write(block, classHash);
    for (const [address, nonce] of diff.nonces) this.record(address).nonce.write(block, nonce);
    for (const [address, entries] of diff.storage) {
      const { storage } = this.record(address);
      for (const [key, value] of entries) {
        let slot = storage.get(key);
        if (!slot) storage.set(key, (slot = new Versioned()));
        slot.write(block, value);
      }
    }
  }

  /** Forgets every write made at `block` and after: the state is that of block - 1 again. */
  truncate(block: number): void {
    for (const record of this.contracts.values()) {
      record.classHash.truncate(block);
      record.nonce.truncate(block);
      for (const slot of record.storage.values()) slot.truncate(block);
    }
  }

  at(block: number): StateReader {
    return {
      storageAt: (address, key) => this.contracts.get(address)?.storage.get(key)?.read(block) ?? 0n,
      nonceOf: (address) => this.contracts.get(address)?.nonce.read(block) ?? 0n,
      classHashAt: (address) => this.contracts.get(address)?.classHash.read(block) ?? 0n,
    };
  }
}

/** Buffered writes over a reader: kept on success, dropped on a revert or a simulation. */
export class StateOverlay implements StateReader {
  readonly diff: StateDiff = emptyDiff();

  constructor(private readonly parent: StateReader) {}

  storageAt(address: Felt, key: Felt): Felt {
    const value = this.diff.storage.get(address)?.get(key);
    return value ?? this.parent.storageAt(address, key);
  }

  nonceOf(address: Felt): Felt {
    return this.diff.nonces.get(address) ?? this.parent.nonceOf(address);
  }

  classHashAt(address: Felt): Felt {
    return this.diff.deployed.get(address) ?? this.parent.classHashAt(address);
  }

  setStorage(address: Felt, key: Felt, value: Felt): void {
    let entries = this.diff.storage.get(address);
    if (!entries) this.diff.storage.set(address, (entries = new Map()));
    entries.set(key, value);
  }

  setNonce(address: Felt, nonce: Felt): void {
    this.diff.nonces.set(address, nonce);
  }

  deploy(address: Felt, classHash: Felt): void {
    this.diff.deployed.set(address, classHash);
  }

  /** Moves this overlay's writes into its parent overlay. */
  commitTo(parent: StateOverlay): void {
    mergeDiff(parent.diff, this.diff);
  }
}
