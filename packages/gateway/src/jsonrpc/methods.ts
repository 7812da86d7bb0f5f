/**
 * THE method table: every method the gateway serves, with its positional params. Credits come
 * from credits/costs.ts (one entry per method there, enforced by the type). A method not listed
 * is -32601 and is not charged.
 */
import { COSTS, type MethodName, STARKNET_COSTS, type StarknetMethodName } from '../credits/costs';
import { errors } from './errors';
import {
  address,
  any,
  block,
  blockCount,
  bool,
  bytes,
  callObject,
  filterObject,
  hash32,
  opt,
  type Param,
  percentiles,
  quantity,
  req,
  storageKeys,
  subscriptionId,
  subscriptionKind,
} from './params';
import { STARKNET_TABLE } from './starknet';

/** What an upstream node speaks, and so which method table a chain serves: Ethereum JSON-RPC, or
 * Starknet JSON-RPC 0.9 / 0.10. */
export type Protocol = 'evm' | 'starknet';

export interface MethodSpec {
  params: Param[];
  cost: number;
  /** Safe to send again to the next upstream after a failure. */
  retryable: boolean;
  /** Subscriptions exist only on a WebSocket connection. */
  wsOnly?: boolean;
  /** Params may also come by name, as an object (Starknet). */
  named?: boolean;
}

const read = (params: Param[]) => ({ params, retryable: true });
const blockParam = block({ objects: true });

const TABLE: Record<MethodName, { params: Param[]; retryable: boolean; wsOnly?: boolean }> = {
  // docs/interface/gateway.md#methods
  eth_getTransactionByBlockNumberAndIndex: read([
    req('block', block({ safe: false })),
    req('index', quantity),
  ]),
  eth_getTransactionByBlockHashAndIndex: read([req('blockHash', hash32), req('index', quantity)]),
  eth_getBlockByHash: read([req('blockHash', hash32), req('fullTransactions', bool)]),
  // `from` and the block are optional (docs/interface/gateway.md#eth_call): clients omit them.
  eth_call: read([req('call', callObject), opt('block', blockParam), opt('stateOverride', any)]),
  eth_getTransactionReceipt: read([req('transactionHash', hash32)]),
  eth_getProof: read([
    req('address', address),
    req('storageKeys', storageKeys),
    req('block', blockParam),
  ]),
  // Client methods
  eth_chainId: read([]),
  net_version: read([]),
  eth_blockNumber: read([]),
  eth_gasPrice: read([]),
  eth_getBalance: read([req('address', address), opt('block', blockParam)]),
  eth_getCode: read([req('address', address), opt('block', blockParam)]),
  eth_getTransactionCount: read([req('address', address), opt('block', blockParam)]),
  eth_getStorageAt: read([
    req('address', address),
    req('slot', quantity),
    opt('block', blockParam),
  ]),
  eth_getBlockByNumber: read([req('block', block()), req('fullTransactions', bool)]),
  eth_getTransactionByHash: read([req('transactionHash', hash32)]),
  eth_feeHistory: read([
    req('blockCount', blockCount),
    req('newestBlock', block()),
    opt('rewardPercentiles', percentiles),
  ]),
  eth_getLogs: read([req('filter', filterObject)]),
  eth_estimateGas: read([
    req('call', callObject),
    opt('block', blockParam),
    opt('stateOverride', any),
  ]),
  // A second send of a signed transaction is harmless, but a timeout may hide a success: no retry.
  eth_sendRawTransaction: { params: [req('transaction', bytes)], retryable: false },
  eth_subscribe: {
    params: [req('kind', subscriptionKind), opt('filter', filterObject)],
    retryable: false,
    wsOnly: true,
  },
  eth_unsubscribe: {
    params: [req('subscription', subscriptionId)],
    retryable: false,
    wsOnly: true,
  },
};

export const METHODS: ReadonlyMap<string, MethodSpec> = new Map(
  Object.entries(TABLE).map(([name, spec]) => [name, { ...spec, cost: COSTS[name as MethodName] }]),
);

/** The methods of Starknet chains (jsonrpc/starknet.ts). */
export const STARKNET_METHODS: ReadonlyMap<string, MethodSpec> = new Map(
  Object.entries(STARKNET_TABLE).map(([name, spec]) => [
    name,
    { ...spec, named: true, cost: STARKNET_COSTS[name as StarknetMethodName] },
  ]),
);

/**
 * A chain's method table: an Ethereum method on a Starknet chain does not exist, and the reverse.
 */
export function methodsFor(protocol: Protocol): ReadonlyMap<string, MethodSpec> {
  return protocol === 'starknet' ? STARKNET_METHODS : METHODS;
}

/** Checks params against the table; throws -32602 naming the first bad param. */
export function validateParams(method: string, spec: MethodSpec, params: unknown): void {
  if (!Array.isArray(params)) {
    if (!spec.named || typeof params !== 'object' || params === null) {
      throw errors.invalidParams('params must be an array');
    }
    return validateNamed(spec, params as Record<string, unknown>);
  }
  if (params.length > spec.params.length) {
    throw errors.invalidParams(
      `${method} takes at most ${spec.params.length} params (got ${params.length})`,
    );
  }
  spec.params.forEach((param, index) => {
    const value = params[index];
    if (value === undefined || (value === null && param.optional)) {
      if (!param.optional) throw errors.invalidParams(`missing param ${index} (${param.name})`);
      return;
    }
    const problem = param.check(value);
    if (problem === 'SAFE_UNSUPPORTED') throw errors.safeUnsupported();
    if (problem) throw errors.invalidParams(`param ${index} (${param.name}) ${problem}`);
  });
}

/** Params by name: every required name present, no unknown name, each value checked. */
function validateNamed(spec: MethodSpec, params: Record<string, unknown>): void {
  for (const name of Object.keys(params)) {
    if (!spec.params.some((p) => p.name === name)) {
      throw errors.invalidParams(`unknown param ${name}`);
    }
  }
  for (const param of spec.params) {
    const value = params[param.name];
    if (value === undefined) {
      if (!param.optional) throw errors.invalidParams(`missing param ${param.name}`);
      continue;
    }
    const problem = param.check(value);
    if (problem) throw errors.invalidParams(`param ${param.name} ${problem}`);
  }
}
