import {
  keccak,
  pedersen,
  poseidonHash as scurePoseidonHash,
  poseidonHashMany,
} from '@scure/starknet';
import { fastPoseidon } from './poseidon';
import { ADDR_BOUND, Felt, encodeShortString } from './felt';

// Protocol hashing, computed from the primitives so tests can cross-check starknet.js against it.

export function pedersenHash(a: Felt, b: Felt): Felt {
  return BigInt(pedersen(a, b));
}

/** Pedersen "hash on elements": h(h(h(0, a0), a1), ..., n). */
export function pedersenHashOnElements(values: readonly Felt[]): Felt {
  let acc = 0n;
  for (const value of values) acc = pedersenHash(acc, value);
  return pedersenHash(acc, BigInt(values.length));
}

export function poseidonHash(a: Felt, b: Felt): Felt {
  return scurePoseidonHash(a, b, fastPoseidon);
}

/** poseidon([]) is a constant, and most transactions carry empty paymaster/deployment data. */
let emptyHash: Felt | undefined;

export function poseidonMany(values: readonly Felt[]): Felt {
  if (values.length === 0) return (emptyHash ??= poseidonHashMany([], fastPoseidon));
  return poseidonHashMany(values as Felt[], fastPoseidon);
}

const CONTRACT_ADDRESS_PREFIX = encodeShortString('STARKNET_CONTRACT_ADDRESS');

/**
 * Addresses already computed: the same deployment is parsed again by each simulation, estimate
 * and submission of it, and its Pedersen hashes are most of a simulated deployment's time.
 */
const addresses = new Map<string, Felt>();
const ADDRESSES_KEPT = 4096;

export function computeContractAddress(
  salt: Felt,
  classHash: Felt,
  constructorCalldata: readonly Felt[],
  deployer: Felt,
): Felt {
  const key = `${salt},${classHash},${deployer},${constructorCalldata.join(',')}`;
  const known = addresses.get(key);
  if (known !== undefined) return known;
  const hash = pedersenHashOnElements([
    CONTRACT_ADDRESS_PREFIX,
    deployer,
    salt,
    classHash,
    pedersenHashOnElements(constructorCalldata),
  ]);
  if (addresses.size >= ADDRESSES_KEPT) addresses.clear();
  addresses.set(key, hash % ADDR_BOUND);
  return hash % ADDR_BOUND;
}

export interface ResourceBound {
  maxAmount: bigint;
  maxPricePerUnit: bigint;
}

export interface ResourceBounds {
  l1Gas: ResourceBound;
  l2Gas: ResourceBound;
  l1DataGas: ResourceBound;
}

/** Fields shared by every v3 transaction hash. */
export interface V3CommonFields {
  version: Felt;
  senderAddress: Felt;
  chainId: Felt;
  nonce: Felt;
  tip: bigint;
  resourceBounds: ResourceBounds;
  paymasterData: readonly Felt[];
  nonceDataAvailabilityMode: number;
  feeDataAvailabilityMode: number;
}

const L1_GAS_NAME = encodeShortString('L1_GAS');
const L2_GAS_NAME = encodeShortString('L2_GAS');
const L1_DATA_GAS_NAME = encodeShortString('L1_DATA');

function encodeBound(name: Felt, bound: ResourceBound): Felt {
  return (name << 192n) + (bound.maxAmount << 128n) + bound.maxPricePerUnit;
}

function v3Hash(prefix: string, fields: V3CommonFields, additional: readonly Felt[]): Felt {
  const { resourceBounds: rb } = fields;
  const feeFieldHash = poseidonMany([
    fields.tip,
    encodeBound(L1_GAS_NAME, rb.l1Gas),
    encodeBound(L2_GAS_NAME, rb.l2Gas),
    encodeBound(L1_DATA_GAS_NAME, rb.l1DataGas),
  ]);
  const daModes =
    (BigInt(fields.nonceDataAvailabilityMode) << 32n) + BigInt(fields.feeDataAvailabilityMode);
  return poseidonMany([
    encodeShortString(prefix),
    fields.version,
    fields.senderAddress,
    feeFieldHash,
    poseidonMany(fields.paymasterData),
    fields.chainId,
    fields.nonce,
    daModes,
    ...additional,
  ]);
}

export function invokeV3Hash(
  fields: V3CommonFields,
  calldata: readonly Felt[],
  accountDeploymentData: readonly Felt[],
  proofFacts: readonly Felt[] = [],
): Felt {
  const extra = [poseidonMany(accountDeploymentData), poseidonMany(calldata)];
  if (proofFacts.length) extra.push(poseidonMany(proofFacts));
  return v3Hash('invoke', fields, extra);
}

export function deployAccountV3Hash(
  fields: V3CommonFields,
  constructorCalldata: readonly Felt[],
  classHash: Felt,
  salt: Felt,
): Felt {
  return v3Hash('deploy_account', fields, [poseidonMany(constructorCalldata), classHash, salt]);
}

export function declareV3Hash(
  fields: V3CommonFields,
  accountDeploymentData: readonly Felt[],
  classHash: Felt,
  compiledClassHash: Felt,
): Felt {
  return v3Hash('declare', fields, [
    poseidonMany(accountDeploymentData),
    classHash,
    compiledClassHash,
  ]);
}

export interface SierraEntryPoint {
  selector: string;
  function_idx: number;
}

export interface SierraContractClass {
  sierra_program: string[];
  contract_class_version: string;
  entry_points_by_type: {
    EXTERNAL: SierraEntryPoint[];
    L1_HANDLER: SierraEntryPoint[];
    CONSTRUCTOR: SierraEntryPoint[];
  };
  /** The ABI as the JSON string carried by RPC; the class hash covers its exact bytes. */
  abi: string;
}

function hashSierraEntryPoints(entryPoints: readonly SierraEntryPoint[]): Felt {
  return poseidonMany(entryPoints.flatMap((ep) => [BigInt(ep.selector), BigInt(ep.function_idx)]));
}

const CONTRACT_CLASS_VERSION = encodeShortString('CONTRACT_CLASS_V0.1.0');

/** The Sierra class hash (CONTRACT_CLASS_V0.1.0). */
export function computeSierraClassHash(contractClass: SierraContractClass): Felt {
  const eps = contractClass.entry_points_by_type;
  return poseidonMany([
    CONTRACT_CLASS_VERSION,
    hashSierraEntryPoints(eps.EXTERNAL),
    hashSierraEntryPoints(eps.L1_HANDLER),
    hashSierraEntryPoints(eps.CONSTRUCTOR),
    keccak(new TextEncoder().encode(contractClass.abi)),
    poseidonMany(contractClass.sierra_program.map((felt) => BigInt(felt))),
  ]);
}
