/**
 * SNIP-9 outside execution: typed data (domain `Account.execute_from_outside`) whose signature
 * lets anyone submit the calls it lists from the user's account. Versions 1 and 2 (member names:
 * @l2wallet/starknet-protocol) are read into one view the dialog shows like a transaction.
 */
import {
  ANY_CALLER,
  type Erc20Token,
  OUTSIDE_EXECUTION_DOMAIN,
  OUTSIDE_EXECUTION_KEYS,
} from '@l2wallet/starknet-protocol';

import { invalidParams } from '../../errors';
import { formatAddress } from '../felt';
import { ERC20_ENTRY_POINTS, isErc20EntryPoint, knownEntryPoint } from '../selectors';

import { findTokenIn } from '../tokens';
import { formatUnits } from '../units';
import type { TypedDataValue } from '.';
import { domainTypeName, hashedFelt, isPlainObject, structMembers } from './types';

export type OutsideCallView = {
  to: string;
  /** The token at `to`, when it is in the watch list. */
  token?: Erc20Token;
  functionName: string;
  selector: string;
  /** Every calldata felt as hashed (hex). */
  calldata: string[];
  /** Decoded arguments, or every calldata felt. */
  args: [label: string, value: string][];
};

export type OutsideExecutionView = {
  version: 1 | 2;
  /** undefined: anyone may submit it. */
  caller?: string;
  nonce: string;
  executeAfter: bigint;
  executeBefore: bigint;
  calls: OutsideCallView[];
};

const FIELD = 'typedDataMessage.message';

/** The declared type of `key` in struct `struct`; -32602 naming `path` when it has none. */
function typeOf(data: TypedDataValue, struct: string, key: string, path: string): string {
  const type = structMembers(data, struct)?.find((member) => member.name === key)?.type;
  if (type === undefined) {
    throw invalidParams(path, `is not declared in type "${struct}"`);
  }
  return type;
}

/** The felt `value` hashes to as `type` (types.ts hashedFelt): what the dialog shows. */
function hashed(data: TypedDataValue, type: string, value: unknown, path: string): bigint {
  try {
    return hashedFelt(data, type, value);
  } catch {
    throw invalidParams(path, `is not a ${type} the outside execution can hold: ${String(value)}`);
  }
}

function hex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** OUTSIDE_EXECUTION_DOMAIN as the short-string felt an account hashes. */
const OUTSIDE_EXECUTION_NAME = BigInt(
  `0x${[...OUTSIDE_EXECUTION_DOMAIN].map((char) => char.charCodeAt(0).toString(16)).join('')}`,
);

/**
 * Whether the typed data is a SNIP-9 outside execution: decided by the felt its domain's `name`
 * hashes to (its declared type, read as starknet.js encodes it), so no spelling of that name
 * (text, decimal, hex of any length, "0X") passes as an ordinary message.
 */
export function isOutsideExecution(data: TypedDataValue): boolean {
  const type = structMembers(data, domainTypeName(data))?.find(
    (member) => member.name === 'name',
  )?.type;
  if (type === undefined || data.domain.name === undefined) {
    return false;
  }
  try {
    return hashedFelt(data, type, data.domain.name) === OUTSIDE_EXECUTION_NAME;
  } catch {
    return false;
  }
}

function decodeArgs(
  functionName: string,
  calldata: bigint[],
  token: Erc20Token | undefined,
  tokens: Erc20Token[],
): [string, string][] {
  if (isErc20EntryPoint(functionName)) {
    const names = ERC20_ENTRY_POINTS[functionName];
    // Addresses, then the amount as a u256 (low, high).
    if (calldata.length === names.length + 2) {
      const amount = calldata[names.length] + (calldata[names.length + 1] << 128n);
      const rows: [string, string][] = names.map((name, index) => {
        const account = formatAddress(calldata[index]);
        const known = findTokenIn(tokens, account);
        return [name, known ? `${account} (${known.symbol})` : account];
      });
      rows.push([
        'amount',
        token
          ? `${formatUnits(amount, token.decimals, token.symbol)} (${amount})`
          : `${amount} (raw units: this token is not in your watch list)`,
      ]);
      return rows;
    }
  }
  if (calldata.length === 0) {
    return [['calldata', '(none)']];
  }
  return calldata.map((value, index) => [`calldata[${index}]`, hex(value)]);
}

