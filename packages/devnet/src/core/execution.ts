import { CalldataReader } from './calldata';
import { ContractExecutionError } from './errors';
import { Felt, toHex } from './felt';
import type { SierraContractClass } from './hashing';
import { StateOverlay } from './state';

export type NativeFunction = (ctx: CallContext, calldata: CalldataReader) => Felt[];

/** A contract class this devnet runs in TypeScript, mirroring its Cairo original. */
export interface NativeClass {
  name: string;
  classHash: Felt;
  /** Cairo 1 ABI entries, served by getClass so clients can detect a Cairo 1 contract. */
  abi: unknown[];
  functions: Map<Felt, NativeFunction>;
  functionNames: Map<Felt, string>;
  constructorFn?: NativeFunction;
  /** `#[l1_handler]` functions: run only by an L1 handler transaction, never by a call. */
  l1Handlers?: Map<Felt, NativeFunction>;
}

/**
 * The class lookups an execution makes. ClassStore answers them; it is an interface here so
 * that the class store can depend on this module (for NativeClass) and not the other way round.
 */
export interface ClassLookup {
  /** The native implementation to run, or a ContractExecutionError when it cannot run here. */
  executable(classHash: Felt, address: Felt): NativeClass;
  /** The class declared at or before `atBlock`. */
  get(
    classHash: Felt,
    atBlock: number,
  ): { native?: NativeClass; sierra: SierraContractClass } | undefined;
}

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
  /** The chain id a contract reads from its tx info, also in a starknet_call (no transaction). */
  chainId: Felt;
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
    readonly classes: ClassLookup,
    readonly block: BlockInfo,
    readonly tx: TxInfo | undefined,
    /** The probe that prices a validation SKIP_VALIDATE leaves out: no signature is checked. */
    readonly skipSignatureChecks = false,
  ) {}

  call(
    caller: Felt,
    to: Felt,
    selector: Felt,
    calldata: readonly Felt[],
    l1Handler = false,
  ): Felt[] {
    this.callCount += 1;
    const classHash = this.state.classHashAt(to);
    if (classHash === 0n) {
      throw new ContractExecutionError(`Requested contract address ${toHex(to)} is not deployed`);
    }
    const native = this.classes.executable(classHash, to);
    const fn = l1Handler ? native.l1Handlers?.get(selector) : native.functions.get(selector);
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

  /** get_block_timestamp(). */
  get blockTimestamp(): number {
    return this.execution.block.timestamp;
  }

  /** get_tx_info().chain_id, which a starknet_call has too. */
  get chainId(): Felt {
    return this.execution.block.chainId;
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
