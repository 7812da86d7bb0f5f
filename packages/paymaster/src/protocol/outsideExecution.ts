/**
 * SNIP-9 outside execution: the typed data an account signs (version 1: SNIP-12 revision 0, as
 * Argent 0.3.1's execute_from_outside hashes it; version 2: revision 1, execute_from_outside_v2),
 * read back strictly from a client, hashed, and turned into the call the relayer makes.
 */
import type { OutsideExecutionTypedData } from '@starknet-io/types-js';
import { shortString, type TypedData, typedData } from 'starknet';

import { errors } from '../errors';
import { type Call, SELECTORS } from './calls';
import { type Felt, hexList, onlyKeys, readFelt, readFelts, readObject, toHex } from './felt';
import { checkCalldataTotal, MAX_CALL_FELTS, MAX_USER_CALLS } from './limits';

export type Snip9Version = 1 | 2;

/** The SRC-5 interface ids an account answers true for when it implements each version. */
export const SNIP9_INTERFACE_IDS: Record<Snip9Version, Felt> = {
  1: 0x68cfd18b92d1907b8ba3cc324900277f5a3622099431ea85dd8089255e4181n,
  2: 0x1d1144bb2138366ff28d8e9ab57456b1d332ac42196230c3a602003c89872n,
};

export interface OutsideExecution {
  caller: Felt;
  nonce: Felt;
  executeAfter: bigint;
  executeBefore: bigint;
  calls: Call[];
}

const DOMAIN_NAME = 'Account.execute_from_outside';

