/**
 * The contracts a call targets, for a key's contract allowlist (`keys allow --contract`): on EVM
 * chains the addresses a call reads, on Starknet also the calls an invoke's calldata hands to the
 * account's `__execute__`. `undefined`: the call targets no contract (the allowlist does not
 * apply). `null`: it does, but the targets cannot be told, so a key with a list refuses it.
 * Each method's rule: docs/architecture/gateway.md#contract-targets.
 */
import { STARKNET_TABLE } from './starknet';

export type Targets = string[] | null | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Params by position or by name, read by name (the Starknet method table's names). */
function named(method: string, params: unknown): Record<string, unknown> {
  if (!Array.isArray(params)) return isObject(params) ? params : {};
  const spec = STARKNET_TABLE[method as keyof typeof STARKNET_TABLE];
  const out: Record<string, unknown> = {};
  spec?.params.forEach((param, index) => {
    out[param.name] = params[index];
  });
  return out;
}

export function contractTargets(method: string, params: unknown): Targets {
  switch (method) {
    case 'eth_call':
    case 'eth_estimateGas': {
      const to = (params as unknown[])[0] as Record<string, unknown> | undefined;
      return typeof to?.to === 'string' ? [to.to] : null;
    }
    case 'eth_getLogs': {
      const address = ((params as unknown[])[0] as Record<string, unknown> | undefined)?.address;
      return addresses(address);
    }
    case 'eth_getProof': {
      const address = (params as unknown[])[0];
      return typeof address === 'string' ? [address] : null;
    }
    case 'eth_subscribe': {
      const [kind, filter] = params as unknown[];
      if (kind !== 'logs') return undefined;
      return isObject(filter) ? addresses(filter.address) : null;
    }
    case 'starknet_getStorageAt': {
      const address = named(method, params).contract_address;
      return typeof address === 'string' ? [address] : null;
    }
    case 'starknet_call': {
      const request = named(method, params).request;
      return isObject(request) && typeof request.contract_address === 'string'
        ? [request.contract_address]
        : null;
    }
    case 'starknet_getEvents': {
      const filter = named(method, params).filter;
      return isObject(filter) ? addresses(filter.address) : null;
    }
    // A subscription to events follows its from_address (one, or a list as starknet.js sends).
    case 'starknet_subscribeEvents':
      return addresses(named(method, params).from_address);
    case 'starknet_estimateFee':
      return transactionsTargets(named(method, params).request);
    case 'starknet_simulateTransactions':
      return transactionsTargets(named(method, params).transactions);
    case 'starknet_addInvokeTransaction':
      return transactionTargets(named(method, params).invoke_transaction);
    case 'starknet_addDeclareTransaction':
    case 'starknet_addDeployAccountTransaction':
      return null;
    default:
      return undefined;
  }
}

function addresses(value: unknown): Targets {
  const list = Array.isArray(value) ? value : [value];
  return list.length > 0 && list.every((a) => typeof a === 'string') ? (list as string[]) : null;
}

function transactionsTargets(transactions: unknown): Targets {
  if (!Array.isArray(transactions) || transactions.length === 0) return null;
  const all: string[] = [];
  for (const transaction of transactions) {
    const targets = transactionTargets(transaction);
    if (!targets) return null;
    all.push(...targets);
  }
  return all;
}

/** The contracts one broadcasted Starknet transaction calls. */
function transactionTargets(transaction: unknown): string[] | null {
  if (!isObject(transaction) || transaction.type !== 'INVOKE') return null;
  if (typeof transaction.contract_address === 'string') return [transaction.contract_address];
  const calldata = transaction.calldata;
  if (!Array.isArray(calldata) || !calldata.every((c) => typeof c === 'string')) return null;
  let felts: bigint[];
  try {
    felts = (calldata as string[]).map((c) => BigInt(c));
  } catch {
    return null;
  }
  // Every shape the calldata can be read in: a call hidden by reading it one way is still seen.
  const readings = [cairo1Calls(felts), cairo0Calls(felts)].filter(
    (reading): reading is bigint[] => reading !== null,
  );
  if (readings.length === 0) return null;
  return [...new Set(readings.flat())].map((to) => `0x${to.toString(16)}`);
}

/** [n, (to, selector, len, data...) x n], consumed exactly; the `to` of each call. */
function cairo1Calls(felts: bigint[]): bigint[] | null {
  if (felts.length === 0) return null;
  const count = felts[0];
  if (count === 0n || count > 1000n) return null;
  const targets: bigint[] = [];
  let at = 1;
  for (let i = 0n; i < count; i++) {
    if (at + 3 > felts.length) return null;
    const length = felts[at + 2];
    if (length > BigInt(felts.length)) return null;
    targets.push(felts[at]);
    at += 3 + Number(length);
  }
  return at === felts.length ? targets : null;
}

/** [n, (to, selector, offset, len) x n, total, data... x total], consistent; the `to` of each. */
function cairo0Calls(felts: bigint[]): bigint[] | null {
  if (felts.length === 0) return null;
  const count = felts[0];
  if (count === 0n || count > 1000n) return null;
  const headEnd = 1 + Number(count) * 4;
  if (headEnd >= felts.length) return null;
  const total = felts[headEnd];
  if (BigInt(felts.length - headEnd - 1) !== total) return null;
  const targets: bigint[] = [];
  for (let i = 0; i < Number(count); i++) {
    const [to, , offset, length] = felts.slice(1 + i * 4, 5 + i * 4);
    if (offset + length > total) return null;
    targets.push(to);
  }
  return targets;
}
