import { Block, FinalityStatus, TransactionRecord } from './blocks';
import { BlockBuilder } from './blockBuilder';
import { BlockId, Chain } from './chain';
import { ClassStore } from './classes';
import { Clock } from './clock';
import { ActionLog, checkDump, DevnetDump, replay } from './dump';
import { rpcErrors, StarknetRpcError, UnsupportedActionError } from './errors';
import { ChainEvents } from './events';
import { assertMintAmount, mintTransaction, tokenOf, Unit } from './faucet';
import { Felt } from './felt';
import {
  ChainConfig,
  declareNativeClasses,
  DevnetOptions,
  genesisState,
  resolveChainId,
  resolveConfig,
} from './genesis';
import { Mempool } from './mempool';
import { l1HandlerTransaction, MessageToL2 } from './messaging';
import { balanceAt } from './native/erc20';
import { chargeableAccount, derivePredeployedAccounts, PredeployedAccount } from './predeployed';
import { RunResult, SimulationFlags, TransactionRunner } from './runner';
import { estimateFees, simulate, viewCall } from './simulation';
import { StateReader, VersionedState } from './state';
import { Transaction } from './transactions';

export type { BlockId } from './chain';
export type { DevnetDump } from './dump';
export type { ChainEvent, ChainListener } from './events';
export type { Unit } from './faucet';
export type { DevnetOptions } from './genesis';
export type { MessageToL2 } from './messaging';
export type { RunResult, SimulationFlags } from './runner';

/**
 * A Starknet chain in memory, the one object the server and the RPC methods hold. It puts the
 * core's parts together: genesis, the chain of blocks (chain.ts) and its clock, the mempool of
 * block-time mode, the block builder that executes transactions into the pre-confirmed block,
 * simulations and view calls, the faucet, and dump/load. Pure: no timers, no I/O; the server
 * drives block closing for a block time.
 */
export class Devnet {
  readonly chainId: Felt;
  readonly chainIdName: string;
  readonly classes = new ClassStore();
  readonly predeployedAccounts: PredeployedAccount[];
  blockPerTransaction: boolean;
  private readonly config: ChainConfig;
  private readonly clock: Clock;
  private readonly genesisTimestamp: number;
  private readonly chain: Chain;
  private readonly runner: TransactionRunner;
  private readonly builder: BlockBuilder;
  private readonly mempool: Mempool;
  private readonly log = new ActionLog();
  /** L1 transaction hash -> the L1 handler transactions its messages became, in order. */
  private readonly messagesByL1Hash = new Map<Felt, Felt[]>();
  /** Blocks, transactions and reorgs as they happen (the WebSocket API listens). */
  readonly events = new ChainEvents();

  constructor(options: DevnetOptions = {}, genesisTimestamp?: number) {
    this.config = resolveConfig(options);
    this.clock = new Clock(options.now, options.startTime);
    this.chainIdName = this.config.chainId;
    this.chainId = resolveChainId(this.config.chainId);
    this.blockPerTransaction = this.config.blockPerTransaction;
    this.runner = new TransactionRunner(this.classes, this.chainId, this.config.starknetVersion);
    this.genesisTimestamp = genesisTimestamp ?? this.clock.now();
    this.predeployedAccounts = derivePredeployedAccounts(
      this.config.seed,
      this.config.accounts,
      this.config.initialBalance,
    );
    this.chain = new Chain(this.chainId, this.genesisTimestamp);
    this.builder = new BlockBuilder(this.chain, this.classes, this.runner);
    this.mempool = new Mempool(this.chain, this.runner);
    declareNativeClasses(this.classes);
    this.chain.commitDiff(
      genesisState(
        this.classes,
        this.chain.state.at(0),
        this.chain.blockInfo(this.chain.pending),
        this.predeployedAccounts,
        this.config.initialBalance,
      ),
    );
    this.closeBlock(this.genesisTimestamp, false);
  }

  /** The Starknet version the blocks report (starknet_version). */
  get starknetVersion(): string {
    return this.config.starknetVersion;
  }

  get state(): VersionedState {
    return this.chain.state;
  }

  get blocks(): Block[] {
    return this.chain.blocks;
  }

  /** The pre-confirmed block being filled. */
  get pending(): Block {
    return this.chain.pending;
  }

  // ---------- blocks and the clock ----------

  /**
   * devnet_setTime: the clock reads `time` from now on (blocks never go back in time: the next
   * block's timestamp is at least the latest one's); with `generateBlock` a block closes at once.
   */
  setTime(time: number, generateBlock: boolean): Block | undefined {
    this.clock.set(time);
    return generateBlock ? this.closeBlock() : undefined;
  }

