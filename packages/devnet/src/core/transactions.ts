import { Felt, parseFelt, toHex } from './felt';
import {
  computeContractAddress,
  computeSierraClassHash,
  declareV3Hash,
  deployAccountV3Hash,
  invokeV3Hash,
  ResourceBound,
  ResourceBounds,
  SierraContractClass,
  V3CommonFields,
} from './hashing';

/** A request field that is missing or malformed; the RPC layer turns it into -32602. */
export class InvalidParamError extends Error {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`Invalid params: ${field}: ${detail}`);
    this.name = 'InvalidParamError';
  }
}

export type DaMode = 'L1' | 'L2';

interface V3Base {
  version: Felt;
  signature: Felt[];
  nonce: Felt;
  resourceBounds: ResourceBounds;
  tip: bigint;
  paymasterData: Felt[];
  nonceDataAvailabilityMode: DaMode;
  feeDataAvailabilityMode: DaMode;
}

export interface InvokeTransaction extends V3Base {
  type: 'INVOKE';
  senderAddress: Felt;
  calldata: Felt[];
  accountDeploymentData: Felt[];
  proofFacts: Felt[];
}

export interface DeployAccountTransaction extends V3Base {
  type: 'DEPLOY_ACCOUNT';
  classHash: Felt;
  contractAddressSalt: Felt;
  constructorCalldata: Felt[];
  /** Derived: the address the account is deployed at. */
  senderAddress: Felt;
}

export interface DeclareTransaction extends V3Base {
  type: 'DECLARE';
  senderAddress: Felt;
  compiledClassHash: Felt;
  accountDeploymentData: Felt[];
  contractClass: SierraContractClass;
  /** Derived: the Sierra class hash of contractClass. */
  classHash: Felt;
}

export type Transaction = InvokeTransaction | DeployAccountTransaction | DeclareTransaction;

/** Version 3 and its query variant (2^128 + 3), which estimates and simulations use. */
export const TX_VERSION_3 = 3n;
export const QUERY_VERSION_3 = 2n ** 128n + 3n;

type Json = Record<string, unknown>;

function field(obj: Json, name: string, path: string): unknown {
  const value = obj[name];
  if (value === undefined) throw new InvalidParamError(`${path}.${name}`, 'missing');
  return value;
}

function felt(obj: Json, name: string, path: string): Felt {
  try {
    return parseFelt(field(obj, name, path));
  } catch (error) {
    if (error instanceof InvalidParamError) throw error;
    throw new InvalidParamError(`${path}.${name}`, (error as Error).message);
  }
}

function felts(obj: Json, name: string, path: string, optional = false): Felt[] {
  const value = obj[name];
  if (value === undefined && optional) return [];
  if (!Array.isArray(value))
    throw new InvalidParamError(`${path}.${name}`, 'expected an array of felts');
  return value.map((item, index) => {
    try {
      return parseFelt(item);
    } catch (error) {
      throw new InvalidParamError(`${path}.${name}[${index}]`, (error as Error).message);
    }
  });
}

function daMode(obj: Json, name: string, path: string): DaMode {
  const value = obj[name] ?? 'L1';
  if (value !== 'L1' && value !== 'L2')
    throw new InvalidParamError(`${path}.${name}`, "expected 'L1' or 'L2'");
  return value;
}

function bound(obj: Json, name: string, path: string, optional = false): ResourceBound {
  const value = obj[name];
  if (value === undefined && optional) return { maxAmount: 0n, maxPricePerUnit: 0n };
  if (!value || typeof value !== 'object')
    throw new InvalidParamError(`${path}.${name}`, 'missing');
  const inner = value as Json;
  const at = `${path}.${name}`;
  const maxAmount = felt(inner, 'max_amount', at);
  const maxPricePerUnit = felt(inner, 'max_price_per_unit', at);
  if (maxAmount >= 2n ** 64n)
    throw new InvalidParamError(`${at}.max_amount`, 'must fit in 64 bits');
  if (maxPricePerUnit >= 2n ** 128n)
    throw new InvalidParamError(`${at}.max_price_per_unit`, 'must fit in 128 bits');
  return { maxAmount, maxPricePerUnit };
}

