import { sign } from '@scure/starknet';
import { Block, TransactionRecord } from './blocks';
import { ClassStore } from './classes';
import {
  CHAIN_IDS,
  DEFAULT_INITIAL_BALANCE,
  ERC20_CLASS_HASH,
  ETH_TOKEN_ADDRESS,
  GAS_PRICES,
  LEGACY_UDC_ADDRESS,
  OZ_ACCOUNT_CLASS_HASH,
  SEQUENCER_ADDRESS,
  STRK_TOKEN_ADDRESS,
  UDC_ADDRESS,
} from './constants';
import { ContractExecutionError, rpcErrors, StarknetRpcError } from './errors';
import { BlockInfo, CallContext, Execution } from './execution';
import { encodeShortString, Felt, selectorFromName, toHex } from './felt';
import { poseidonHash, poseidonMany } from './hashing';
import { argentAccountClass, ozAccountClass } from './native/accounts';
import { balanceSlot, erc20Class, initToken, mintTo } from './native/erc20';
import { legacyUdcClass, udcClass } from './native/udc';
import { chargeableAccount, derivePredeployedAccounts, PredeployedAccount } from './predeployed';
import { RunResult, SimulationFlags, TransactionRunner } from './runner';
import {
  emptyDiff,
  mergeDiff,
  StateDiff,
  StateOverlay,
  StateReader,
  VersionedState,
} from './state';
import {
  InvalidParamError,
  parseTransaction,
  QUERY_VERSION_3,
  Transaction,
  transactionHash,
  transactionToJson,
  TX_VERSION_3,
} from './transactions';

export type { RunResult, SimulationFlags } from './runner';

export interface DevnetOptions {
  /** Seed of the predeployed account keys (default 0). */
  seed?: number;
  /** Number of predeployed accounts (default 10). */
  accounts?: number;
  /** 'SN_SEPOLIA' (default), 'SN_MAIN', or any short string / felt. */
  chainId?: string;
  /** Initial ETH and STRK balance of each predeployed account (default 10^21). */
  initialBalance?: bigint;
  /** true (default): every transaction closes a block. false: blocks close on createBlock(). */
  blockPerTransaction?: boolean;
  /** Clock in unix seconds; injectable so replays are deterministic. */
  now?: () => number;
  /** Unix seconds of the genesis block (starknet-devnet's --start-time); the clock runs on from it. */
  startTime?: number;
}

export type BlockId =
  'latest' | 'pre_confirmed' | 'l1_accepted' | { block_number: number } | { block_hash: Felt };

export type Unit = 'WEI' | 'FRI';

/** What a dump holds: the options and every state-changing action, replayed on load. */
export interface DevnetDump {
  version: 1;
  options: {
    seed: number;
    accounts: number;
    chainId: string;
    initialBalance: string;
    blockPerTransaction: boolean;
  };
  genesisTimestamp: number;
  actions: DumpAction[];
}

type DumpAction =
  { kind: 'tx'; tx: Record<string, unknown> } | { kind: 'block'; timestamp: number };

const STRK = BigInt(STRK_TOKEN_ADDRESS);
const ETH = BigInt(ETH_TOKEN_ADDRESS);
const SEQUENCER = BigInt(SEQUENCER_ADDRESS);
const PERMISSIONED_MINT = selectorFromName('permissioned_mint');
const FAUCET_FEE_BALANCE = 2n ** 200n;
const U256_LIMIT = 2n ** 256n;

