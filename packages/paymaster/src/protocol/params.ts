/**
 * SNIP-29's request params (assets/snip-29/paymaster_api.json: USER_TRANSACTION,
 * EXECUTABLE_USER_TRANSACTION, USER_PARAMETERS), read from JSON into typed values. A malformed
 * member is -32602 naming its path; the checks that need the chain are the flows'.
 */
import { errors } from '../errors';
import type { Call, Deployment } from './calls';
import { type Felt, onlyKeys, readFelt, readFelts, readObject } from './felt';
import { checkCalldataTotal, MAX_CALL_FELTS, MAX_USER_CALLS } from './limits';
import { parseOutsideExecutionTypedData, type ParsedOutsideExecution } from './outsideExecution';

/** SNIP-29's TIP_PRIORITY. */
export type Tip = 'slow' | 'normal' | 'fast' | { custom: bigint };

export type FeeMode =
  { mode: 'sponsored'; tip: Tip } | { mode: 'default'; gasToken: Felt; tip: Tip };

export interface TimeBounds {
  executeAfter: bigint;
  executeBefore: bigint;
}

export interface ExecutionParameters {
  feeMode: FeeMode;
  timeBounds?: TimeBounds;
}

export interface UserInvoke {
  userAddress: Felt;
  calls: Call[];
}

/** A transaction of either request: the two differ only in their invoke. */
type TransactionWith<Invoke> =
  | { type: 'deploy'; deployment: Deployment }
  | { type: 'invoke'; invoke: Invoke }
  | { type: 'deploy_and_invoke'; deployment: Deployment; invoke: Invoke };

export type UserTransaction = TransactionWith<UserInvoke>;

export interface ExecutableInvoke {
  userAddress: Felt;
  outside: ParsedOutsideExecution;
  signature: Felt[];
}

export type ExecutableTransaction = TransactionWith<ExecutableInvoke>;

const U64 = 1n << 64n;

/** Named params ({ transaction, parameters }) or positional ([transaction, parameters]). */
export function namedParams(params: unknown, names: string[]): Record<string, unknown> {
  if (params === undefined) return {};
  if (Array.isArray(params)) {
    if (params.length > names.length) {
      throw errors.invalidParams('params', `expected at most ${names.length} params`);
    }
    return Object.fromEntries(params.map((value, i) => [names[i], value]));
  }
  const object = readObject(params, 'params');
  onlyKeys(object, names, 'params');
  return object;
}

function readUserCalls(value: unknown, field: string): Call[] {
  if (!Array.isArray(value)) throw errors.invalidParams(field, 'expected an array of calls');
  if (value.length === 0) throw errors.invalidParams(field, 'an invoke needs at least one call');
  if (value.length > MAX_USER_CALLS) {
    throw errors.invalidParams(field, `more than ${MAX_USER_CALLS} calls`);
  }
  const calls = value.map((raw, i) => {
    const call = readObject(raw, `${field}[${i}]`);
    onlyKeys(call, ['to', 'selector', 'calldata'], `${field}[${i}]`);
    return {
      to: readFelt(call.to, `${field}[${i}].to`),
      selector: readFelt(call.selector, `${field}[${i}].selector`),
      calldata: readFelts(call.calldata ?? [], `${field}[${i}].calldata`, MAX_CALL_FELTS),
    };
  });
  checkCalldataTotal(calls, field);
  return calls;
}

export function readDeployment(value: unknown, field: string): Deployment {
  const data = readObject(value, field);
  onlyKeys(data, ['address', 'class_hash', 'salt', 'calldata', 'sigdata', 'version'], field);
  if (data.version !== 1) {
    throw errors.invalidDeploymentData(
      `${field}.version must be 1 (a Cairo 1 account; Cairo 0 is not supported)`,
    );
  }
  const sigdata = data.sigdata === undefined ? [] : readFelts(data.sigdata, `${field}.sigdata`);
  if (sigdata.length > 0) {
    throw errors.invalidDeploymentData(
      `${field}.sigdata: the account is deployed through the Universal Deployer, which takes no signature data`,
    );
  }
  return {
    address: readFelt(data.address, `${field}.address`),
    classHash: readFelt(data.class_hash, `${field}.class_hash`),
    salt: readFelt(data.salt, `${field}.salt`),
    calldata: readFelts(data.calldata, `${field}.calldata`, MAX_CALL_FELTS),
  };
}

function readType(value: unknown, field: string): 'deploy' | 'invoke' | 'deploy_and_invoke' {
  if (value === 'deploy' || value === 'invoke' || value === 'deploy_and_invoke') return value;
  throw errors.invalidParams(field, 'expected "deploy", "invoke" or "deploy_and_invoke"');
}