function v3Base(obj: Json, path: string): V3Base {
  const version = felt(obj, 'version', path);
  const rb = field(obj, 'resource_bounds', path);
  if (!rb || typeof rb !== 'object')
    throw new InvalidParamError(`${path}.resource_bounds`, 'expected an object');
  const rbPath = `${path}.resource_bounds`;
  return {
    version,
    signature: felts(obj, 'signature', path, true),
    nonce: felt(obj, 'nonce', path),
    resourceBounds: {
      l1Gas: bound(rb as Json, 'l1_gas', rbPath),
      l2Gas: bound(rb as Json, 'l2_gas', rbPath),
      l1DataGas: bound(rb as Json, 'l1_data_gas', rbPath, true),
    },
    tip: obj.tip === undefined ? 0n : felt(obj, 'tip', path),
    paymasterData: felts(obj, 'paymaster_data', path, true),
    nonceDataAvailabilityMode: daMode(obj, 'nonce_data_availability_mode', path),
    feeDataAvailabilityMode: daMode(obj, 'fee_data_availability_mode', path),
  };
}

function parseContractClass(value: unknown, path: string): SierraContractClass {
  if (!value || typeof value !== 'object')
    throw new InvalidParamError(path, 'expected a Sierra contract class');
  const obj = value as Json;
  const program = felts(obj, 'sierra_program', path).map((f) => toHex(f));
  const version = field(obj, 'contract_class_version', path);
  if (typeof version !== 'string')
    throw new InvalidParamError(`${path}.contract_class_version`, 'expected a string');
  const eps = field(obj, 'entry_points_by_type', path) as Json;
  const entryPoints = (kind: string): SierraContractClass['entry_points_by_type']['EXTERNAL'] => {
    const list = eps?.[kind] ?? [];
    if (!Array.isArray(list))
      throw new InvalidParamError(`${path}.entry_points_by_type.${kind}`, 'expected an array');
    return list.map((ep: Json, index: number) => {
      const at = `${path}.entry_points_by_type.${kind}[${index}]`;
      const idx = ep?.function_idx;
      if (typeof idx !== 'number')
        throw new InvalidParamError(`${at}.function_idx`, 'expected a number');
      return { selector: toHex(felt(ep, 'selector', at)), function_idx: idx };
    });
  };
  const abi = obj.abi === undefined ? '' : obj.abi;
  if (typeof abi !== 'string')
    throw new InvalidParamError(`${path}.abi`, 'expected the ABI as a JSON string');
  return {
    sierra_program: program,
    contract_class_version: version,
    entry_points_by_type: {
      EXTERNAL: entryPoints('EXTERNAL'),
      L1_HANDLER: entryPoints('L1_HANDLER'),
      CONSTRUCTOR: entryPoints('CONSTRUCTOR'),
    },
    abi,
  };
}

/** Reads a broadcasted v3 transaction in RPC 0.10 shape; `expectedType` pins the method's type. */
export function parseTransaction(
  raw: unknown,
  path: string,
  expectedType?: Transaction['type'],
): Transaction {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InvalidParamError(path, 'expected a transaction object');
  }
  const obj = raw as Json;
  const type = obj.type;
  if (expectedType && type !== expectedType) {
    throw new InvalidParamError(`${path}.type`, `expected '${expectedType}'`);
  }
  const base = v3Base(obj, path);
  switch (type) {
    case 'INVOKE':
      return {
        type,
        ...base,
        senderAddress: felt(obj, 'sender_address', path),
        calldata: felts(obj, 'calldata', path),
        accountDeploymentData: felts(obj, 'account_deployment_data', path, true),
        proofFacts: felts(obj, 'proof_facts', path, true),
      };
    case 'DEPLOY_ACCOUNT': {
      const classHash = felt(obj, 'class_hash', path);
      const contractAddressSalt = felt(obj, 'contract_address_salt', path);
      const constructorCalldata = felts(obj, 'constructor_calldata', path);
      return {
        type,
        ...base,
        classHash,
        contractAddressSalt,
        constructorCalldata,
        senderAddress: computeContractAddress(
          contractAddressSalt,
          classHash,
          constructorCalldata,
          0n,
        ),
      };
    }
    case 'DECLARE': {
      const contractClass = parseContractClass(
        field(obj, 'contract_class', path),
        `${path}.contract_class`,
      );
      return {
        type,
        ...base,
        senderAddress: felt(obj, 'sender_address', path),
        compiledClassHash: felt(obj, 'compiled_class_hash', path),
        accountDeploymentData: felts(obj, 'account_deployment_data', path, true),
        contractClass,
        classHash: computeSierraClassHash(contractClass),
      };
    }
    default:
      throw new InvalidParamError(
        `${path}.type`,
        "expected 'INVOKE', 'DEPLOY_ACCOUNT' or 'DECLARE'",
      );
  }
}