function resolveChainId(chainId: string): Felt {
  if (CHAIN_IDS[chainId]) return BigInt(CHAIN_IDS[chainId]);
  if (/^0x[0-9a-fA-F]+$/.test(chainId)) return BigInt(chainId);
  return encodeShortString(chainId);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/** Checks a dump's shape; an InvalidParamError names the dump field (`version`, `options.seed`). */
function checkDump(dump: unknown): asserts dump is DevnetDump {
  const bad = (field: string, detail: string) => new InvalidParamError(field, detail);
  if (!isRecord(dump)) throw bad('version', 'expected an object with version 1');
  if (dump.version !== 1)
    throw bad('version', `expected 1, found ${JSON.stringify(dump.version) ?? 'none'}`);
  const options = dump.options;
  if (!isRecord(options)) throw bad('options', 'expected an object');
  if (!isCount(options.seed)) throw bad('options.seed', 'expected a non-negative integer');
  if (!isCount(options.accounts)) throw bad('options.accounts', 'expected a non-negative integer');
  if (typeof options.chainId !== 'string' || options.chainId === '')
    throw bad('options.chainId', 'expected a chain id string');
  if (typeof options.initialBalance !== 'string' || !/^\d+$/.test(options.initialBalance))
    throw bad('options.initialBalance', 'expected a decimal integer string');
  if (typeof options.blockPerTransaction !== 'boolean')
    throw bad('options.blockPerTransaction', 'expected a boolean');
  if (!isCount(dump.genesisTimestamp))
    throw bad('genesisTimestamp', 'expected a non-negative integer (seconds)');
  if (!Array.isArray(dump.actions)) throw bad('actions', 'expected an array');
  dump.actions.forEach((action: unknown, i) => {
    if (!isRecord(action)) throw bad(`actions[${i}]`, 'expected an object');
    if (action.kind === 'block') {
      if (!isCount(action.timestamp))
        throw bad(`actions[${i}].timestamp`, 'expected a non-negative integer');
    } else if (action.kind === 'tx') {
      if (!isRecord(action.tx)) throw bad(`actions[${i}].tx`, 'expected a transaction object');
    } else throw bad(`actions[${i}].kind`, 'expected "tx" or "block"');
  });
}

/**
 * A Starknet chain in memory: state with history, blocks, transactions, receipts, events.
 * Pure: no timers, no I/O. The server drives block closing for a block time.
 */
export class Devnet {
  readonly chainId: Felt;
  readonly chainIdName: string;
  readonly state = new VersionedState();
  readonly classes = new ClassStore();
  readonly blocks: Block[] = [];
  pending!: Block;
  readonly predeployedAccounts: PredeployedAccount[];
  blockPerTransaction: boolean;
  private readonly transactions = new Map<Felt, TransactionRecord>();
  private readonly blockNumbersByHash = new Map<Felt, number>();
  /** Actions as they happened; transactions are turned into JSON only when dumping. */
  private readonly actions: (DumpAction | { kind: 'tx'; parsed: Transaction })[] = [];
  private readonly options: Required<Omit<DevnetOptions, 'now' | 'startTime'>>;
  private readonly clock: () => number;
  /** Seconds added to the clock by setTime / increaseTime (and a start time). */
  private timeOffset = 0;
  private genesisTimestamp: number;
  private readonly runner: TransactionRunner;
  /**
   * Block-time mode: submissions admitted but not yet executed (finality status RECEIVED), in
   * order, and the pre-confirmed state with their effects, against which later ones are admitted.
   */
  private readonly queue: { hash: Felt; tx: Transaction }[] = [];
  private readonly queuedByHash = new Map<Felt, Transaction>();
  private queueState?: StateOverlay;

  constructor(options: DevnetOptions = {}, genesisTimestamp?: number) {
    this.options = {
      seed: options.seed ?? 0,
      accounts: options.accounts ?? 10,
      chainId: options.chainId ?? 'SN_SEPOLIA',
      initialBalance: options.initialBalance ?? DEFAULT_INITIAL_BALANCE,
      blockPerTransaction: options.blockPerTransaction ?? true,
    };
    this.clock = options.now ?? (() => Math.floor(Date.now() / 1000));
    if (options.startTime !== undefined) this.timeOffset = options.startTime - this.clock();
    this.chainIdName = this.options.chainId;
    this.chainId = resolveChainId(this.options.chainId);
    this.blockPerTransaction = this.options.blockPerTransaction;
    this.runner = new TransactionRunner(this.classes, this.chainId);
    this.genesisTimestamp = genesisTimestamp ?? this.now();
    this.predeployedAccounts = derivePredeployedAccounts(
      this.options.seed,
      this.options.accounts,
      this.options.initialBalance,
    );
    this.createGenesis();
  }

  // ---------- genesis and blocks ----------

  private createGenesis(): void {
    for (const native of [
      argentAccountClass,
      ozAccountClass,
      erc20Class(ERC20_CLASS_HASH),
      udcClass,
      legacyUdcClass,
    ]) {
      this.classes.addNative(native, 0);
    }
    this.pending = this.newBlock(0, 0n, this.genesisTimestamp);
    const overlay = new StateOverlay(this.state.at(0));
    const setup = new Execution(overlay, this.classes, this.blockInfo(this.pending), undefined);
    const erc20 = BigInt(ERC20_CLASS_HASH);
    setup.deploy(ETH, erc20, [], 0n);
    setup.deploy(STRK, erc20, [], 0n);
    const faucet = chargeableAccount();
    initToken(new CallContext(setup, ETH, 0n), 'Ether', 'ETH', 18, faucet.address);
    initToken(new CallContext(setup, STRK, 0n), 'Starknet Token', 'STRK', 18, faucet.address);
    setup.deploy(faucet.address, BigInt(OZ_ACCOUNT_CLASS_HASH), [faucet.publicKey], 0n);
    // Enough STRK to pay the fees of any number of mints.
    mintTo(new CallContext(setup, STRK, 0n), faucet.address, FAUCET_FEE_BALANCE);
    setup.deploy(BigInt(UDC_ADDRESS), udcClass.classHash, [], 0n);
    setup.deploy(BigInt(LEGACY_UDC_ADDRESS), legacyUdcClass.classHash, [], 0n);
    for (const account of this.predeployedAccounts) {
      const address = BigInt(account.address);
      setup.deploy(address, BigInt(OZ_ACCOUNT_CLASS_HASH), [BigInt(account.public_key)], 0n);
      mintTo(new CallContext(setup, ETH, 0n), address, this.options.initialBalance);
      mintTo(new CallContext(setup, STRK, 0n), address, this.options.initialBalance);
    }
    this.commitDiff(overlay.diff);
    this.closeBlock(this.genesisTimestamp, false);
  }

  private newBlock(number: number, parentHash: Felt, timestamp: number): Block {
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

  private blockInfo(block: Block): BlockInfo {
    return {
      blockNumber: block.number,
      timestamp: block.timestamp,
      sequencerAddress: SEQUENCER,
      chainId: this.chainId,
    };
  }

  private commitDiff(diff: StateDiff): void {
    this.state.apply(diff, this.pending.number);
    mergeDiff(this.pending.diff, diff);
  }

  private now(): number {
    return this.clock() + this.timeOffset;
  }

  /**
   * devnet_setTime: the clock reads `time` from now on (blocks never go back in time: the next
   * block's timestamp is at least the latest one's); with `generateBlock` a block closes at once.
   */
  setTime(time: number, generateBlock: boolean): Block | undefined {
    this.timeOffset = time - this.clock();
    return generateBlock ? this.closeBlock() : undefined;
  }

  /** devnet_increaseTime: moves the clock `seconds` forward and closes a block. */
  increaseTime(seconds: number): Block {
    this.timeOffset += seconds;
    return this.closeBlock();
  }

  private nextTimestamp(): number {
    return Math.max(this.now(), this.latestBlock().timestamp);
  }

  /**
   * Closes the pre-confirmed block (even when empty) and opens the next one. Queued (RECEIVED)
   * transactions are executed into it first.
   */
  closeBlock(timestamp = this.nextTimestamp(), record = true): Block {
    this.executeQueued();
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
    if (record) this.actions.push({ kind: 'block', timestamp });
    this.pending = this.newBlock(block.number + 1, block.hash, Math.max(this.now(), timestamp));
    return block;
  }

  latestBlock(): Block {
    return this.blocks[this.blocks.length - 1];
  }

  /** The block a block id names; throws 24 when there is none. */
  resolveBlock(id: BlockId): Block {
    if (id === 'pre_confirmed') {
      // A read of the pre-confirmed block sees every transaction already admitted: the queued
      // ones are executed into it first (so a wallet reading its nonce there gets the next one).
      this.executeQueued();
      return this.pending;
    }
    if (id === 'latest' || id === 'l1_accepted') return this.latestBlock();
    if ('block_number' in id) {
      const block = this.blocks[id.block_number];
      if (!block) throw rpcErrors.blockNotFound();
      return block;
    }
    const number = this.blockNumbersByHash.get(id.block_hash);
    if (number === undefined) throw rpcErrors.blockNotFound();
    return this.blocks[number];
  }

  stateAt(id: BlockId): { reader: StateReader; block: Block } {
    const block = this.resolveBlock(id);
    return { reader: this.state.at(block.number), block };
  }

  // ---------- reads ----------

  getNonce(address: Felt, id: BlockId): Felt {
    const { reader } = this.stateAt(id);
    if (reader.classHashAt(address) === 0n) throw rpcErrors.contractNotFound();
    return reader.nonceOf(address);
  }

  getClassHashAt(address: Felt, id: BlockId): Felt {
    const { reader } = this.stateAt(id);
    const classHash = reader.classHashAt(address);
    if (classHash === 0n) throw rpcErrors.contractNotFound();
    return classHash;
  }

  getStorageAt(address: Felt, key: Felt, id: BlockId): Felt {
    const { reader } = this.stateAt(id);
    if (reader.classHashAt(address) === 0n) throw rpcErrors.contractNotFound();
    return reader.storageAt(address, key);
  }

  getClass(classHash: Felt, id: BlockId) {
    const block = this.resolveBlock(id);
    const record = this.classes.get(classHash, block.number);
    if (!record) throw rpcErrors.classHashNotFound();
    return record.sierra;
  }

  /** starknet_call: runs a view entry point on a copy of the state; nothing is kept. */
  call(contract: Felt, selector: Felt, calldata: Felt[], id: BlockId): Felt[] {
    const { reader, block } = this.stateAt(id);
    const classHash = reader.classHashAt(contract);
    if (classHash === 0n) throw rpcErrors.contractNotFound();
    const record = this.classes.get(classHash, block.number);
    if (record?.native && !record.native.functions.has(selector))
      throw rpcErrors.entrypointNotFound();
    // A declared class cannot run here, but its external entry points are known: a selector it
    // lacks is 21, as on a real node, before the "cannot be executed" contract error.
    if (
      record &&
      !record.native &&
      !(record.sierra.entry_points_by_type?.EXTERNAL ?? []).some(
        (entry) => BigInt(entry.selector) === selector,
      )
    )
      throw rpcErrors.entrypointNotFound();
    const execution = new Execution(
      new StateOverlay(reader),
      this.classes,
      this.blockInfo(block),
      undefined,
    );
    try {
      return execution.call(0n, contract, selector, calldata);
    } catch (error) {
      if (error instanceof ContractExecutionError) throw rpcErrors.contractError(error.message);
      throw error;
    }
  }

  balanceOf(address: Felt, unit: Unit, id: BlockId = 'pre_confirmed'): bigint {
    const { reader } = this.stateAt(id);
    const token = unit === 'FRI' ? STRK : ETH;
    const slot = balanceSlot(address);
    return (reader.storageAt(token, slot + 1n) << 128n) + reader.storageAt(token, slot);
  }

  getTransaction(hash: Felt): TransactionRecord {
    const record = this.transactions.get(hash);
    if (!record) throw rpcErrors.txnHashNotFound();
    return record;
  }

  isAccepted(record: TransactionRecord): boolean {
    return record.blockNumber < this.pending.number;
  }

  blockOf(record: TransactionRecord): Block {
    return this.isAccepted(record) ? this.blocks[record.blockNumber] : this.pending;
  }

  /** Every transaction, oldest first. */
  allTransactions(): IterableIterator<TransactionRecord> {
    return this.transactions.values();
  }

  // ---------- transactions ----------

  /** A submitted transaction still waiting to be executed (finality status RECEIVED). */
  queuedTransaction(hash: Felt): Transaction | undefined {
    return this.queuedByHash.get(hash);
  }

  /** How many submitted transactions wait to be executed. */
  get queuedCount(): number {
    return this.queue.length;
  }

  /**
   * A submission (starknet_add*Transaction). With a block per transaction it is executed and its
   * block closed at once. Otherwise the gateway's checks run now, synchronously (version,
   * duplicate, deployed sender, account, nonce against the pre-confirmed state plus the queued
   * transactions, resource prices, fee balance, __validate__), and the transaction is queued as
   * RECEIVED until executeQueued() (the server calls it after a short delay), a read of the
   * pre-confirmed block or the end of the block.
   */
  submitTransaction(tx: Transaction): { hash: Felt; queued: boolean } {
    if (this.blockPerTransaction) return { hash: this.addTransaction(tx).hash, queued: false };
    if (tx.version !== TX_VERSION_3) throw rpcErrors.unsupportedTxVersion();
    const hash = transactionHash(tx, this.chainId);
    if (this.transactions.has(hash) || this.queuedByHash.has(hash)) throw rpcErrors.duplicateTx();
    if (tx.type === 'DECLARE') {
      for (const queued of this.queuedByHash.values()) {
        if (queued.type === 'DECLARE' && queued.classHash === tx.classHash)
          throw rpcErrors.classAlreadyDeclared();
      }
    }
    // The overlay holds the effects of the queued transactions only: with none queued it is
    // rebuilt on the current pre-confirmed state, which a mint, a block close or a refused
    // submission (it created the overlay but queued nothing) may have left behind.
    if (this.queue.length === 0 || !this.queueState)
      this.queueState = new StateOverlay(this.state.at(this.pending.number));
    const state = this.queueState;
    const result = this.runner.run(
      tx,
      hash,
      state,
      this.blockInfo(this.pending),
      { skipValidate: false, skipFeeCharge: false, strictNonce: true },
      false,
    );
    mergeDiff(state.diff, result.stateDiff);
    this.queue.push({ hash, tx });
    this.queuedByHash.set(hash, tx);
    return { hash, queued: true };
  }

  /**
   * Executes the queued transactions into the pre-confirmed block, in submission order; they
   * become PRE_CONFIRMED. One that the chain now refuses (it cannot happen with the checks at
   * submission unless queued transactions conflict) is dropped, as a sequencer drops it: its hash
   * is then unknown. Returns how many were executed.
   */
  executeQueued(): number {
    this.queueState = undefined;
    if (this.queue.length === 0) return 0;
    const queued = this.queue.splice(0);
    this.queuedByHash.clear();
    let executed = 0;
    for (const { tx } of queued) {
      try {
        this.execute(tx);
        executed += 1;
      } catch (error) {
        if (!(error instanceof StarknetRpcError)) throw error;
      }
    }
    return executed;
  }

  /**
   * Executes a signed transaction into the pre-confirmed block at once (closing it with a block
   * per transaction), after any queued ones. Used by mints, dump replays and direct core users.
   */
  addTransaction(tx: Transaction): TransactionRecord {
    this.executeQueued();
    return this.execute(tx);
  }

  private execute(tx: Transaction): TransactionRecord {
    if (tx.version !== TX_VERSION_3) throw rpcErrors.unsupportedTxVersion();
    const hash = transactionHash(tx, this.chainId);
    if (this.transactions.has(hash)) throw rpcErrors.duplicateTx();
    const block = this.pending;
    const result = this.runner.run(
      tx,
      hash,
      this.state.at(block.number),
      this.blockInfo(block),
      { skipValidate: false, skipFeeCharge: false, strictNonce: true },
      // Traces are kept for starknet_traceTransaction; recording them costs little next to crypto.
      true,
    );
    this.commitDiff(result.stateDiff);
    if (tx.type === 'DECLARE') {
      this.classes.addDeclared(tx.classHash, tx.compiledClassHash, tx.contractClass, block.number);
      block.declared.push({ classHash: tx.classHash, compiledClassHash: tx.compiledClassHash });
    }
    const record: TransactionRecord = {
      hash,
      tx,
      blockNumber: block.number,
      index: block.transactions.length,
      executionStatus: result.executionStatus,
      revertReason: result.revertReason,
      actualFee: result.fee,
      gas: result.gas,
      events: result.events,
      calls: result.calls,
      run: result,
    };
    block.transactions.push(record);
    this.transactions.set(hash, record);
    this.actions.push({ kind: 'tx', parsed: tx });
    if (this.blockPerTransaction) this.closeBlock();
    return record;
  }

  /**
   * Runs transactions one after the other on a throwaway copy of the state (estimateFee and
   * simulateTransactions). A rejection or a revert of transaction i is error 41 naming i.
   */
  simulate(txs: Transaction[], id: BlockId, flags: SimulationFlags, tracing: boolean): RunResult[] {
    const { reader, block } = this.stateAt(id);
    const base = new StateOverlay(reader);
    return txs.map((tx, index) => {
      if (tx.version !== TX_VERSION_3 && tx.version !== QUERY_VERSION_3)
        throw rpcErrors.unsupportedTxVersion();
      let result: RunResult;
      try {
        const hash = transactionHash(tx, this.chainId);
        result = this.runner.run(tx, hash, base, this.blockInfo(block), flags, tracing);
      } catch (error) {
        if (error instanceof StarknetRpcError) {
          const detail =
            typeof error.data === 'string' ? `${error.message}: ${error.data}` : error.message;
          throw rpcErrors.transactionExecutionError(index, detail);
        }
        throw error;
      }
      mergeDiff(base.diff, result.stateDiff);
      return result;
    });
  }

  /** estimateFee: like a simulation, but an execution that reverts is an error, as nodes do. */
  estimateFee(txs: Transaction[], id: BlockId, skipValidate: boolean): RunResult[] {
    const results = this.simulate(txs, id, { skipValidate, skipFeeCharge: true }, false);
    results.forEach((result, index) => {
      if (result.executionStatus === 'REVERTED') {
        throw rpcErrors.transactionExecutionError(index, result.revertReason ?? 'reverted');
      }
    });
    return results;
  }

  // ---------- devnet features ----------

  /**
   * Mints ETH (WEI) or STRK (FRI) to any address, like starknet-devnet's faucet: a real, signed
   * invoke of the token's permissioned_mint from the devnet's chargeable account, with a receipt.
   */
  mint(
    address: Felt,
    amount: bigint,
    unit: Unit,
  ): { newBalance: bigint; transaction: TransactionRecord } {
    if (amount < 0n || amount >= U256_LIMIT) throw new RangeError('amount must fit in a u256');
    // A mint is executed at once (as starknet-devnet's), after the transactions already queued.
    this.executeQueued();
    const faucet = chargeableAccount();
    const token = unit === 'FRI' ? STRK : ETH;
    const [low, high] = [amount & ((1n << 128n) - 1n), amount >> 128n];
    const price = (p: bigint): bigint => p * 2n;
    const tx: Transaction = {
      type: 'INVOKE',
      version: TX_VERSION_3,
      senderAddress: faucet.address,
      calldata: [1n, token, PERMISSIONED_MINT, 3n, address, low, high],
      nonce: this.state.at(this.pending.number).nonceOf(faucet.address),
      resourceBounds: {
        l1Gas: { maxAmount: 0n, maxPricePerUnit: price(GAS_PRICES.l1Gas.fri) },
        l2Gas: { maxAmount: 10_000_000n, maxPricePerUnit: price(GAS_PRICES.l2Gas.fri) },
        l1DataGas: { maxAmount: 100_000n, maxPricePerUnit: price(GAS_PRICES.l1DataGas.fri) },
      },
      tip: 0n,
      paymasterData: [],
      accountDeploymentData: [],
      proofFacts: [],
      nonceDataAvailabilityMode: 'L1',
      feeDataAvailabilityMode: 'L1',
      signature: [],
    };
    const signature = sign(toHex(transactionHash(tx, this.chainId)), toHex(faucet.privateKey));
    tx.signature = [signature.r, signature.s];
    const transaction = this.addTransaction(tx);
    if (transaction.executionStatus === 'REVERTED') {
      throw new RangeError(`mint failed: ${transaction.revertReason}`);
    }
    return { newBalance: this.balanceOf(address, unit), transaction };
  }

  dump(): DevnetDump {
    return {
      version: 1,
      options: {
        seed: this.options.seed,
        accounts: this.options.accounts,
        chainId: this.options.chainId,
        initialBalance: this.options.initialBalance.toString(),
        blockPerTransaction: this.blockPerTransaction,
      },
      genesisTimestamp: this.genesisTimestamp,
      // Queued (RECEIVED) transactions come last, as the pre-confirmed block's next ones: a load
      // replays them, so they are PRE_CONFIRMED in the loaded chain.
      actions: [
        ...this.actions.map((action) =>
          'parsed' in action
            ? { kind: 'tx' as const, tx: transactionToJson(action.parsed, true) }
            : action,
        ),
        ...this.queue.map(({ tx }) => ({ kind: 'tx' as const, tx: transactionToJson(tx, true) })),
      ],
    };
  }

  /**
   * Rebuilds a devnet from a dump by replaying its actions: same blocks, same hashes. A dump of
   * the wrong shape, or whose transactions do not replay, is an InvalidParamError naming the
   * dump field (`version`, `options.seed`, `actions[3].tx.nonce`...).
   */
  static load(dump: DevnetDump, now?: () => number): Devnet {
    checkDump(dump);
    const devnet = new Devnet(
      {
        seed: dump.options.seed,
        accounts: dump.options.accounts,
        chainId: dump.options.chainId,
        initialBalance: BigInt(dump.options.initialBalance),
        blockPerTransaction: false,
        now,
      },
      dump.genesisTimestamp,
    );
    dump.actions.forEach((action, i) => {
      if (action.kind === 'block') {
        devnet.closeBlock(action.timestamp);
        return;
      }
      const path = `actions[${i}].tx`;
      const tx = parseTransaction(action.tx, path);
      try {
        devnet.addTransaction(tx);
      } catch (error) {
        if (!(error instanceof StarknetRpcError)) throw error;
        throw new InvalidParamError(path, `does not replay: ${error.message}`);
      }
    });
    devnet.blockPerTransaction = dump.options.blockPerTransaction;
    return devnet;
  }
}
