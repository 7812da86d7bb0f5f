import type { CalldataReader, DecodedCall } from '../calldata';
import { ContractExecutionError } from '../errors';
import type { CallContext } from '../execution';
import { encodeShortString, Felt, selectorFromName } from '../felt';
import { pedersenHashOnElements, poseidonMany } from '../hashing';
import { T } from './abi';

// SNIP-9 outside execution as the account classes implement it: the OutsideExecution struct read
// from calldata, its SNIP-12 message hash, and the checks made before the signature. Version 1
// (Argent 0.3.1's `execute_from_outside`) signs SNIP-12 revision 0 (Pedersen); version 2
// (OpenZeppelin 1.0.0's `execute_from_outside_v2`) signs revision 1 (Poseidon).
// An independent copy on purpose: the snap and the paymaster share @l2wallet/starknet-protocol's,
// and the node that checks what they sign must not inherit its mistakes.

/**
 * The caller value that lets any contract submit the execution ('ANY_CALLER' as a short string).
 */
export const ANY_CALLER = encodeShortString('ANY_CALLER');

/** The SRC-5 interface ids of the two versions, as the SNIP and the classes define them. */
export const SNIP9_V1_INTERFACE_ID =
  0x68cfd18b92d1907b8ba3cc324900277f5a3622099431ea85dd8089255e4181n;
export const SNIP9_V2_INTERFACE_ID =
  0x1d1144bb2138366ff28d8e9ab57456b1d332ac42196230c3a602003c89872n;

export interface OutsideExecution {
  caller: Felt;
  nonce: Felt;
  executeAfter: bigint;
  executeBefore: bigint;
  calls: DecodedCall[];
}

/**
 * The Cairo struct `OutsideExecution { caller, nonce, execute_after: u64, execute_before: u64,
 * calls }`.
 */
export function readOutsideExecution(input: CalldataReader): OutsideExecution {
  return {
    caller: input.felt(),
    nonce: input.felt(),
    executeAfter: input.u64(),
    executeBefore: input.u64(),
    calls: input.calls(),
  };
}

const MESSAGE_PREFIX = encodeShortString('StarkNet Message');
const DOMAIN_NAME = encodeShortString('Account.execute_from_outside');

export const V1_TYPE_HASHES = {
  domain: selectorFromName('StarkNetDomain(name:felt,version:felt,chainId:felt)'),
  outsideExecution: selectorFromName(
    'OutsideExecution(caller:felt,nonce:felt,execute_after:felt,execute_before:felt,calls_len:felt,calls:OutsideCall*)' +
      'OutsideCall(to:felt,selector:felt,calldata_len:felt,calldata:felt*)',
  ),
  call: selectorFromName('OutsideCall(to:felt,selector:felt,calldata_len:felt,calldata:felt*)'),
};

export const V2_TYPE_HASHES = {
  domain: selectorFromName(
    '"StarknetDomain"("name":"shortstring","version":"shortstring","chainId":"shortstring","revision":"shortstring")',
  ),
  outsideExecution: selectorFromName(
    '"OutsideExecution"("Caller":"ContractAddress","Nonce":"felt","Execute After":"u128","Execute Before":"u128","Calls":"Call*")' +
      '"Call"("To":"ContractAddress","Selector":"selector","Calldata":"felt*")',
  ),
  call: selectorFromName('"Call"("To":"ContractAddress","Selector":"selector","Calldata":"felt*")'),
};

/** Version 1: SNIP-12 revision 0, domain { name, version: 1, chainId }, Pedersen hash chains. */
export function outsideExecutionHashV1(
  execution: OutsideExecution,
  chainId: Felt,
  account: Felt,
): Felt {
  const t = V1_TYPE_HASHES;
  const callHashes = execution.calls.map((call) =>
    pedersenHashOnElements([
      t.call,
      call.to,
      call.selector,
      BigInt(call.calldata.length),
      pedersenHashOnElements(call.calldata),
    ]),
  );
  const struct = pedersenHashOnElements([
    t.outsideExecution,
    execution.caller,
    execution.nonce,
    execution.executeAfter,
    execution.executeBefore,
    BigInt(execution.calls.length),
    pedersenHashOnElements(callHashes),
  ]);
  const domain = pedersenHashOnElements([t.domain, DOMAIN_NAME, 1n, chainId]);
  return pedersenHashOnElements([MESSAGE_PREFIX, domain, account, struct]);
}

/** Version 2: SNIP-12 revision 1, domain { name, version: 2, chainId, revision: 1 }, Poseidon. */
export function outsideExecutionHashV2(
  execution: OutsideExecution,
  chainId: Felt,
  account: Felt,
): Felt {
  const t = V2_TYPE_HASHES;
  const callHashes = execution.calls.map((call) =>
    poseidonMany([t.call, call.to, call.selector, poseidonMany(call.calldata)]),
  );
  const struct = poseidonMany([
    t.outsideExecution,
    execution.caller,
    execution.nonce,
    execution.executeAfter,
    execution.executeBefore,
    poseidonMany(callHashes),
  ]);
  const domain = poseidonMany([t.domain, DOMAIN_NAME, 2n, chainId, 1n]);
  return poseidonMany([MESSAGE_PREFIX, domain, account, struct]);
}

/** Each class's own revert strings for the checks every version makes. */
export interface OutsideExecutionErrors {
  invalidCaller: string;
  notYetValid: string;
  expired: string;
  duplicatedNonce: string;
}

/**
 * The caller (unless 'ANY_CALLER'), the window execute_after < now < execute_before (bounds
 * excluded) and the nonce, which `nonceSlot` (a LegacyMap<felt252, bool> entry) marks as used.
 */
export function checkOutsideExecution(
  ctx: CallContext,
  execution: OutsideExecution,
  nonceSlot: Felt,
  errors: OutsideExecutionErrors,
): void {
  if (execution.caller !== ANY_CALLER && ctx.caller !== execution.caller)
    throw new ContractExecutionError(errors.invalidCaller);
  const now = BigInt(ctx.blockTimestamp);
  if (!(execution.executeAfter < now)) throw new ContractExecutionError(errors.notYetValid);
  if (!(now < execution.executeBefore)) throw new ContractExecutionError(errors.expired);
  if (ctx.read(nonceSlot) !== 0n) throw new ContractExecutionError(errors.duplicatedNonce);
}

/** The OutsideExecution struct as the class's ABI names it. */
export function outsideExecutionAbiStruct(name: string): object {
  return {
    type: 'struct',
    name,
    members: [
      { name: 'caller', type: T.address },
      { name: 'nonce', type: T.felt },
      { name: 'execute_after', type: T.u64 },
      { name: 'execute_before', type: T.u64 },
      { name: 'calls', type: T.callSpan },
    ],
  };
}
