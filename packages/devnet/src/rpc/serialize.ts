import { Block, TransactionRecord } from '../core/blocks';
import { GAS_PRICES, SEQUENCER_ADDRESS } from '../core/constants';
import type { Devnet, RunResult } from '../core/devnet';
import type { CallFrame, EmittedEvent } from '../core/execution';
import { Felt, selectorFromName, toHex } from '../core/felt';
import { feeFor, GasUsage } from '../core/fees';
import type { StateDiff } from '../core/state';
import { l1HandlerToJson, l2MessageHash } from '../core/messaging';
import { transactionToJson } from '../core/transactions';

// Shapes of Starknet JSON-RPC 0.10 results.

const hexList = (values: readonly Felt[]): string[] => values.map((v) => toHex(v));

const gasPrices = {
  l1_gas_price: {
    price_in_fri: toHex(GAS_PRICES.l1Gas.fri),
    price_in_wei: toHex(GAS_PRICES.l1Gas.wei),
  },
  l2_gas_price: {
    price_in_fri: toHex(GAS_PRICES.l2Gas.fri),
    price_in_wei: toHex(GAS_PRICES.l2Gas.wei),
  },
  l1_data_gas_price: {
    price_in_fri: toHex(GAS_PRICES.l1DataGas.fri),
    price_in_wei: toHex(GAS_PRICES.l1DataGas.wei),
  },
};

export function blockHeader(devnet: Devnet, block: Block): Record<string, unknown> {
  const common = {
    block_number: block.number,
    timestamp: block.timestamp,
    sequencer_address: SEQUENCER_ADDRESS,
    ...gasPrices,
    l1_da_mode: 'BLOB',
    starknet_version: devnet.starknetVersion,
  };
  if (block.hash === undefined) return common;
  const eventCount = block.transactions.reduce((n, t) => n + t.events.length, 0);
  return {
    status: devnet.blockStatus(block),
    block_hash: toHex(block.hash),
    parent_hash: toHex(block.parentHash),
    new_root: toHex(block.newRoot),
    ...common,
    // Commitments are not computed (no Patricia tries here); the counts are real.
    event_commitment: '0x0',
    transaction_commitment: '0x0',
    receipt_commitment: '0x0',
    state_diff_commitment: '0x0',
    event_count: eventCount,
    transaction_count: block.transactions.length,
    state_diff_length: stateDiffLength(block.diff) + block.declared.length,
  };
}

function stateDiffLength(diff: StateDiff): number {
  let length = diff.nonces.size + diff.deployed.size;
  for (const entries of diff.storage.values()) length += entries.size;
  return length;
}

export function transactionJson(record: TransactionRecord): Record<string, unknown> {
  const { tx } = record;
  const body = tx.type === 'L1_HANDLER' ? l1HandlerToJson(tx) : transactionToJson(tx);
  return { transaction_hash: toHex(record.hash), ...body };
}

function eventJson(event: EmittedEvent): Record<string, unknown> {
  return {
    from_address: toHex(event.fromAddress),
    keys: hexList(event.keys),
    data: hexList(event.data),
  };
}

function executionResources(gas: GasUsage): Record<string, number> {
  return {
    l1_gas: Number(gas.l1Gas),
    l1_data_gas: Number(gas.l1DataGas),
    l2_gas: Number(gas.l2Gas),
  };
}

export function receiptJson(
  devnet: Devnet,
  record: TransactionRecord,
  withBlock = true,
): Record<string, unknown> {
  const { tx } = record;
  const receipt: Record<string, unknown> = {
    type: tx.type,
    transaction_hash: toHex(record.hash),
    // An L1 handler's fee was paid on L1, in WEI.
    actual_fee: { amount: toHex(record.actualFee), unit: tx.type === 'L1_HANDLER' ? 'WEI' : 'FRI' },
    execution_status: record.executionStatus,
    finality_status: devnet.finalityOf(record),
    messages_sent: [],
    events: record.events.map(eventJson),
    execution_resources: executionResources(record.gas),
  };
  if (record.revertReason !== undefined) receipt.revert_reason = record.revertReason;
  if (tx.type === 'DEPLOY_ACCOUNT') receipt.contract_address = toHex(tx.senderAddress);
  if (tx.type === 'L1_HANDLER') receipt.message_hash = l2MessageHash(tx.message);
  if (withBlock) {
    const block = devnet.blockOf(record);
    if (block.hash !== undefined) receipt.block_hash = toHex(block.hash);
    receipt.block_number = block.number;
  }
  return receipt;
}

export function statusJson(devnet: Devnet, record: TransactionRecord): Record<string, unknown> {
  const status: Record<string, unknown> = {
    finality_status: devnet.finalityOf(record),
    execution_status: record.executionStatus,
  };
  if (record.revertReason !== undefined) status.failure_reason = record.revertReason;
  return status;
}