const daValue = (mode: DaMode): number => (mode === 'L1' ? 0 : 1);

export function transactionHash(tx: Transaction, chainId: Felt): Felt {
  const common: V3CommonFields = {
    version: tx.version,
    senderAddress: tx.senderAddress,
    chainId,
    nonce: tx.nonce,
    tip: tx.tip,
    resourceBounds: tx.resourceBounds,
    paymasterData: tx.paymasterData,
    nonceDataAvailabilityMode: daValue(tx.nonceDataAvailabilityMode),
    feeDataAvailabilityMode: daValue(tx.feeDataAvailabilityMode),
  };
  switch (tx.type) {
    case 'INVOKE':
      return invokeV3Hash(common, tx.calldata, tx.accountDeploymentData, tx.proofFacts);
    case 'DEPLOY_ACCOUNT':
      return deployAccountV3Hash(
        common,
        tx.constructorCalldata,
        tx.classHash,
        tx.contractAddressSalt,
      );
    case 'DECLARE':
      return declareV3Hash(common, tx.accountDeploymentData, tx.classHash, tx.compiledClassHash);
  }
}

const hexList = (values: readonly Felt[]): string[] => values.map((v) => toHex(v));
const boundJson = (b: ResourceBound): { max_amount: string; max_price_per_unit: string } => ({
  max_amount: toHex(b.maxAmount),
  max_price_per_unit: toHex(b.maxPricePerUnit),
});

/** The transaction as RPC returns it (without the class body of a declare). */
export function transactionToJson(tx: Transaction, includeClass = false): Record<string, unknown> {
  const common = {
    type: tx.type,
    version: toHex(tx.version),
    signature: hexList(tx.signature),
    nonce: toHex(tx.nonce),
    resource_bounds: {
      l1_gas: boundJson(tx.resourceBounds.l1Gas),
      l2_gas: boundJson(tx.resourceBounds.l2Gas),
      l1_data_gas: boundJson(tx.resourceBounds.l1DataGas),
    },
    tip: toHex(tx.tip),
    paymaster_data: hexList(tx.paymasterData),
    nonce_data_availability_mode: tx.nonceDataAvailabilityMode,
    fee_data_availability_mode: tx.feeDataAvailabilityMode,
  };
  switch (tx.type) {
    case 'INVOKE':
      return {
        ...common,
        sender_address: toHex(tx.senderAddress),
        calldata: hexList(tx.calldata),
        account_deployment_data: hexList(tx.accountDeploymentData),
        ...(tx.proofFacts.length ? { proof_facts: hexList(tx.proofFacts) } : {}),
      };
    case 'DEPLOY_ACCOUNT':
      return {
        ...common,
        class_hash: toHex(tx.classHash),
        contract_address_salt: toHex(tx.contractAddressSalt),
        constructor_calldata: hexList(tx.constructorCalldata),
      };
    case 'DECLARE':
      return {
        ...common,
        sender_address: toHex(tx.senderAddress),
        class_hash: toHex(tx.classHash),
        compiled_class_hash: toHex(tx.compiledClassHash),
        account_deployment_data: hexList(tx.accountDeploymentData),
        ...(includeClass ? { contract_class: tx.contractClass } : {}),
      };
  }
}
