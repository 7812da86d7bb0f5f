/**
 * SNIP-9 outside execution from a client: its typed data read back strictly (only the exact
 * shapes @l2wallet/starknet-protocol builds), and hashed as the account signs it.
 */
import {
  OUTSIDE_EXECUTION_DOMAIN as DOMAIN_NAME,
  OUTSIDE_EXECUTION_KEYS,
  OUTSIDE_EXECUTION_TYPES as TYPES,
  type OutsideExecution,
  type OutsideExecutionKeys,
  outsideExecutionTypedData,
  type Snip9Version,
  type TypedDataTypes,
} from '@l2wallet/starknet-protocol';
import { shortString, type TypedData, typedData } from 'starknet';

import { errors } from '../errors';
import type { Call } from './calls';
import { type Felt, onlyKeys, readFelt, readFelts, readObject, toHex } from './felt';
import { checkCalldataTotal, MAX_CALL_FELTS, MAX_USER_CALLS } from './limits';

export {
  executeFromOutsideCall,
  type OutsideExecution,
  outsideExecutionTypedData,
  SNIP9_INTERFACE_IDS,
  type Snip9Version,
} from '@l2wallet/starknet-protocol';

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

function sameTypes(actual: unknown, expected: TypedDataTypes) {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** The user's calls and the fee transfer. */
const MAX_CALLS = MAX_USER_CALLS + 1;

function readCalls(value: unknown, field: string, keys: OutsideExecutionKeys): Call[] {
  if (!Array.isArray(value)) throw errors.invalidParams(field, 'expected an array of calls');
  if (value.length > MAX_CALLS) throw errors.invalidParams(field, `more than ${MAX_CALLS} calls`);
  const { to, selector, calldata: data, calldataLength: length } = keys;
  const calls = value.map((raw, i) => {
    const at = `${field}[${i}]`;
    const call = readObject(raw, at);
    onlyKeys(call, [to, selector, data, ...(length ? [length] : [])], at);
    const calldata = readFelts(call[data], `${at}.${data}`, MAX_CALL_FELTS);
    if (length && readFelt(call[length], `${at}.${length}`) !== BigInt(calldata.length)) {
      throw errors.invalidParams(`${at}.${length}`, 'does not match the calldata length');
    }
    return {
      to: readFelt(call[to], `${at}.${to}`),
      selector: readFelt(call[selector], `${at}.${selector}`),
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
  const keys = OUTSIDE_EXECUTION_KEYS[version];
  const { caller, nonce, executeAfter, executeBefore, callsLength } = keys;
  const members = [caller, nonce, executeAfter, executeBefore, keys.calls];
  onlyKeys(message, callsLength ? [...members, callsLength] : members, m);
  const readMessageCalls = () => readCalls(message[keys.calls], `${m}.${keys.calls}`, keys);
  // Version 1's calls are read first, to be counted against its calls_len.
  let counted: Call[] | undefined;
  if (callsLength) {
    counted = readMessageCalls();
    if (readFelt(message[callsLength], `${m}.${callsLength}`) !== BigInt(counted.length)) {
      throw errors.invalidParams(`${m}.${callsLength}`, 'does not match the number of calls');
    }
  }
  const felt = (key: string): Felt => readFelt(message[key], `${m}.${key}`);
  return {
    version,
    chainId,
    execution: {
      caller: felt(caller),
      nonce: felt(nonce),
      executeAfter: felt(executeAfter),
      executeBefore: felt(executeBefore),
      calls: counted ?? readMessageCalls(),
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
