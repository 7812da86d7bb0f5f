/**
 * SNIP-9 outside execution, the names: the typed data domain, the member names of each version
 * (1: SNIP-12 revision 0, as Argent 0.3.1's execute_from_outside hashes it; 2: revision 1,
 * execute_from_outside_v2), the caller anyone may be, and the SRC-5 ids of each version. The snap
 * reads a paymaster's typed data by them; the paymaster builds it from them
 * (outsideExecutionTypedData.ts).
 */

export type Snip9Version = 1 | 2;

export const OUTSIDE_EXECUTION_DOMAIN = 'Account.execute_from_outside';

/** The caller value that lets any account submit the execution ('ANY_CALLER' as a short string). */
export const ANY_CALLER = 0x414e595f43414c4c4552n;

/** The SRC-5 interface ids an account answers true for when it implements each version. */
export const SNIP9_INTERFACE_IDS: Record<Snip9Version, bigint> = {
  1: 0x68cfd18b92d1907b8ba3cc324900277f5a3622099431ea85dd8089255e4181n,
  2: 0x1d1144bb2138366ff28d8e9ab57456b1d332ac42196230c3a602003c89872n,
};

/** The member names of an outside execution's message and of its calls. */
export interface OutsideExecutionKeys {
  caller: string;
  nonce: string;
  executeAfter: string;
  executeBefore: string;
  calls: string;
  /** Version 1 states the number of calls, and each call its calldata's length. */
  callsLength?: string;
  to: string;
  selector: string;
  calldata: string;
  calldataLength?: string;
}

/** The member names of each version. */
export const OUTSIDE_EXECUTION_KEYS: Record<Snip9Version, OutsideExecutionKeys> = {
  1: {
    caller: 'caller',
    nonce: 'nonce',
    executeAfter: 'execute_after',
    executeBefore: 'execute_before',
    calls: 'calls',
    callsLength: 'calls_len',
    to: 'to',
    selector: 'selector',
    calldata: 'calldata',
    calldataLength: 'calldata_len',
  },
  2: {
    caller: 'Caller',
    nonce: 'Nonce',
    executeAfter: 'Execute After',
    executeBefore: 'Execute Before',
    calls: 'Calls',
    to: 'To',
    selector: 'Selector',
    calldata: 'Calldata',
  },
};