  /** devnet_increaseTime: moves the clock `seconds` forward and closes a block. */
  increaseTime(seconds: number): Block {
    this.clock.advance(seconds);
    return this.closeBlock();
  }

  private nextTimestamp(): number {
    return Math.max(this.clock.now(), this.latestBlock().timestamp);
  }

  /**
   * Closes the pre-confirmed block (even when empty) and opens the next one. Queued (RECEIVED)
   * transactions are executed into it first.
   */
  closeBlock(timestamp = this.nextTimestamp(), record = true): Block {
    this.executeQueued();
    const block = this.chain.seal(timestamp, Math.max(this.clock.now(), timestamp));
    if (record) this.log.block(timestamp);
    this.events.emit({ kind: 'accepted', block });
    return block;
  }

  /**
   * devnet_abortBlocks, as starknet-devnet does it: the blocks from `startingId` to the latest
   * are removed with their transactions (gone, not back in a pool), their state and declared
   * classes; `pre_confirmed` first closes the pre-confirmed block. What is still pre-confirmed
   * or queued is dropped too (it ran on the aborted state). Returns the aborted blocks, latest
   * first. Genesis cannot be aborted.
   */
  abortBlocks(startingId: BlockId): Block[] {
    const id = startingId === 'pre_confirmed' ? (this.closeBlock(), 'latest') : startingId;
    const start = this.chain.block(id);
    if (start.number === 0) throw new StarknetRpcError(-32600, "Genesis block can't be aborted");
    // As starknet-devnet: what L1 has accepted stays; only blocks still on L2 can be aborted.
    const onL1 = this.chain.l1AcceptedNumber;
    if (onL1 !== undefined && start.number <= onL1) {
      throw new UnsupportedActionError(
        'Block abortion failed: cannot abort a block accepted on L1',
      );
    }
    this.mempool.clear();
    const aborted = this.chain.truncate(start.number);
    this.classes.removeDeclaredFrom(start.number);
    this.log.truncateToBlocks(start.number);
    this.events.emit({ kind: 'reorg', aborted });
    return [...aborted].reverse();
  }

  latestBlock(): Block {
    return this.chain.latestBlock();
  }

  /** The block a block id names; throws 24 when there is none. */
  resolveBlock(id: BlockId): Block {
    // A read of the pre-confirmed block sees every transaction already admitted: the queued
    // ones are executed into it first (so a wallet reading its nonce there gets the next one).
    if (id === 'pre_confirmed') this.executeQueued();
    return this.chain.block(id);
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
    return viewCall(
      this.classes,
      reader,
      this.chain.blockInfo(block),
      contract,
      selector,
      calldata,
    );
  }

  balanceOf(address: Felt, unit: Unit, id: BlockId = 'pre_confirmed'): bigint {
    return balanceAt(this.stateAt(id).reader, tokenOf(unit), address);
  }

  getTransaction(hash: Felt): TransactionRecord {
    return this.chain.getTransaction(hash);
  }

  isAccepted(record: TransactionRecord): boolean {
    return this.chain.isAccepted(record);
  }

  /** PRE_CONFIRMED, ACCEPTED_ON_L2, or ACCEPTED_ON_L1 after devnet_acceptOnL1. */
  finalityOf(record: TransactionRecord): FinalityStatus {
    return this.chain.blockStatus(record.blockNumber);
  }

  blockStatus(block: Block): FinalityStatus {
    return this.chain.blockStatus(block.number);
  }

  blockOf(record: TransactionRecord): Block {
    return this.chain.blockOf(record);
  }

  /** Every transaction, oldest first. */
  allTransactions(): IterableIterator<TransactionRecord> {
    return this.chain.allTransactions();
  }

  // ---------- transactions ----------

  /** A submitted transaction still waiting to be executed (finality status RECEIVED). */
  queuedTransaction(hash: Felt): Transaction | undefined {
    return this.mempool.get(hash);
  }

  /** How many submitted transactions wait to be executed. */
  get queuedCount(): number {
    return this.mempool.count;
  }

  /**
   * A submission (starknet_add*Transaction). With a block per transaction it is executed and its
   * block closed at once. Otherwise the mempool runs the gateway's checks now and queues it as
   * RECEIVED until executeQueued() (the server calls it after a short delay), a read of the
   * pre-confirmed block or the end of the block.
   */
  submitTransaction(tx: Transaction): { hash: Felt; queued: boolean } {
    if (this.blockPerTransaction) return { hash: this.addTransaction(tx).hash, queued: false };
    const hash = this.mempool.admit(tx);
    this.events.emit({ kind: 'received', hash, tx });
    return { hash, queued: true };
  }

