import { Block, DecodedCall, TransactionRecord } from './blocks';
import { ClassStore } from './classes';
import {
  GAS_PRICES,
  CHAIN_IDS,
  DEFAULT_INITIAL_BALANCE,
  ETH_TOKEN_ADDRESS,
  LEGACY_UDC_ADDRESS,
  SEQUENCER_ADDRESS,
  STRK_TOKEN_ADDRESS,
  UDC_ADDRESS,
} from './constants';
import { ContractExecutionError, rpcErrors, StarknetRpcError } from './errors';
import {
  BlockInfo,
  CallContext,
  CalldataReader,
  CallFrame,
  EmittedEvent,
  Execution,
  TxInfo,
} from './execution';
import { encodeShortString, Felt, selectorFromName, toHex } from './felt';
import { boundsCoverPrices, exceededBound, feeFor, GasUsage, gasUsage, maxFee } from './fees';
import { poseidonHash, poseidonMany } from './hashing';
import { argentAccountClass, isAccountClass, ozAccountClass } from './native/accounts';
import { balanceIn, balanceSlot, chargeFee, erc20Class, initToken, mintTo } from './native/erc20';
import { legacyUdcClass, udcClass } from './native/udc';
import { chargeableAccount, derivePredeployedAccounts, PredeployedAccount } from './predeployed';
import { sign } from '@scure/starknet';
import {
  emptyDiff,
  mergeDiff,
  StateDiff,
  StateOverlay,
  StateReader,
  VersionedState,
} from './state';
import {
  isQueryVersion,
  parseTransaction,
  QUERY_VERSION_3,
  Transaction,
  transactionHash,
  transactionToJson,
  TX_VERSION_3,
} from './transactions';
import { ERC20_CLASS_HASH, OZ_ACCOUNT_CLASS_HASH } from './constants';

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
}

export type BlockId =
  'latest' | 'pre_confirmed' | 'l1_accepted' | { block_number: number } | { block_hash: Felt };

export type Unit = 'WEI' | 'FRI';

export interface SimulationFlags {
  skipValidate: boolean;
  skipFeeCharge: boolean;
}

/** The result of running one transaction, before (or without) committing it. */
export interface RunResult {
  hash: Felt;
  tx: Transaction;
  executionStatus: 'SUCCEEDED' | 'REVERTED';
  revertReason?: string;
  gas: GasUsage;
  fee: bigint;
  events: EmittedEvent[];
  calls: DecodedCall[];
  stateDiff: StateDiff;
  trace: { validate: CallFrame[]; execute: CallFrame[]; feeTransfer: CallFrame[] };
}

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

const EXECUTE = selectorFromName('__execute__');
const VALIDATE = selectorFromName('__validate__');
const VALIDATE_DEPLOY = selectorFromName('__validate_deploy__');
const VALIDATE_DECLARE = selectorFromName('__validate_declare__');
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

function decodeCalls(tx: Transaction): DecodedCall[] {
  if (tx.type !== 'INVOKE') return [];
  try {
    return new CalldataReader(tx.calldata).calls();
  } catch {
    return [];
  }
}

