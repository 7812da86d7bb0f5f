import { ADDR_BOUND, Felt, selectorFromName } from '../felt';
import { pedersenHash } from '../hashing';

type Param = [name: string, type: string];

export const T = {
  felt: 'core::felt252',
  address: 'core::starknet::contract_address::ContractAddress',
  classHash: 'core::starknet::class_hash::ClassHash',
  u256: 'core::integer::u256',
  u8: 'core::integer::u8',
  u64: 'core::integer::u64',
  bool: 'core::bool',
  felts: 'core::array::Array::<core::felt252>',
  feltSpan: 'core::array::Span::<core::felt252>',
  calls: 'core::array::Array::<core::starknet::account::Call>',
  callSpan: 'core::array::Span::<core::starknet::account::Call>',
  results: 'core::array::Array::<core::array::Span::<core::felt252>>',
};

export function abiFunction(
  name: string,
  inputs: Param[],
  outputs: string[],
  mutability: 'view' | 'external' = 'view',
): object {
  return {
    type: 'function',
    name,
    inputs: inputs.map(([n, type]) => ({ name: n, type })),
    outputs: outputs.map((type) => ({ type })),
    state_mutability: mutability,
  };
}

/** A Cairo 1 ABI: one interface holding the functions, plus the constructor and shared types. */
export function cairo1Abi(
  interfaceName: string,
  functions: object[],
  constructorInputs: Param[] | undefined,
  extraTypes: object[] = [],
): object[] {
  const abi: object[] = [
    { type: 'impl', name: `${interfaceName}Impl`, interface_name: interfaceName },
    ...extraTypes,
    { type: 'interface', name: interfaceName, items: functions },
  ];
  if (constructorInputs) {
    abi.push({
      type: 'constructor',
      name: 'constructor',
      inputs: constructorInputs.map(([n, type]) => ({ name: n, type })),
    });
  }
  return abi;
}

export const U256_STRUCT = {
  type: 'struct',
  name: 'core::integer::u256',
  members: [
    { name: 'low', type: 'core::integer::u128' },
    { name: 'high', type: 'core::integer::u128' },
  ],
};

export const CALL_STRUCT = {
  type: 'struct',
  name: 'core::starknet::account::Call',
  members: [
    { name: 'to', type: T.address },
    { name: 'selector', type: T.felt },
    { name: 'calldata', type: T.felts },
  ],
};

export const BOOL_ENUM = {
  type: 'enum',
  name: 'core::bool',
  variants: [
    { name: 'False', type: '()' },
    { name: 'True', type: '()' },
  ],
};

const storageAddressCache = new Map<string, Felt>();
const STORAGE_CACHE_LIMIT = 100_000;

/** The storage address of a Cairo storage variable, keyed like a LegacyMap (Pedersen chain). */
export function storageAddress(variable: string, ...keys: Felt[]): Felt {
  const cacheKey = keys.length ? `${variable}:${keys.join(':')}` : variable;
  let address = storageAddressCache.get(cacheKey);
  if (address === undefined) {
    address = selectorFromName(variable);
    for (const key of keys) address = pedersenHash(address, key);
    address %= ADDR_BOUND;
    if (storageAddressCache.size >= STORAGE_CACHE_LIMIT) storageAddressCache.clear();
    storageAddressCache.set(cacheKey, address);
  }
  return address;
}