  /**
   * Executes the queued transactions into the pre-confirmed block, in submission order; they
   * become PRE_CONFIRMED (one the chain now refuses is dropped). Returns how many were executed.
   */
  executeQueued(): number {
    return this.mempool.flush((tx) => this.execute(tx));
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
    const record = this.builder.include(tx);
    this.log.transaction(tx);
    this.events.emit({ kind: 'preconfirmed', record });
    if (this.blockPerTransaction) this.closeBlock();
    return record;
  }

  /**
   * Runs transactions one after the other on a throwaway copy of the state (estimateFee and
   * simulateTransactions). A rejection or a revert of transaction i is error 41 naming i.
   */
  simulate(txs: Transaction[], id: BlockId, flags: SimulationFlags, tracing: boolean): RunResult[] {
    const { reader, block } = this.stateAt(id);
    const info = this.chain.blockInfo(block);
    return simulate(this.runner, this.chainId, reader, info, txs, flags, tracing);
  }

  /** estimateFee: like a simulation, but an execution that reverts is an error, as nodes do. */
  estimateFee(txs: Transaction[], id: BlockId, skipValidate: boolean): RunResult[] {
    const { reader, block } = this.stateAt(id);
    const info = this.chain.blockInfo(block);
    return estimateFees(this.runner, this.chainId, reader, info, txs, skipValidate);
  }

  // ---------- L1 ----------

  /**
   * devnet_postmanSendMessageToL2: a message "from L1" becomes an L1 handler transaction,
   * executed at once like a mint (after the queued transactions).
   */
  sendMessageToL2(message: MessageToL2): TransactionRecord {
    this.executeQueued();
    const record = this.builder.includeL1Handler(l1HandlerTransaction(message));
    this.log.message(message);
    const l1Hash = message.l1TransactionHash;
    if (l1Hash !== undefined) {
      this.messagesByL1Hash.set(l1Hash, [
        ...(this.messagesByL1Hash.get(l1Hash) ?? []),
        record.hash,
      ]);
    }
    if (this.blockPerTransaction) this.closeBlock();
    return record;
  }

  /** starknet_getMessagesStatus: the L1 handler transactions of an L1 transaction, or 29. */
  messagesOf(l1TransactionHash: Felt): TransactionRecord[] {
    const hashes = this.messagesByL1Hash.get(l1TransactionHash);
    if (!hashes) throw rpcErrors.txnHashNotFound();
    return hashes.map((hash) => this.chain.getTransaction(hash));
  }

  /** starknet_estimateMessageFee: the L1 handler run on a copy of the block's state (WEI). */
  estimateMessageFee(message: MessageToL2, id: BlockId): RunResult {
    const { reader, block } = this.stateAt(id);
    const tx = l1HandlerTransaction(message);
    const result = this.runner.runL1Handler(tx, 0n, reader, this.chain.blockInfo(block), false);
    if (result.executionStatus === 'REVERTED')
      throw rpcErrors.contractError(result.revertReason ?? 'reverted');
    return result;
  }

  /** devnet_acceptOnL1: the block and those before it become ACCEPTED_ON_L1; their hashes. */
  acceptOnL1(id: BlockId): Felt[] {
    const from = (this.chain.l1AcceptedNumber ?? -1) + 1;
    const accepted = this.chain.acceptOnL1(id);
    const to = this.chain.l1AcceptedNumber as number;
    this.log.acceptOnL1(to);
    this.events.emit({ kind: 'l1accepted', blocks: this.chain.blocks.slice(from, to + 1) });
    return accepted;
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
    assertMintAmount(amount);
    // A mint is executed at once (as starknet-devnet's), after the transactions already queued.
    this.executeQueued();
    const nonce = this.chain.pendingState().nonceOf(chargeableAccount().address);
    const transaction = this.addTransaction(
      mintTransaction(address, amount, unit, nonce, this.chainId),
    );
    if (transaction.executionStatus === 'REVERTED') {
      throw new RangeError(`mint failed: ${transaction.revertReason}`);
    }
    return { newBalance: this.balanceOf(address, unit), transaction };
  }

  dump(): DevnetDump {
    return this.log.dump(
      { ...this.config, blockPerTransaction: this.blockPerTransaction },
      this.genesisTimestamp,
      this.mempool.transactions(),
    );
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
        starknetVersion: dump.options.starknetVersion,
        blockPerTransaction: false,
        now,
      },
      dump.genesisTimestamp,
    );
    replay(dump, {
      closeBlock: (timestamp) => devnet.closeBlock(timestamp),
      addTransaction: (tx) => devnet.addTransaction(tx),
      sendMessageToL2: (message) => devnet.sendMessageToL2(message),
      acceptOnL1: (blockNumber) => devnet.acceptOnL1({ block_number: blockNumber }),
    });
    devnet.blockPerTransaction = dump.options.blockPerTransaction;
    return devnet;
  }
}
