import { CalldataReader, DecodedCall } from './calldata';
import { ClassStore } from './classes';
import { SEQUENCER_ADDRESS, STRK_TOKEN_ADDRESS } from './constants';
import { ContractExecutionError, rpcErrors } from './errors';
import { BlockInfo, CallContext, CallFrame, EmittedEvent, Execution, TxInfo } from './execution';
import { Felt, selectorFromName, toHex } from './felt';
import { boundsCoverPrices, exceededBound, feeFor, GasUsage, gasUsage, maxFee } from './fees';
import type { L1HandlerTransaction } from './messaging';
import { isAccountClass } from './native/accounts';
import { expectedCompiledClassHash } from './nativeCasm';
import { balanceAt, balanceIn, chargeFee } from './native/erc20';
import { emptyDiff, mergeDiff, StateDiff, StateOverlay, StateReader } from './state';
import { Transaction } from './transactions';

export interface SimulationFlags {
  skipValidate: boolean;
  skipFeeCharge: boolean;
  /**
   * Submissions need nonce == account nonce. Estimates and simulations, like the nodes' (the
   * sequencer's non-strict nonce check), accept a later nonce: a wallet may estimate its next
   * transaction against `latest` while an earlier one waits in the pre-confirmed block.
   */
  strictNonce?: boolean;
}

/** The result of running one transaction, before (or without) committing it. */
export interface RunResult {
  hash: Felt;
  tx: Transaction | L1HandlerTransaction;
  executionStatus: 'SUCCEEDED' | 'REVERTED';
  revertReason?: string;
  gas: GasUsage;
  fee: bigint;
  events: EmittedEvent[];
  calls: DecodedCall[];
  stateDiff: StateDiff;
  trace: { validate: CallFrame[]; execute: CallFrame[]; feeTransfer: CallFrame[] };
}

const EXECUTE = selectorFromName('__execute__');
const VALIDATE = selectorFromName('__validate__');
const VALIDATE_DEPLOY = selectorFromName('__validate_deploy__');
const VALIDATE_DECLARE = selectorFromName('__validate_declare__');
const TRANSFER = selectorFromName('transfer');
const STRK = BigInt(STRK_TOKEN_ADDRESS);
const SEQUENCER = BigInt(SEQUENCER_ADDRESS);

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
 * The sequencer's part: admission checks, validation, execution with revert, gas and fee.
 * It never commits; the caller keeps or drops the resulting state diff.
 */
export class TransactionRunner {
  constructor(
    private readonly classes: ClassStore,
    private readonly chainId: Felt,
    private readonly starknetVersion: string,
  ) {}

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
   * Runs an L1 handler transaction (a message from L1) over `base`: no account, no validation,
   * no fee transfer (the fee was paid on L1, in WEI). A target that is not deployed is 20; a
   * failure in the handler (or a selector that is not an `#[l1_handler]`) is a REVERTED result.
   */
  runL1Handler(
    tx: L1HandlerTransaction,
    hash: Felt,
    base: StateReader,
    block: BlockInfo,
    tracing: boolean,
  ): RunResult {
    if (base.classHashAt(tx.contractAddress) === 0n) throw rpcErrors.contractNotFound();
    const txState = new StateOverlay(base);
    const info: TxInfo = {
      transactionHash: hash,
      accountAddress: 0n,
      signature: [],
      nonce: tx.nonce,
      version: 0n,
      chainId: this.chainId,
    };
    const execution = new Execution(txState, this.classes, block, info);
    execution.tracing = tracing;
    let executionStatus: RunResult['executionStatus'] = 'SUCCEEDED';
    let revertReason: string | undefined;
    let stateDiff = txState.diff;
    try {
      execution.call(0n, tx.contractAddress, tx.entryPointSelector, tx.calldata, true);
    } catch (error) {
      if (!(error instanceof ContractExecutionError)) throw error;
      executionStatus = 'REVERTED';
      revertReason = error.message;
      stateDiff = emptyDiff();
    }
    const succeeded = executionStatus === 'SUCCEEDED';
    const gas = gasUsage({
      calldataLength: tx.calldata.length,
      calls: execution.callCount,
      events: succeeded ? execution.events.length : 0,
      signatureChecks: 0,
      storageWrites: succeeded ? countChangedSlots(stateDiff, base) : 0,
      nonceUpdates: 0,
      deployments: 0,
      declaredClasses: 0,
      sierraProgramLength: 0,
      feeTransfer: false,
    });
    return {
      hash,
      tx,
      executionStatus,
      revertReason,
      gas,
      fee: feeFor(gas, 0n, 'wei'),
      events: succeeded ? [...execution.events] : [],
      calls: [],
      stateDiff,
      trace: { validate: [], execute: execution.frames, feeTransfer: [] },
    };
  }