function readCall(
  data: TypedDataValue,
  callType: string,
  call: unknown,
  index: number,
  version: 1 | 2,
  tokens: Erc20Token[],
): OutsideCallView {
  const keys = OUTSIDE_EXECUTION_KEYS[version];
  const path = `${FIELD}.${keys.calls}.${index}`;
  if (!isPlainObject(call)) {
    throw invalidParams(path, 'must be a call: an object');
  }
  const { to: toKey, selector: selectorKey, calldata: calldataKey, calldataLength } = keys;
  const member = (key: string): string => typeOf(data, callType, key, `${path}.${key}`);
  const to = formatAddress(hashed(data, member(toKey), call[toKey], `${path}.${toKey}`));
  const rawSelector = call[selectorKey];
  // As hashed: a `selector` given by name is its starknet_keccak, a `felt` text its short string.
  const selectorType = member(selectorKey);
  const selector = hashed(data, selectorType, rawSelector, `${path}.${selectorKey}`);
  const givenCalldata = call[calldataKey];
  const calldataType = member(calldataKey);
  if (!Array.isArray(givenCalldata) || !calldataType.endsWith('*')) {
    throw invalidParams(`${path}.${calldataKey}`, 'must be a list of felts');
  }
  const calldata = givenCalldata.map((value, position) =>
    hashed(data, calldataType.slice(0, -1), value, `${path}.${calldataKey}.${position}`),
  );
  if (
    calldataLength &&
    hashed(data, member(calldataLength), call[calldataLength], `${path}.${calldataLength}`) !==
      BigInt(calldata.length)
  ) {
    throw invalidParams(
      `${path}.${calldataLength}`,
      `must equal the length of calldata (${calldata.length})`,
    );
  }
  // A name the site gave is shown only where it is what was hashed (its starknet_keccak).
  const givenName =
    selectorType === 'selector' && typeof rawSelector === 'string' && !/^0x/iu.test(rawSelector)
      ? rawSelector
      : undefined;
  const functionName = knownEntryPoint(selector) ?? givenName ?? hex(selector);
  const token = findTokenIn(tokens, to);
  return {
    to,
    ...(token ? { token } : {}),
    functionName,
    selector: hex(selector),
    calldata: calldata.map(hex),
    args: decodeArgs(functionName, calldata, token, tokens),
  };
}

/**
 * The outside execution's view, -32602 when the domain says outside execution but the message
 * is neither version's shape (the snap does not sign what it cannot show as such).
 */
export function readOutsideExecution(
  data: TypedDataValue,
  tokens: Erc20Token[],
): OutsideExecutionView {
  const { message } = data;
  const version: 1 | 2 | undefined = 'Calls' in message ? 2 : 'calls' in message ? 1 : undefined;
  if (data.primaryType !== 'OutsideExecution' || version === undefined) {
    throw invalidParams(
      'typedDataMessage',
      `has the outside-execution domain "${OUTSIDE_EXECUTION_DOMAIN}" but is not a SNIP-9 OutsideExecution (version 1 or 2) the snap can show`,
    );
  }
  const keys = OUTSIDE_EXECUTION_KEYS[version];
  const { caller: callerKey, nonce: nonceKey, calls: callsKey, callsLength } = keys;
  const member = (key: string): string => typeOf(data, 'OutsideExecution', key, `${FIELD}.${key}`);
  const value = (key: string): bigint => hashed(data, member(key), message[key], `${FIELD}.${key}`);
  const calls = message[callsKey];
  const callsType = member(callsKey);
  if (!Array.isArray(calls) || !callsType.endsWith('*')) {
    throw invalidParams(`${FIELD}.${callsKey}`, 'must be a list of calls');
  }
  if (callsLength && value(callsLength) !== BigInt(calls.length)) {
    throw invalidParams(
      `${FIELD}.${callsLength}`,
      `must equal the number of calls (${calls.length})`,
    );
  }
  const caller = value(callerKey);
  return {
    version,
    ...(caller === ANY_CALLER ? {} : { caller: formatAddress(caller) }),
    nonce: hex(value(nonceKey)),
    executeAfter: value(keys.executeAfter),
    executeBefore: value(keys.executeBefore),
    calls: calls.map((call, index) =>
      readCall(data, callsType.slice(0, -1), call, index, version, tokens),
    ),
  };
}
