import { ec, hash, num, transaction } from 'starknet';
import type { PredeployedAccount } from '../src/core/predeployed';
import { rpc, RpcReply, RpcV3Transaction, starknetJsTransactionHash } from './helpers';
import { errorProblems, resultProblems, schemaProblems, specMethodNames } from './spec/schemas';

// Calls methods on a running devnet and holds every result and error to the starknet-specs
// v0.10.0 schemas (test/spec), counting what was exercised so a suite can prove it covered
// every method.

const READ_API = 'starknet_api_openrpc.json#/components/schemas/';

/** The spec's block `oneOf` halves: a confirmed block matches both, so pick by the block id. */
const BLOCK_HALVES: Record<string, [string, string]> = {
  starknet_getBlockWithTxHashes: ['BLOCK_WITH_TX_HASHES', 'PRE_CONFIRMED_BLOCK_WITH_TX_HASHES'],
  starknet_getBlockWithTxs: ['BLOCK_WITH_TXS', 'PRE_CONFIRMED_BLOCK_WITH_TXS'],
  starknet_getBlockWithReceipts: ['BLOCK_WITH_RECEIPTS', 'PRE_CONFIRMED_BLOCK_WITH_RECEIPTS'],
  starknet_getStateUpdate: ['STATE_UPDATE', 'PRE_CONFIRMED_STATE_UPDATE'],
};

/** The HTTP methods of the read, write and trace APIs (the WebSocket API is served apart). */
export function httpSpecMethods(): string[] {
  return specMethodNames().filter((name) => !/^starknet_(subscri|unsubscribe)/.test(name));
}

export class Conformance {
  /** Method -> how many results and which error codes were checked. */
  readonly seen = new Map<string, { results: number; errors: Set<number> }>();

  constructor(readonly url: string) {}

  private entry(method: string): { results: number; errors: Set<number> } {
    let entry = this.seen.get(method);
    if (!entry) {
      entry = { results: 0, errors: new Set() };
      this.seen.set(method, entry);
    }
    return entry;
  }

  /** Calls a method that must succeed; its result must match the spec's schema. */
  async result<T = unknown>(method: string, params?: unknown): Promise<T> {
    const reply: RpcReply = await rpc(this.url, method, params);
    if (reply.error || !('result' in reply)) {
      const shown = JSON.stringify(params).slice(0, 300);
      throw new Error(`${method} ${shown} failed: ${JSON.stringify(reply.error)}`);
    }
    const halves = BLOCK_HALVES[method];
    let problems: string[];
    if (halves) {
      const blockId = Array.isArray(params)
        ? params[0]
        : (params as { block_id?: unknown } | undefined)?.block_id;
      const half = blockId === 'pre_confirmed' ? halves[1] : halves[0];
      problems = schemaProblems(`${READ_API}${half}`, reply.result);
    } else problems = resultProblems(method, reply.result);
    const shown = JSON.stringify(params)?.slice(0, 300);
    expect({ method, shown, problems }).toEqual({ method, shown, problems: [] });
    this.entry(method).results += 1;
    return reply.result as T;
  }

  /**
   * Calls a method that must fail with `code`; the error must be one the spec lists for it, with
   * the spec's message and data shape (JSON-RPC codes such as -32602 are the protocol's own).
   */
  async error(
    method: string,
    params: unknown,
    code: number,
  ): Promise<{ code: number; message: string; data?: unknown }> {
    const reply: RpcReply = await rpc(this.url, method, params);
    const shown = JSON.stringify(params).slice(0, 300);
    const result = JSON.stringify(reply.result)?.slice(0, 300);
    expect({ method, shown, result, code: reply.error?.code }).toEqual({
      method,
      shown,
      result: undefined,
      code,
    });
    const error = reply.error!;
    expect({ method, error, problems: errorProblems(method, error) }).toEqual({
      method,
      error,
      problems: [],
    });
    this.entry(method).errors.add(code);
    return error;
  }

  /** The spec methods in `names` not yet checked with a result and with an error each. */
  missing(names: string[], withError: boolean): string[] {
    return names.filter((name) => {
      const entry = this.seen.get(name);
      return !entry || entry.results === 0 || (withError && entry.errors.size === 0);
    });
  }
}

export const SEPOLIA = '0x534e5f5345504f4c4941';
export const QUERY_V3 = '0x100000000000000000000000000000003';

