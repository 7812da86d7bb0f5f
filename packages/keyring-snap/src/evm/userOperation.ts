/**
 * ERC-4337 v0.6 (the EntryPoint and SimpleAccount of @account-abstraction/contracts 0.6.0).
 */
import type { EthBaseUserOperation, EthUserOperation } from '@metamask/keyring-api';
import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  parseAbi,
  toHex,
  type Hex,
} from 'viem';

import { ERC1967_PROXY_CREATION_CODE } from './simpleAccountProxy';

export const SIMPLE_ACCOUNT_ABI = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
]);

export const FACTORY_ABI = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
]);

const SIMPLE_ACCOUNT_INITIALIZE_ABI = parseAbi(['function initialize(address anOwner)']);

export const ENTRY_POINT_ABI = parseAbi([
  'function getNonce(address sender, uint192 key) view returns (uint256)',
]);

/**
 * A v0.6 user operation: the Keyring API's EthUserOperation (what MetaMask's bridge sends), every
 * field a 0x string as on the wire.
 */
export type UserOperation = { [Field in keyof EthUserOperation]: Hex };

/** EthUserOperation's fields, in the order of the EntryPoint's UserOperation struct. */
export const USER_OPERATION_FIELDS = [
  'sender',
  'nonce',
  'initCode',
  'callData',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterAndData',
  'signature',
] as const satisfies readonly (keyof EthUserOperation)[];

/** The gas limits a bundler estimated, as eth_prepareUserOperation answers them. */
export type GasLimits = { [Field in keyof NonNullable<EthBaseUserOperation['gasLimits']>]: Hex };

/**
 * What eth_prepareUserOperation answers: the Keyring API's EthBaseUserOperation, its 0x fields
 * typed as such; gasLimits is left out when the bundler could not estimate.
 */
export type PreparedUserOperation = {
  [Field in Exclude<keyof EthBaseUserOperation, 'gasLimits' | 'bundlerUrl'>]: Hex;
} & { gasLimits?: GasLimits; bundlerUrl: string };

type Holds<Condition extends true> = Condition;
/** Compiles only while the list above names every field of EthUserOperation. */
export type EveryUserOperationFieldListed = Holds<
  [Exclude<keyof EthUserOperation, (typeof USER_OPERATION_FIELDS)[number]>] extends [never]
    ? true
    : false
>;

/** Compiles only while a PreparedUserOperation is an EthBaseUserOperation. */
export type PreparedIsKeyringApiShape = Holds<
  PreparedUserOperation extends EthBaseUserOperation ? true : false
>;

/**
 * 65 bytes that parse as an ECDSA signature (r = 0xfff…f000…0, s = 0x7aaa…a, v = 0x1c), so that
 * SimpleAccount's ecrecover runs its full path during gas estimation; an all-ff one reverts.
 */
export const DUMMY_SIGNATURE: Hex = `0x${'f'.repeat(31)}${'0'.repeat(33)}7${'a'.repeat(63)}1c`;

export function initCodeFor(factory: Hex, owner: Hex, salt: Hex): Hex {
  return concat([
    factory,
    encodeFunctionData({
      abi: FACTORY_ABI,
      functionName: 'createAccount',
      args: [owner, BigInt(salt)],
    }),
  ]);
}

/**
 * The address SimpleAccountFactory v0.6 gives (owner, salt), computed here: CREATE2 from the
 * factory of the ERC1967Proxy creation code with (implementation, initialize(owner)). The
 * factory creates its SimpleAccount implementation in its constructor, the factory's first
 * CREATE (contract nonces start at 1).
 */
export function counterfactualAddress(factory: Hex, owner: Hex, salt: Hex): Hex {
  const implementation = getContractAddress({ from: factory, nonce: 1n });
  const initialize = encodeFunctionData({
    abi: SIMPLE_ACCOUNT_INITIALIZE_ABI,
    functionName: 'initialize',
    args: [owner],
  });
  const constructorArgs = encodeAbiParameters(
    [{ type: 'address' }, { type: 'bytes' }],
    [implementation, initialize],
  );
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: toHex(BigInt(salt), { size: 32 }),
    bytecode: concat([ERC1967_PROXY_CREATION_CODE, constructorArgs]),
  });
}

export type Intent = { to: Hex; value: bigint; data: Hex };

/** One intent -> execute; several -> executeBatch (which carries no ETH values). */
export function callDataFor(intents: Intent[]): Hex {
  if (intents.length === 1) {
    const [intent] = intents;
    return encodeFunctionData({
      abi: SIMPLE_ACCOUNT_ABI,
      functionName: 'execute',
      args: [intent.to, intent.value, intent.data],
    });
  }
  return encodeFunctionData({
    abi: SIMPLE_ACCOUNT_ABI,
    functionName: 'executeBatch',
    args: [intents.map((intent) => intent.to), intents.map((intent) => intent.data)],
  });
}

/** EntryPoint v0.6 getUserOpHash: keccak(abi.encode(keccak(pack(op)), entryPoint, chainId)). */
export function userOperationHash(op: UserOperation, entryPoint: Hex, chainId: number): Hex {
  const packed = encodeAbiParameters(
    [
      { type: 'address' },
      { type: 'uint256' },
      { type: 'bytes32' },
      { type: 'bytes32' },
      { type: 'uint256' },
      { type: 'uint256' },
      { type: 'uint256' },
      { type: 'uint256' },
      { type: 'uint256' },
      { type: 'bytes32' },
    ],
    [
      op.sender,
      BigInt(op.nonce),
      keccak256(op.initCode),
      keccak256(op.callData),
      BigInt(op.callGasLimit),
      BigInt(op.verificationGasLimit),
      BigInt(op.preVerificationGas),
      BigInt(op.maxFeePerGas),
      BigInt(op.maxPriorityFeePerGas),
      keccak256(op.paymasterAndData),
    ],
  );
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'address' }, { type: 'uint256' }],
      [keccak256(packed), entryPoint, BigInt(chainId)],
    ),
  );
}
