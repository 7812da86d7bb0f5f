import { ClassStore } from './classes';
import { ContractExecutionError, rpcErrors, StarknetRpcError } from './errors';
import { BlockInfo, Execution } from './execution';
import { Felt } from './felt';
import { RunResult, SimulationFlags, TransactionRunner } from './runner';
import { mergeDiff, StateOverlay, StateReader } from './state';
import { QUERY_VERSION_3, Transaction, transactionHash, TX_VERSION_3 } from './transactions';

// What runs on a throwaway copy of a block's state and keeps nothing: simulations, fee
// estimates and view calls.

/**
 * Runs transactions one after the other on a copy of `state` (estimateFee and
 * simulateTransactions). A rejection of transaction i is error 41 naming i.
 */
export function simulate(
  runner: TransactionRunner,
  chainId: Felt,
  state: StateReader,
  block: BlockInfo,
  txs: Transaction[],
  flags: SimulationFlags,
  tracing: boolean,
): RunResult[] {
  const base = new StateOverlay(state);
  return txs.map((tx, index) => {
    if (tx.version !== TX_VERSION_3 && tx.version !== QUERY_VERSION_3)
      throw rpcErrors.unsupportedTxVersion();
    let result: RunResult;
    try {
      const hash = transactionHash(tx, chainId);
      result = runner.run(tx, hash, base, block, flags, tracing);
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

/** estimateFee: a simulation in which an execution that reverts is an error, as nodes do. */
export function estimateFees(
  runner: TransactionRunner,
  chainId: Felt,
  state: StateReader,
  block: BlockInfo,
  txs: Transaction[],
  skipValidate: boolean,
): RunResult[] {
  const results = simulate(
    runner,
    chainId,
    state,
    block,
    txs,
    { skipValidate, skipFeeCharge: true },
    false,
  );
  results.forEach((result, index) => {
    if (result.executionStatus === 'REVERTED') {
      throw rpcErrors.transactionExecutionError(index, result.revertReason ?? 'reverted');
    }
  });
  return results;
}

/** starknet_call: runs an entry point on a copy of the state, from no caller. */
export function viewCall(
  classes: ClassStore,
  state: StateReader,
  block: BlockInfo,
  contract: Felt,
  selector: Felt,
  calldata: Felt[],
): Felt[] {
  const classHash = state.classHashAt(contract);
  if (classHash === 0n) throw rpcErrors.contractNotFound();
  const record = classes.get(classHash, block.blockNumber);
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
  const execution = new Execution(new StateOverlay(state), classes, block, undefined);
  try {
    return execution.call(0n, contract, selector, calldata);
  } catch (error) {
    if (error instanceof ContractExecutionError) throw rpcErrors.contractError(error.message);
    throw error;
  }
}