/** Bounds generous enough for any transfer or declare here, so no estimate runs first. */
export const BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x2e90edd000' },
  l2_gas: { max_amount: '0x4c4b40', max_price_per_unit: '0x1e8480' },
  l1_data_gas: { max_amount: '0x1388', max_price_per_unit: '0x30d40' },
};

export interface Call {
  contractAddress: string;
  entrypoint: string;
  calldata: string[];
}

/** A v3 invoke in RPC 0.10 shape, hashed and signed with starknet.js, never with the devnet. */
export function signedInvoke(
  account: PredeployedAccount,
  calls: Call[],
  nonce: number | bigint,
  options: { version?: string; signature?: string[] } = {},
): Record<string, unknown> {
  const tx: RpcV3Transaction = {
    transaction_hash: '0x0',
    type: 'INVOKE',
    version: options.version ?? '0x3',
    nonce: num.toHex(nonce),
    sender_address: account.address,
    calldata: transaction.getExecuteCalldata(calls, '1').map((v) => num.toHex(v)),
    account_deployment_data: [],
    tip: '0x0',
    paymaster_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
    resource_bounds: BOUNDS,
  };
  return { ...withoutHash(tx), signature: options.signature ?? sign(tx, account) };
}

export function sign(tx: RpcV3Transaction, account: PredeployedAccount): string[] {
  const hash = starknetJsTransactionHash(tx, SEPOLIA);
  const { r, s } = ec.starkCurve.sign(num.toHex(hash), account.private_key);
  return [num.toHex(r), num.toHex(s)];
}

function withoutHash(tx: RpcV3Transaction): Omit<RpcV3Transaction, 'transaction_hash'> {
  const copy: Partial<RpcV3Transaction> = { ...tx };
  delete copy.transaction_hash;
  return copy as Omit<RpcV3Transaction, 'transaction_hash'>;
}

const COMMON_V3 = {
  tip: '0x0',
  paymaster_data: [],
  nonce_data_availability_mode: 'L1' as const,
  fee_data_availability_mode: 'L1' as const,
  resource_bounds: BOUNDS,
};

/** A v3 declare of a Sierra class (ABI sent as a string, as the spec has it), signed. */
export function signedDeclare(
  account: PredeployedAccount,
  contractClass: { abi: unknown },
  compiledClassHash: string,
  nonce: number | bigint,
): Record<string, unknown> {
  const tx: RpcV3Transaction = {
    ...COMMON_V3,
    transaction_hash: '0x0',
    type: 'DECLARE',
    version: '0x3',
    nonce: num.toHex(nonce),
    sender_address: account.address,
    class_hash: num.toHex(hash.computeContractClassHash(contractClass as never)),
    compiled_class_hash: compiledClassHash,
    account_deployment_data: [],
  };
  // The ABI string whose bytes starknet.js hashes for an ABI given as an object.
  const abi =
    typeof contractClass.abi === 'string'
      ? contractClass.abi
      : hash.formatSpaces(JSON.stringify(contractClass.abi));
  const body: Record<string, unknown> = {
    ...withoutHash(tx),
    contract_class: { ...contractClass, abi },
    signature: sign(tx, account),
  };
  delete body.class_hash;
  return body;
}

/** A v3 deploy-account of an OpenZeppelin account with a fresh key; its address to fund first. */
export function signedDeployAccount(
  privateKey: string,
  classHash: string,
  version = '0x3',
): { address: string; tx: Record<string, unknown> } {
  const publicKey = ec.starkCurve.getStarkKey(privateKey);
  const address = num.toHex(
    hash.calculateContractAddressFromHash(publicKey, classHash, [publicKey], 0),
  );
  const tx: RpcV3Transaction = {
    ...COMMON_V3,
    transaction_hash: '0x0',
    type: 'DEPLOY_ACCOUNT',
    version,
    nonce: '0x0',
    class_hash: classHash,
    contract_address_salt: publicKey,
    constructor_calldata: [publicKey],
  };
  const hashed = starknetJsTransactionHash(tx, SEPOLIA, address);
  const { r, s } = ec.starkCurve.sign(num.toHex(hashed), privateKey);
  return { address, tx: { ...withoutHash(tx), signature: [num.toHex(r), num.toHex(s)] } };
}