/**
 * `transaction` of either request; `readInvoke` reads its invoke member (at `transaction.invoke`).
 */
function readTransaction<Invoke>(
  value: unknown,
  readInvoke: (invoke: Record<string, unknown>, at: string) => Invoke,
): TransactionWith<Invoke> {
  const field = 'transaction';
  const tx = readObject(value, field);
  const type = readType(tx.type, `${field}.type`);
  const invoke = () => readInvoke(readObject(tx.invoke, `${field}.invoke`), `${field}.invoke`);
  if (type === 'deploy') {
    onlyKeys(tx, ['type', 'deployment'], field);
    return { type, deployment: readDeployment(tx.deployment, `${field}.deployment`) };
  }
  if (type === 'invoke') {
    onlyKeys(tx, ['type', 'invoke'], field);
    return { type, invoke: invoke() };
  }
  onlyKeys(tx, ['type', 'deployment', 'invoke'], field);
  return {
    type,
    deployment: readDeployment(tx.deployment, `${field}.deployment`),
    invoke: invoke(),
  };
}

/** USER_TRANSACTION (paymaster_buildTransaction). */
export const readUserTransaction = (value: unknown): UserTransaction =>
  readTransaction(value, (invoke, at): UserInvoke => {
    onlyKeys(invoke, ['user_address', 'calls'], at);
    return {
      userAddress: readFelt(invoke.user_address, `${at}.user_address`),
      calls: readUserCalls(invoke.calls, `${at}.calls`),
    };
  });

/** EXECUTABLE_USER_TRANSACTION (paymaster_executeTransaction). */
export const readExecutableTransaction = (value: unknown): ExecutableTransaction =>
  readTransaction(value, (invoke, at): ExecutableInvoke => {
    onlyKeys(invoke, ['user_address', 'typed_data', 'signature'], at);
    return {
      userAddress: readFelt(invoke.user_address, `${at}.user_address`),
      outside: parseOutsideExecutionTypedData(invoke.typed_data, `${at}.typed_data`),
      signature: readFelts(invoke.signature, `${at}.signature`, 64),
    };
  });

function readTip(value: unknown, field: string): Tip {
  if (value === undefined) return 'normal';
  if (value === 'slow' || value === 'normal' || value === 'fast') return value;
  const custom = readObject(value, field);
  onlyKeys(custom, ['custom'], field);
  const amount = readFelt(custom.custom, `${field}.custom`);
  if (amount >= U64) throw errors.invalidParams(`${field}.custom`, 'a tip is a u64');
  return { custom: amount };
}

/** A TIMESTAMP: the spec's decimal string; a number or a hex string is taken too. */
function readTimestamp(value: unknown, field: string): bigint {
  const seconds = readFelt(value, field);
  if (seconds >= U64) throw errors.invalidParams(field, 'a timestamp is a u64');
  return seconds;
}

/** USER_PARAMETERS (version 0x1). */
export function readExecutionParameters(value: unknown): ExecutionParameters {
  const field = 'parameters';
  const parameters = readObject(value, field);
  onlyKeys(parameters, ['version', 'fee_mode', 'time_bounds'], field);
  if (parameters.version !== '0x1') {
    throw errors.invalidParams(`${field}.version`, 'expected "0x1"');
  }
  const feeMode = readObject(parameters.fee_mode, `${field}.fee_mode`);
  let mode: FeeMode;
  if (feeMode.mode === 'sponsored') {
    onlyKeys(feeMode, ['mode', 'tip'], `${field}.fee_mode`);
    mode = { mode: 'sponsored', tip: readTip(feeMode.tip, `${field}.fee_mode.tip`) };
  } else if (feeMode.mode === 'default') {
    onlyKeys(feeMode, ['mode', 'gas_token', 'tip'], `${field}.fee_mode`);
    mode = {
      mode: 'default',
      gasToken: readFelt(feeMode.gas_token, `${field}.fee_mode.gas_token`),
      tip: readTip(feeMode.tip, `${field}.fee_mode.tip`),
    };
  } else {
    throw errors.invalidParams(`${field}.fee_mode.mode`, 'expected "sponsored" or "default"');
  }
  if (parameters.time_bounds === undefined || parameters.time_bounds === null) {
    return { feeMode: mode };
  }
  const bounds = readObject(parameters.time_bounds, `${field}.time_bounds`);
  onlyKeys(bounds, ['execute_after', 'execute_before'], `${field}.time_bounds`);
  return {
    feeMode: mode,
    timeBounds: {
      executeAfter: readTimestamp(bounds.execute_after, `${field}.time_bounds.execute_after`),
      executeBefore: readTimestamp(bounds.execute_before, `${field}.time_bounds.execute_before`),
    },
  };
}
