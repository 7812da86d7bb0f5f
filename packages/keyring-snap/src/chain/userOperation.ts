/**
 * ERC-4337 v0.6 (the EntryPoint and SimpleAccount of @account-abstraction/contracts 0.6.0).
 */
import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  keccak256,
  parseAbi,
  type Hex,
} from 'viem';

export const SIMPLE_ACCOUNT_ABI = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
]);

export const FACTORY_ABI = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
]);

export const ENTRY_POINT_ABI = parseAbi([
  'function getNonce(address sender, uint192 key) view returns (uint256)',
]);

/** A v0.6 user operation, every field a 0x string as on the wire. */
export type UserOperation = {
  sender: Hex;
  nonce: Hex;
  initCode: Hex;
  callData: Hex;
  callGasLimit: Hex;
  verificationGasLimit: Hex;
  preVerificationGas: Hex;
  maxFeePerGas: Hex;
  maxPriorityFeePerGas: Hex;
  paymasterAndData: Hex;
  signature: Hex;
};

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
] as const;

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
