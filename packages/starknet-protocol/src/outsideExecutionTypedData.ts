/**
 * SNIP-9 outside execution, built: the typed data an account signs for an execution, exactly as
 * SNIP-9 (and SNIP-29) define each version, and the relayer's execute_from_outside[_v2] call.
 * Pure (a type-only import of @starknet-io/types-js); hashing it is starknet.js's typedData.
 */
import type { OutsideExecutionTypedData } from '@starknet-io/types-js';

import { type Call, multicallCalldata, SELECTORS } from './calls';
import { hexList, toHex } from './felt';
import { OUTSIDE_EXECUTION_DOMAIN, type Snip9Version } from './outsideExecution';

export interface OutsideExecution {
  caller: bigint;
  nonce: bigint;
  executeAfter: bigint;
  executeBefore: bigint;
  calls: Call[];
}

export type TypedDataTypes = Record<string, { name: string; type: string }[]>;

/** The types of each version, exactly as SNIP-9 (and SNIP-29) define them. */
export const OUTSIDE_EXECUTION_TYPES: Record<Snip9Version, TypedDataTypes> = {
  1: {
    StarkNetDomain: [
      { name: 'name', type: 'felt' },
      { name: 'version', type: 'felt' },
      { name: 'chainId', type: 'felt' },
    ],
    OutsideExecution: [
      { name: 'caller', type: 'felt' },
      { name: 'nonce', type: 'felt' },
      { name: 'execute_after', type: 'felt' },
      { name: 'execute_before', type: 'felt' },
      { name: 'calls_len', type: 'felt' },
      { name: 'calls', type: 'OutsideCall*' },
    ],
    OutsideCall: [
      { name: 'to', type: 'felt' },
      { name: 'selector', type: 'felt' },
      { name: 'calldata_len', type: 'felt' },
      { name: 'calldata', type: 'felt*' },
    ],
  },
  2: {
    StarknetDomain: [
      { name: 'name', type: 'shortstring' },
      { name: 'version', type: 'shortstring' },
      { name: 'chainId', type: 'shortstring' },
      { name: 'revision', type: 'shortstring' },
    ],
    OutsideExecution: [
      { name: 'Caller', type: 'ContractAddress' },
      { name: 'Nonce', type: 'felt' },
      { name: 'Execute After', type: 'u128' },
      { name: 'Execute Before', type: 'u128' },
      { name: 'Calls', type: 'Call*' },
    ],
    Call: [
      { name: 'To', type: 'ContractAddress' },
      { name: 'Selector', type: 'selector' },
      { name: 'Calldata', type: 'felt*' },
    ],
  },
};

/** The typed data the account's `version` signs for `execution` on `chainId`. */
export function outsideExecutionTypedData(
  version: Snip9Version,
  chainId: bigint,
  execution: OutsideExecution,
): OutsideExecutionTypedData {
  if (version === 1) {
    return {
      types: OUTSIDE_EXECUTION_TYPES[1],
      primaryType: 'OutsideExecution',
      domain: { name: OUTSIDE_EXECUTION_DOMAIN, version: '1', chainId: toHex(chainId) },
      message: {
        caller: toHex(execution.caller),
        nonce: toHex(execution.nonce),
        execute_after: toHex(execution.executeAfter),
        execute_before: toHex(execution.executeBefore),
        calls_len: toHex(BigInt(execution.calls.length)),
        calls: execution.calls.map((call) => ({
          to: toHex(call.to),
          selector: toHex(call.selector),
          // types-js types calldata_len as FELT[] (a slip in its d.ts); the spec's is a FELT.
          calldata_len: toHex(BigInt(call.calldata.length)) as unknown as string[],
          calldata: hexList(call.calldata),
        })),
      },
    };
  }
  return {
    types: OUTSIDE_EXECUTION_TYPES[2],
    primaryType: 'OutsideExecution',
    domain: {
      name: OUTSIDE_EXECUTION_DOMAIN,
      version: '2',
      chainId: toHex(chainId),
      revision: '1',
    },
    message: {
      Caller: toHex(execution.caller),
      Nonce: toHex(execution.nonce),
      'Execute After': toHex(execution.executeAfter),
      'Execute Before': toHex(execution.executeBefore),
      Calls: execution.calls.map((call) => ({
        To: toHex(call.to),
        Selector: toHex(call.selector),
        Calldata: hexList(call.calldata),
      })),
    },
  };
}

/** The relayer's call: execute_from_outside[_v2](outside_execution, signature) on the account. */
export function executeFromOutsideCall(
  version: Snip9Version,
  account: bigint,
  execution: OutsideExecution,
  signature: readonly bigint[],
): Call {
  const { caller, nonce, executeAfter, executeBefore, calls } = execution;
  return {
    to: account,
    selector: version === 1 ? SELECTORS.executeFromOutside : SELECTORS.executeFromOutsideV2,
    // The calls are serialised as __execute__'s Array<Call>.
    calldata: [
      caller,
      nonce,
      executeAfter,
      executeBefore,
      ...multicallCalldata(calls),
      BigInt(signature.length),
      ...signature,
    ],
  };
}