/** MESSAGE_FEE_ESTIMATE: an L1 handler's fee, paid on L1 in WEI. */
export function messageFeeEstimateJson(result: RunResult): Record<string, string> {
  return {
    l1_gas_consumed: toHex(result.gas.l1Gas),
    l1_gas_price: toHex(GAS_PRICES.l1Gas.wei),
    l2_gas_consumed: toHex(result.gas.l2Gas),
    l2_gas_price: toHex(GAS_PRICES.l2Gas.wei),
    l1_data_gas_consumed: toHex(result.gas.l1DataGas),
    l1_data_gas_price: toHex(GAS_PRICES.l1DataGas.wei),
    overall_fee: toHex(result.fee),
    unit: 'WEI',
  };
}

export function feeEstimateJson(result: RunResult): Record<string, string> {
  return {
    l1_gas_consumed: toHex(result.gas.l1Gas),
    l1_gas_price: toHex(GAS_PRICES.l1Gas.fri),
    l2_gas_consumed: toHex(result.gas.l2Gas),
    l2_gas_price: toHex(GAS_PRICES.l2Gas.fri),
    l1_data_gas_consumed: toHex(result.gas.l1DataGas),
    l1_data_gas_price: toHex(GAS_PRICES.l1DataGas.fri),
    // The spec's sum of consumed x price; a tip is charged on top of it.
    overall_fee: toHex(feeFor(result.gas)),
    unit: 'FRI',
  };
}

export function stateDiffJson(
  diff: StateDiff,
  declared: { classHash: Felt; compiledClassHash: Felt }[],
): Record<string, unknown> {
  return {
    storage_diffs: [...diff.storage].map(([address, entries]) => ({
      address: toHex(address),
      storage_entries: [...entries].map(([key, value]) => ({
        key: toHex(key),
        value: toHex(value),
      })),
    })),
    deprecated_declared_classes: [],
    declared_classes: declared.map((d) => ({
      class_hash: toHex(d.classHash),
      compiled_class_hash: toHex(d.compiledClassHash),
    })),
    deployed_contracts: [...diff.deployed].map(([address, classHash]) => ({
      address: toHex(address),
      class_hash: toHex(classHash),
    })),
    replaced_classes: [],
    nonces: [...diff.nonces].map(([address, nonce]) => ({
      contract_address: toHex(address),
      nonce: toHex(nonce),
    })),
  };
}

function invocationJson(frame: CallFrame, entryPointType = 'EXTERNAL'): Record<string, unknown> {
  return {
    contract_address: toHex(frame.contractAddress),
    entry_point_selector: toHex(frame.selector),
    calldata: hexList(frame.calldata),
    caller_address: toHex(frame.caller),
    class_hash: toHex(frame.classHash),
    entry_point_type: entryPointType,
    call_type: 'CALL',
    result: hexList(frame.result),
    calls: frame.calls.map((c) => invocationJson(c)),
    events: frame.events.map((e, order) => ({
      order,
      keys: hexList(e.keys),
      data: hexList(e.data),
    })),
    messages: [],
    execution_resources: { l1_gas: 0, l2_gas: 0 },
    is_reverted: frame.failed,
  };
}

export function simulationJson(result: RunResult): Record<string, unknown> {
  return { transaction_trace: traceJson(result), fee_estimation: feeEstimateJson(result) };
}

/** TRANSACTION_TRACE: validate / execute (or revert reason) / constructor / fee transfer calls. */
export function traceJson(result: RunResult): Record<string, unknown> {
  const { tx, trace } = result;
  if (tx.type === 'L1_HANDLER') {
    return {
      type: 'L1_HANDLER',
      function_invocation:
        result.executionStatus === 'REVERTED' || !trace.execute[0]
          ? { revert_reason: result.revertReason ?? 'reverted' }
          : invocationJson(trace.execute[0], 'L1_HANDLER'),
      state_diff: stateDiffJson(result.stateDiff, []),
      execution_resources: executionResources(result.gas),
    };
  }
  const validate = trace.validate[0] ? invocationJson(trace.validate[0]) : undefined;
  const feeTransfer = trace.feeTransfer[0] ? invocationJson(trace.feeTransfer[0]) : undefined;
  const declared =
    tx.type === 'DECLARE'
      ? [{ classHash: tx.classHash, compiledClassHash: tx.compiledClassHash }]
      : [];
  const transactionTrace: Record<string, unknown> = {
    type: tx.type,
    validate_invocation: validate,
    fee_transfer_invocation: feeTransfer,
    state_diff: stateDiffJson(result.stateDiff, declared),
    execution_resources: executionResources(result.gas),
  };
  if (tx.type === 'INVOKE') {
    transactionTrace.execute_invocation =
      result.executionStatus === 'REVERTED' || !trace.execute[0]
        ? { revert_reason: result.revertReason ?? 'reverted' }
        : invocationJson(trace.execute[0]);
  }
  if (tx.type === 'DEPLOY_ACCOUNT') {
    transactionTrace.constructor_invocation = invocationJson(
      {
        contractAddress: tx.senderAddress,
        selector: selectorFromName('constructor'),
        calldata: tx.constructorCalldata,
        caller: 0n,
        classHash: tx.classHash,
        result: [],
        calls: [],
        events: [],
        failed: false,
      },
      'CONSTRUCTOR',
    );
  }
  return transactionTrace;
}
