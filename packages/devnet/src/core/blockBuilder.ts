import { TransactionRecord } from './blocks';
import { L1HandlerTransaction, l1HandlerHash } from './messaging';
import { Chain } from './chain';
import { ClassStore } from './classes';
import { rpcErrors } from './errors';
import { RunResult, TransactionRunner } from './runner';
import { Transaction, transactionHash, TX_VERSION_3 } from './transactions';

/**
 * Executes signed transactions into the pre-confirmed block: the run on its state, the state
 * diff committed, a declared class stored, the receipt's record kept. Whether a block then
 * closes is the caller's choice.
 */
export class BlockBuilder {
  constructor(
    private readonly chain: Chain,
    private readonly classes: ClassStore,
    private readonly runner: TransactionRunner,
  ) {}

  include(tx: Transaction): TransactionRecord {
    if (tx.version !== TX_VERSION_3) throw rpcErrors.unsupportedTxVersion();
    const hash = transactionHash(tx, this.chain.chainId);
    if (this.chain.hasTransaction(hash)) throw rpcErrors.duplicateTx();
    const block = this.chain.pending;
    const result = this.runner.run(
      tx,
      hash,
      this.chain.state.at(block.number),
      this.chain.blockInfo(block),
      { skipValidate: false, skipFeeCharge: false, strictNonce: true },
      // Traces are kept for starknet_traceTransaction; recording them costs little next to crypto.
      true,
    );
    this.chain.commitDiff(result.stateDiff);
    if (tx.type === 'DECLARE') {
      this.classes.addDeclared(tx.classHash, tx.compiledClassHash, tx.contractClass, block.number);
      block.declared.push({ classHash: tx.classHash, compiledClassHash: tx.compiledClassHash });
    }
    return this.record(result);
  }

  /** An L1 handler transaction (a message from L1) into the pre-confirmed block. */
  includeL1Handler(tx: L1HandlerTransaction): TransactionRecord {
    const hash = l1HandlerHash(tx, this.chain.chainId);
    if (this.chain.hasTransaction(hash)) throw rpcErrors.duplicateTx();
    const block = this.chain.pending;
    const result = this.runner.runL1Handler(
      tx,
      hash,
      this.chain.state.at(block.number),
      this.chain.blockInfo(block),
      true,
    );
    this.chain.commitDiff(result.stateDiff);
    return this.record(result);
  }

  private record(result: RunResult): TransactionRecord {
    const block = this.chain.pending;
    const record: TransactionRecord = {
      hash: result.hash,
      tx: result.tx,
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
    this.chain.include(record);
    return record;
  }
}
