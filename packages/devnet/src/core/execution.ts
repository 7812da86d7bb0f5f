import { ContractExecutionError } from './errors';
import { Felt, toHex } from './felt';
import type { ClassStore } from './classes';
import { StateOverlay } from './state';

export interface TxInfo {
  transactionHash: Felt;
  accountAddress: Felt;
  signature: readonly Felt[];
  nonce: Felt;
  version: Felt;
  chainId: Felt;
}

export interface EmittedEvent {
  fromAddress: Felt;
  keys: Felt[];
  data: Felt[];
}

export interface BlockInfo {
  blockNumber: number;
  timestamp: number;
  sequencerAddress: Felt;
}

/** One function invocation, as simulateTransactions traces report it. */
export interface CallFrame {
  contractAddress: Felt;
  selector: Felt;
  calldata: readonly Felt[];
  caller: Felt;
  classHash: Felt;
  result: Felt[];
  calls: CallFrame[];
  events: EmittedEvent[];
  failed: boolean;
}

/** One execution: the state it writes to, the events it emits, the work it does. */
export class Execution {
  readonly events: EmittedEvent[] = [];
  callCount = 0;
  signatureChecks = 0;
  /** Top-level frames of this execution, recorded only when tracing (simulations). */
  readonly frames: CallFrame[] = [];
  private frameStack: CallFrame[] = [];
  tracing = false;

  constructor(
    readonly state: StateOverlay,
    readonly classes: ClassStore,
    readonly block: BlockInfo,
    readonly tx: TxInfo | undefined,
    /** Estimates with SKIP_VALIDATE run __validate__ without checking the signature. */
    readonly skipSignatureChecks = false,
  ) {}

  call(caller: Felt, to: Felt, selector: Felt, calldata: readonly Felt[]): Felt[] {
    this.callCount += 1;
    const classHash = this.state.classHashAt(to);
    if (classHash === 0n) {
      throw new ContractExecutionError(`Requested contract address ${toHex(to)} is not deployed`);
    }
    const native = this.classes.executable(classHash, to);
    const fn = native.functions.get(selector);
    if (!fn) {
      throw new ContractExecutionError(
        `Entry point ${toHex(selector)} not found in contract ${toHex(to)}`,
      );
    }
    if (!this.tracing) return fn(new CallContext(this, to, caller), new CalldataReader(calldata));
    const frame: CallFrame = {
      contractAddress: to,
      selector,
      calldata,
      caller,
      classHash,
      result: [],
      calls: [],
      events: [],
      failed: true,
    };
    (this.frameStack.at(-1)?.calls ?? this.frames).push(frame);
    this.frameStack.push(frame);
    const eventsBefore = this.events.length;
    try {
      frame.result = fn(new CallContext(this, to, caller), new CalldataReader(calldata));
      frame.failed = false;
      return frame.result;
    } finally {
      frame.events = this.events.slice(eventsBefore).filter((e) => e.fromAddress === to);
      this.frameStack.pop();
    }
  }

  /** Deploys a contract and runs its constructor, as a deploy syscall does. */
  deploy(address: Felt, classHash: Felt, calldata: readonly Felt[], caller: Felt): void {
    if (this.state.classHashAt(address) !== 0n) {
      throw new ContractExecutionError(
        `Requested contract address ${toHex(address)} is unavailable for deployment`,
      );
    }
    const record = this.classes.get(classHash, this.block.blockNumber);
    if (!record)
      throw new ContractExecutionError(`Class with hash ${toHex(classHash)} is not declared`);
    this.state.deploy(address, classHash);
    if (record.native) {
      const ctor = record.native.constructorFn;
      if (ctor) ctor(new CallContext(this, address, caller), new CalldataReader(calldata));
      else if (calldata.length)
        throw new ContractExecutionError('Cannot pass calldata to a contract with no constructor');
    } else if (record.sierra.entry_points_by_type.CONSTRUCTOR.length > 0) {
      // Running it would need a Cairo VM; refuse rather than deploy a half-initialised contract.
      throw new ContractExecutionError(
        `Class ${toHex(classHash)} has a constructor that this devnet cannot execute (only its native classes run)`,
      );
    } else if (calldata.length) {
      throw new ContractExecutionError('Cannot pass calldata to a contract with no constructor');
    }
  }
}

/** What a native entry point sees: its own address, its caller, storage, events, other calls. */
export class CallContext {
  constructor(
    readonly execution: Execution,
    readonly self: Felt,
    readonly caller: Felt,
  ) {}

  get tx(): TxInfo {
    if (!this.execution.tx) throw new ContractExecutionError('No transaction info in a call');
    return this.execution.tx;
  }

  read(key: Felt): Felt {
    return this.execution.state.storageAt(this.self, key);
  }

  write(key: Felt, value: Felt): void {
    this.execution.state.setStorage(this.self, key, value);
  }

  emit(keys: Felt[], data: Felt[]): void {
    this.execution.events.push({ fromAddress: this.self, keys, data });
  }

  callContract(to: Felt, selector: Felt, calldata: readonly Felt[]): Felt[] {
    return this.execution.call(this.self, to, selector, calldata);
  }
}

/** Sequential Cairo-serde reader; a short or malformed calldata fails like Cairo's deserializer. */
export class CalldataReader {
  private offset = 0;
  private param = 0;

  constructor(readonly data: readonly Felt[]) {}

  felt(): Felt {
    this.param += 1;
    return this.next();
  }

  private next(): Felt {
    if (this.offset >= this.data.length) {
      throw new ContractExecutionError(`Failed to deserialize param #${Math.max(this.param, 1)}`);
    }
    return this.data[this.offset++];
  }

  u256(): bigint {
    this.param += 1;
    const low = this.next();
    const high = this.next();
    if (low >= 2n ** 128n || high >= 2n ** 128n) {
      throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    }
    return (high << 128n) + low;
  }

  bool(): boolean {
    const value = this.felt();
    if (value > 1n) throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    return value === 1n;
  }

  array(): Felt[] {
    this.param += 1;
    const length = Number(this.next());
    if (this.offset + length > this.data.length) {
      throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    }
    const values = this.data.slice(this.offset, this.offset + length);
    this.offset += length;
    return values as Felt[];
  }

  /** Calls as account __execute__ takes them: Array<Call { to, selector, calldata: Array }>. */
  calls(): { to: Felt; selector: Felt; calldata: Felt[] }[] {
    this.param += 1;
    const count = Number(this.next());
    const calls = [];
    for (let i = 0; i < count; i += 1) {
      const to = this.next();
      const selector = this.next();
      const length = Number(this.next());
      if (this.offset + length > this.data.length) {
        throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
      }
      calls.push({
        to,
        selector,
        calldata: this.data.slice(this.offset, this.offset + length) as Felt[],
      });
      this.offset += length;
    }
    return calls;
  }

  end(): void {
    if (this.offset !== this.data.length) {
      throw new ContractExecutionError('Input too long for arguments');
    }
  }
}