function countChangedSlots(diff: StateDiff, before: StateReader): number {
  let count = 0;
  for (const [address, entries] of diff.storage) {
    for (const [key, value] of entries) if (before.storageAt(address, key) !== value) count += 1;
  }
  return count;
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
  private readonly options: Required<Omit<DevnetOptions, 'now'>>;
  private readonly now: () => number;
  private genesisTimestamp: number;

  constructor(options: DevnetOptions = {}, genesisTimestamp?: number) {
    this.options = {
      seed: options.seed ?? 0,
      accounts: options.accounts ?? 10,
      chainId: options.chainId ?? 'SN_SEPOLIA',
      initialBalance: options.initialBalance ?? DEFAULT_INITIAL_BALANCE,
      blockPerTransaction: options.blockPerTransaction ?? true,
    };
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.chainIdName = this.options.chainId;
    this.chainId = resolveChainId(this.options.chainId);
    this.blockPerTransaction = this.options.blockPerTransaction;
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
    return { blockNumber: block.number, timestamp: block.timestamp, sequencerAddress: SEQUENCER };
  }

  private commitDiff(diff: StateDiff): void {
    this.state.apply(diff, this.pending.number);
    mergeDiff(this.pending.diff, diff);
  }

  private nextTimestamp(): number {
    return Math.max(this.now(), this.latestBlock().timestamp);
  }

  /** Closes the pre-confirmed block (even when empty) and opens the next one. */
  closeBlock(timestamp = this.nextTimestamp(), record = true): Block {
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
    if (id === 'pre_confirmed') return this.pending;
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

  findTransaction(hash: Felt): TransactionRecord | undefined {
    return this.transactions.get(hash);
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

  private txInfo(tx: Transaction, hash: Felt): TxInfo {
    return {
      transactionHash: hash,
      accountAddress: tx.senderAddress,
      signature: tx.signature,
      nonce: tx.nonce,
      version: tx.version,
      chainId: this.chainId,
    };
  }

  /**
   * Runs one transaction over `base` without committing it. Throws the protocol's rejection
   * errors (nonce, balance, validation...); an execution failure is a REVERTED result instead.
   */
  private run(
    tx: Transaction,
    hash: Felt,
    base: StateReader,
    block: Block,
    flags: SimulationFlags,
    tracing: boolean,
  ): RunResult {
    const sender = tx.senderAddress;
    if (tx.type === 'DECLARE') {
      if (this.classes.get(tx.classHash, block.number)) throw rpcErrors.classAlreadyDeclared();
      if (tx.contractClass.contract_class_version !== '0.1.0')
        throw rpcErrors.unsupportedContractClassVersion();
    }
    if (tx.type === 'DEPLOY_ACCOUNT') {
      if (!this.classes.get(tx.classHash, block.number)) throw rpcErrors.classHashNotFound();
      if (base.classHashAt(sender) !== 0n) {
        throw rpcErrors.validationFailure(`Account already deployed at ${toHex(sender)}`);
      }
    } else {
      const classHash = base.classHashAt(sender);
      if (classHash === 0n)
        throw rpcErrors.validationFailure(
          `Requested contract address ${toHex(sender)} is not deployed.`,
        );
      if (!isAccountClass(this.classes.get(classHash, block.number)?.native))
        throw rpcErrors.nonAccount();
    }
    const accountNonce = base.nonceOf(sender);
    if (tx.nonce !== accountNonce) {
      throw rpcErrors.invalidTransactionNonce(
        `Account ${toHex(sender)}: expected nonce ${toHex(accountNonce)}, got ${toHex(tx.nonce)}.`,
      );
    }
    const bounds = tx.resourceBounds;
    const chargeFees = !flags.skipFeeCharge;
    if (chargeFees) {
      if (!boundsCoverPrices(bounds)) throw rpcErrors.insufficientResourcesForValidate();
      const slot = balanceSlot(sender);
      const balance = (base.storageAt(STRK, slot + 1n) << 128n) + base.storageAt(STRK, slot);
      if (balance < maxFee(bounds, tx.tip)) throw rpcErrors.insufficientAccountBalance();
    }

    const info = this.txInfo(tx, hash);
    const blockInfo = this.blockInfo(block);
    const txState = new StateOverlay(base);
    const validation = new Execution(txState, this.classes, blockInfo, info, flags.skipValidate);
    validation.tracing = tracing;
    try {
      if (tx.type === 'DEPLOY_ACCOUNT') {
        validation.deploy(sender, tx.classHash, tx.constructorCalldata, 0n);
        validation.call(0n, sender, VALIDATE_DEPLOY, [
          tx.classHash,
          tx.contractAddressSalt,
          ...tx.constructorCalldata,
        ]);
      } else if (tx.type === 'INVOKE') {
        validation.call(0n, sender, VALIDATE, tx.calldata);
      } else {
        validation.call(0n, sender, VALIDATE_DECLARE, [tx.classHash]);
      }
    } catch (error) {
      if (error instanceof ContractExecutionError) throw rpcErrors.validationFailure(error.message);
      throw error;
    }

    let executionStatus: RunResult['executionStatus'] = 'SUCCEEDED';
    let revertReason: string | undefined;
    let execState: StateOverlay | undefined;
    let execution: Execution | undefined;
    if (tx.type === 'INVOKE') {
      execState = new StateOverlay(txState);
      execution = new Execution(execState, this.classes, blockInfo, info);
      execution.tracing = tracing;
      try {
        execution.call(0n, sender, EXECUTE, tx.calldata);
      } catch (error) {
        if (!(error instanceof ContractExecutionError)) throw error;
        executionStatus = 'REVERTED';
        revertReason = error.message;
        execState = undefined;
      }
    }

    const measure = (withExecution: boolean): GasUsage => {
      const diff = emptyDiff();
      mergeDiff(diff, txState.diff);
      if (withExecution && execState) mergeDiff(diff, execState.diff);
      const calldataLength =
        tx.type === 'INVOKE'
          ? tx.calldata.length
          : tx.type === 'DEPLOY_ACCOUNT'
            ? tx.constructorCalldata.length
            : 1;
      return gasUsage({
        calldataLength,
        calls: validation.callCount + (execution?.callCount ?? 0),
        events: withExecution && execution ? execution.events.length : 0,
        signatureChecks: validation.signatureChecks,
        storageWrites: countChangedSlots(diff, base),
        nonceUpdates: 1,
        deployments: diff.deployed.size,
        declaredClasses: tx.type === 'DECLARE' ? 1 : 0,
        sierraProgramLength: tx.type === 'DECLARE' ? tx.contractClass.sierra_program.length : 0,
      });
    };

    let gas = measure(true);
    const exceeded = chargeFees ? exceededBound(gas, bounds) : undefined;
    if (exceeded) {
      if (!execState) throw rpcErrors.insufficientResourcesForValidate();
      executionStatus = 'REVERTED';
      revertReason = exceeded;
      execState = undefined;
      gas = measure(false);
      if (exceededBound(gas, bounds)) throw rpcErrors.insufficientResourcesForValidate();
    }
    let fee = feeFor(gas, tx.tip);
    if (chargeFees && execState && balanceIn(new CallContext(execution!, STRK, 0n), sender) < fee) {
      // The calls spent what the fee needed: the sequencer reverts them and still charges.
      executionStatus = 'REVERTED';
      revertReason = 'Insufficient fee token balance to pay the fee after execution';
      execState = undefined;
      gas = measure(false);
      fee = feeFor(gas, tx.tip);
    }
    const events = [...validation.events];
    if (execState && execution) {
      execState.commitTo(txState);
      events.push(...execution.events);
    }
    txState.setNonce(sender, tx.nonce + 1n);
    const feeExecution = new Execution(txState, this.classes, blockInfo, info);
    feeExecution.tracing = tracing;
    if (chargeFees) {
      if (tracing) {
        // Traces show the fee payment as the transfer call it is.
        feeExecution.call(sender, STRK, selectorFromName('transfer'), [
          SEQUENCER,
          fee & ((1n << 128n) - 1n),
          fee >> 128n,
        ]);
      } else chargeFee(new CallContext(feeExecution, STRK, 0n), sender, SEQUENCER, fee);
      events.push(...feeExecution.events);
    }
    return {
      hash,
      tx,
      executionStatus,
      revertReason,
      gas,
      fee,
      events,
      calls: decodeCalls(tx),
      stateDiff: txState.diff,
      trace: {
        validate: validation.frames,
        execute: execution?.frames ?? [],
        feeTransfer: feeExecution.frames,
      },
    };
  }

  /** Accepts a signed transaction into the pre-confirmed block (closing it in instant mode). */
  addTransaction(tx: Transaction): TransactionRecord {
    if (tx.version !== TX_VERSION_3) throw rpcErrors.unsupportedTxVersion();
    const hash = transactionHash(tx, this.chainId);
    if (this.transactions.has(hash)) throw rpcErrors.duplicateTx();
    const block = this.pending;
    const result = this.run(
      tx,
      hash,
      this.state.at(block.number),
      block,
      { skipValidate: false, skipFeeCharge: false },
      false,
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
        result = this.run(tx, transactionHash(tx, this.chainId), base, block, flags, tracing);
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
      actions: this.actions.map((action) =>
        'parsed' in action ? { kind: 'tx', tx: transactionToJson(action.parsed, true) } : action,
      ),
    };
  }

  /** Rebuilds a devnet from a dump by replaying its actions: same blocks, same hashes. */
  static load(dump: DevnetDump, now?: () => number): Devnet {
    if (dump?.version !== 1 || !Array.isArray(dump.actions))
      throw new Error('not a devnet dump (version 1)');
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
    for (const action of dump.actions) {
      if (action.kind === 'block') devnet.closeBlock(action.timestamp);
      else devnet.addTransaction(parseTransaction(action.tx, 'dump'));
    }
    devnet.blockPerTransaction = dump.options.blockPerTransaction;
    return devnet;
  }

  /** Whether the pre-confirmed block holds anything to close. */
  hasPendingWork(): boolean {
    return this.pending.transactions.length > 0 || this.pending.diff.storage.size > 0;
  }

  isQuery(tx: Transaction): boolean {
    return isQueryVersion(tx);
  }
}