/** The types of each version, exactly as SNIP-9 (and SNIP-29) define them. */
const TYPES: Record<Snip9Version, Record<string, { name: string; type: string }[]>> = {
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
  chainId: Felt,
  execution: OutsideExecution,
): OutsideExecutionTypedData {
  if (version === 1) {
    return {
      types: TYPES[1],
      primaryType: 'OutsideExecution',
      domain: { name: DOMAIN_NAME, version: '1', chainId: toHex(chainId) },
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
    types: TYPES[2],
    primaryType: 'OutsideExecution',
    domain: { name: DOMAIN_NAME, version: '2', chainId: toHex(chainId), revision: '1' },
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

export interface ParsedOutsideExecution {
  version: Snip9Version;
  chainId: Felt;
  execution: OutsideExecution;
}

/** A domain value: a felt, or a short string ('SN_SEPOLIA', '1'). */
function domainFelt(value: unknown, field: string): Felt {
  if (typeof value === 'number') return readFelt(value, field);
  if (typeof value !== 'string') throw errors.invalidParams(field, 'expected a felt');
  if (/^0x[0-9a-fA-F]+$/.test(value)) return readFelt(value, field);
  if (/^[0-9]+$/.test(value)) return BigInt(value);
  if (value.length > 31) throw errors.invalidParams(field, 'is not a short string');
  return BigInt(shortString.encodeShortString(value));
}

function sameTypes(actual: unknown, expected: Record<string, { name: string; type: string }[]>) {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** The user's calls and the fee transfer. */
const MAX_CALLS = MAX_USER_CALLS + 1;

function readCalls(
  value: unknown,
  field: string,
  names: { to: string; selector: string; calldata: string; length?: string },
): Call[] {
  if (!Array.isArray(value)) throw errors.invalidParams(field, 'expected an array of calls');
  if (value.length > MAX_CALLS) throw errors.invalidParams(field, `more than ${MAX_CALLS} calls`);
  const calls = value.map((raw, i) => {
    const at = `${field}[${i}]`;
    const call = readObject(raw, at);
    const known = [
      names.to,
      names.selector,
      names.calldata,
      ...(names.length ? [names.length] : []),
    ];
    onlyKeys(call, known, at);
    const calldata = readFelts(call[names.calldata], `${at}.${names.calldata}`, MAX_CALL_FELTS);
    if (
      names.length &&
      readFelt(call[names.length], `${at}.${names.length}`) !== BigInt(calldata.length)
    ) {
      throw errors.invalidParams(`${at}.${names.length}`, 'does not match the calldata length');
    }
    return {
      to: readFelt(call[names.to], `${at}.${names.to}`),
      selector: readFelt(call[names.selector], `${at}.${names.selector}`),
      calldata,
    };
  });
  checkCalldataTotal(calls, field);
  return calls;
}

/**
 * Reads a client's outside-execution typed data, accepting only the exact SNIP-9 shapes (types,
 * primary type, domain name and version): anything else is not something this paymaster built.
 */
export function parseOutsideExecutionTypedData(
  value: unknown,
  field: string,
): ParsedOutsideExecution {
  const data = readObject(value, field);
  onlyKeys(data, ['types', 'primaryType', 'domain', 'message'], field);
  const domain = readObject(data.domain, `${field}.domain`);
  const version =
    domain.version === '1' || domain.version === 1
      ? 1
      : domain.version === '2' || domain.version === 2
        ? 2
        : undefined;
  if (version === undefined) {
    throw errors.invalidParams(`${field}.domain.version`, 'expected SNIP-9 version "1" or "2"');
  }
  if (!sameTypes(data.types, TYPES[version])) {
    throw errors.invalidParams(`${field}.types`, `are not SNIP-9 version ${version}'s types`);
  }
  if (data.primaryType !== 'OutsideExecution') {
    throw errors.invalidParams(`${field}.primaryType`, 'expected "OutsideExecution"');
  }
  onlyKeys(
    domain,
    version === 1 ? ['name', 'version', 'chainId'] : ['name', 'version', 'chainId', 'revision'],
    `${field}.domain`,
  );
  if (domain.name !== DOMAIN_NAME) {
    throw errors.invalidParams(`${field}.domain.name`, `expected "${DOMAIN_NAME}"`);
  }
  if (version === 2 && domain.revision !== '1' && domain.revision !== 1) {
    throw errors.invalidParams(`${field}.domain.revision`, 'expected SNIP-12 revision 1');
  }
  const chainId = domainFelt(domain.chainId, `${field}.domain.chainId`);
  const message = readObject(data.message, `${field}.message`);
  const m = `${field}.message`;
  if (version === 1) {
    onlyKeys(
      message,
      ['caller', 'nonce', 'execute_after', 'execute_before', 'calls_len', 'calls'],
      m,
    );
    const calls = readCalls(message.calls, `${m}.calls`, {
      to: 'to',
      selector: 'selector',
      calldata: 'calldata',
      length: 'calldata_len',
    });
    if (readFelt(message.calls_len, `${m}.calls_len`) !== BigInt(calls.length)) {
      throw errors.invalidParams(`${m}.calls_len`, 'does not match the number of calls');
    }
    return {
      version,
      chainId,
      execution: {
        caller: readFelt(message.caller, `${m}.caller`),
        nonce: readFelt(message.nonce, `${m}.nonce`),
        executeAfter: readFelt(message.execute_after, `${m}.execute_after`),
        executeBefore: readFelt(message.execute_before, `${m}.execute_before`),
        calls,
      },
    };
  }
  onlyKeys(message, ['Caller', 'Nonce', 'Execute After', 'Execute Before', 'Calls'], m);
  return {
    version,
    chainId,
    execution: {
      caller: readFelt(message.Caller, `${m}.Caller`),
      nonce: readFelt(message.Nonce, `${m}.Nonce`),
      executeAfter: readFelt(message['Execute After'], `${m}.Execute After`),
      executeBefore: readFelt(message['Execute Before'], `${m}.Execute Before`),
      calls: readCalls(message.Calls, `${m}.Calls`, {
        to: 'To',
        selector: 'Selector',
        calldata: 'Calldata',
      }),
    },
  };
}

/** The SNIP-12 message hash `account` signs (and checks) for this outside execution. */
export function outsideExecutionHash(
  version: Snip9Version,
  chainId: Felt,
  execution: OutsideExecution,
  account: Felt,
): Felt {
  const data = outsideExecutionTypedData(version, chainId, execution);
  return BigInt(typedData.getMessageHash(data as TypedData, toHex(account)));
}

/** The relayer's call: execute_from_outside[_v2](outside_execution, signature) on the account. */
export function executeFromOutsideCall(
  version: Snip9Version,
  account: Felt,
  execution: OutsideExecution,
  signature: readonly Felt[],
): Call {
  const calldata: Felt[] = [
    execution.caller,
    execution.nonce,
    execution.executeAfter,
    execution.executeBefore,
    BigInt(execution.calls.length),
  ];
  for (const call of execution.calls) {
    calldata.push(call.to, call.selector, BigInt(call.calldata.length), ...call.calldata);
  }
  calldata.push(BigInt(signature.length), ...signature);
  return {
    to: account,
    selector: version === 1 ? SELECTORS.executeFromOutside : SELECTORS.executeFromOutsideV2,
    calldata,
  };
}