  /**
   * The work validation would do, measured on a throwaway copy with no signature checked and
   * nothing kept (no frames, events or writes): SKIP_VALIDATE does not run it, but the model
   * still prices it. A validation that would fail is priced for what it did until then.
   */
  private validationCost(
    state: StateReader,
    block: BlockInfo,
    info: TxInfo,
    selector: Felt,
    calldata: readonly Felt[],
  ): { calls: number; signatureChecks: number } {
    const probe = new Execution(new StateOverlay(state), this.classes, block, info, true);
    try {
      probe.call(0n, info.accountAddress, selector, calldata);
    } catch (error) {
      if (!(error instanceof ContractExecutionError)) throw error;
    }
    return { calls: probe.callCount, signatureChecks: probe.signatureChecks };
  }

  /**
   * Runs one transaction over `base` without committing it. Throws the protocol's rejection
   * errors (nonce, balance, validation...); an execution failure is a REVERTED result instead.
   */
  run(
    tx: Transaction,
    hash: Felt,
    base: StateReader,
    block: BlockInfo,
    flags: SimulationFlags,
    tracing: boolean,
  ): RunResult {
    const sender = tx.senderAddress;
    if (tx.type === 'DECLARE') {
      // The gateway compiles a class before the sequencer sees it: a compiled class hash that
      // is not the class's is 60, before 51. Known only for the native classes' CASM here.
      const expected = expectedCompiledClassHash(tx.classHash, this.starknetVersion);
      if (expected !== undefined && expected !== tx.compiledClassHash)
        throw rpcErrors.compiledClassHashMismatch();
      if (this.classes.get(tx.classHash, block.blockNumber)) throw rpcErrors.classAlreadyDeclared();
      if (tx.contractClass.contract_class_version !== '0.1.0')
        throw rpcErrors.unsupportedContractClassVersion();
    }
    if (tx.type === 'DEPLOY_ACCOUNT') {
      if (!this.classes.get(tx.classHash, block.blockNumber)) throw rpcErrors.classHashNotFound();
      if (base.classHashAt(sender) !== 0n) {
        throw rpcErrors.validationFailure(`Account already deployed at ${toHex(sender)}`);
      }
    } else {
      const classHash = base.classHashAt(sender);
      if (classHash === 0n)
        throw rpcErrors.validationFailure(
          `Requested contract address ${toHex(sender)} is not deployed.`,
        );
      if (!isAccountClass(this.classes.get(classHash, block.blockNumber)?.native))
        throw rpcErrors.nonAccount();
    }
    const accountNonce = base.nonceOf(sender);
    const nonceOk = flags.strictNonce ? tx.nonce === accountNonce : tx.nonce >= accountNonce;
    if (!nonceOk) {
      throw rpcErrors.invalidTransactionNonce(
        `Account ${toHex(sender)}: expected nonce ${toHex(accountNonce)}, got ${toHex(tx.nonce)}.`,
      );
    }
    const bounds = tx.resourceBounds;
    const chargeFees = !flags.skipFeeCharge;
    if (chargeFees) {
      if (!boundsCoverPrices(bounds)) throw rpcErrors.insufficientResourcesForValidate();
      if (balanceAt(base, STRK, sender) < maxFee(bounds, tx.tip))
        throw rpcErrors.insufficientAccountBalance();
    }

    const info = this.txInfo(tx, hash);
    const blockInfo = block;
    const txState = new StateOverlay(base);
    const validation = new Execution(txState, this.classes, blockInfo, info);
    validation.tracing = tracing;
    const [validateSelector, validateCalldata] =
      tx.type === 'DEPLOY_ACCOUNT'
        ? [VALIDATE_DEPLOY, [tx.classHash, tx.contractAddressSalt, ...tx.constructorCalldata]]
        : tx.type === 'INVOKE'
          ? [VALIDATE, tx.calldata]
          : [VALIDATE_DECLARE, [tx.classHash]];
    // What SKIP_VALIDATE leaves out is still costed, as the model's price of validation: the
    // estimate starknet.js makes (with that flag) stays the fee then charged (README, Fee model).
    let skipped = { calls: 0, signatureChecks: 0 };
    try {
      if (tx.type === 'DEPLOY_ACCOUNT') {
        validation.deploy(sender, tx.classHash, tx.constructorCalldata, 0n);
      }
      if (flags.skipValidate) {
        skipped = this.validationCost(txState, blockInfo, info, validateSelector, validateCalldata);
      } else validation.call(0n, sender, validateSelector, validateCalldata);
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
        calls: validation.callCount + skipped.calls + (execution?.callCount ?? 0),
        events: withExecution && execution ? execution.events.length : 0,
        // Outside executions check a signature while executing, and are costed for it too.
        signatureChecks:
          validation.signatureChecks + skipped.signatureChecks + (execution?.signatureChecks ?? 0),
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
      // Only an invoke's calls can be dropped; validation alone over the bounds is a rejection.
      if (tx.type !== 'INVOKE') throw rpcErrors.insufficientResourcesForValidate();
      if (executionStatus === 'SUCCEEDED') revertReason = exceeded;
      executionStatus = 'REVERTED';
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
        feeExecution.call(sender, STRK, TRANSFER, [
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
}
