/** Argent account 0.3.1: owner and optional guardian, SNIP-9 version 1 outside execution. */
import type { CalldataReader, DecodedCall } from '../../calldata';
import { defineNativeClass } from '../../classes';
import { ARGENT_ACCOUNT_CLASS_HASH } from '../../constants';
import { ContractExecutionError } from '../../errors';
import type { CallContext, NativeClass } from '../../execution';
import { encodeShortString, Felt, selectorFromName } from '../../felt';
import { abiFunction, BOOL_ENUM, CALL_STRUCT, cairo1Abi, storageAddress, T } from '../abi';
import {
  checkOutsideExecution,
  outsideExecutionAbiStruct,
  outsideExecutionHashV1,
  readOutsideExecution,
  SNIP9_V1_INTERFACE_ID,
} from '../outsideExecution';
import {
  accountFunctions,
  checkSignature,
  executeCalls,
  isValidSignature,
  runCalls,
  SRC5_ID,
  SRC6_ID,
  supportsInterface,
  VALIDATED,
} from './account';

const TRANSACTION_EXECUTED = selectorFromName('TransactionExecuted');
const ARGENT_SIGNER = storageAddress('_signer');
const ARGENT_GUARDIAN = storageAddress('_guardian');
const ARGENT_GUARDIAN_BACKUP = storageAddress('_guardian_backup');
const ACCOUNT_CREATED = selectorFromName('AccountCreated');
const EXECUTE_AFTER_UPGRADE = selectorFromName('execute_after_upgrade');
/** What Argent 0.3.1's supports_interface answers true for (the legacy ERC-165 ids included). */
const ARGENT_INTERFACE_IDS = [
  SRC5_ID,
  SRC6_ID,
  SNIP9_V1_INTERFACE_ID,
  0x01ffc9a7n,
  0xa66bd575n,
  0x3943f10fn,
];
const argentOutsideNonce = (nonce: Felt): Felt => storageAddress('outside_nonces', nonce);
const ARGENT_OUTSIDE_ERRORS = {
  invalidCaller: 'argent/invalid-caller',
  notYetValid: 'argent/invalid-timestamp',
  expired: 'argent/invalid-timestamp',
  duplicatedNonce: 'argent/duplicated-outside-nonce',
};

const argentOwner = (ctx: CallContext): Felt => ctx.read(ARGENT_SIGNER);
/** The owner, then the guardian when there is one: what an Argent signature must cover. */
const argentSigners = (ctx: CallContext): Felt[] => {
  const guardian = ctx.read(ARGENT_GUARDIAN);
  return guardian === 0n ? [argentOwner(ctx)] : [argentOwner(ctx), guardian];
};

/**
 * Argent's assert_valid_span_signature: [r, s] of the owner, then [r, s] of the guardian (or its
 * backup) when one is set; 2 or 4 felts, nothing else. Under SKIP_VALIDATE (an empty signature)
 * the checks are costed, not made.
 */
function assertArgentSignature(ctx: CallContext, hash: Felt, signature: readonly Felt[]): void {
  const guardian = ctx.read(ARGENT_GUARDIAN);
  if (ctx.execution.skipSignatureChecks) {
    ctx.execution.signatureChecks += guardian === 0n ? 1 : 2;
    return;
  }
  if (signature.length !== 2 && signature.length !== 4)
    throw new ContractExecutionError('argent/invalid-signature-length');
  if (!checkSignature(ctx, hash, signature.slice(0, 2), argentOwner(ctx)))
    throw new ContractExecutionError('argent/invalid-owner-sig');
  const guardianSignature = signature.slice(2);
  if (guardian === 0n) {
    if (guardianSignature.length !== 0)
      throw new ContractExecutionError('argent/invalid-guardian-sig');
    return;
  }
  const backup = ctx.read(ARGENT_GUARDIAN_BACKUP);
  const guardianOk =
    checkSignature(ctx, hash, guardianSignature, guardian) ||
    (backup !== 0n && checkSignature(ctx, hash, guardianSignature, backup));
  if (!guardianOk) throw new ContractExecutionError('argent/invalid-guardian-sig');
}

/**
 * Argent's assert_valid_calls_and_signature, shared by __validate__ and execute_from_outside:
 * a multicall may not call the account itself, a single call may not be execute_after_upgrade.
 * (The escape entry points, which the real class validates with one signer, are not implemented.)
 */
function assertArgentCallsAndSignature(
  ctx: CallContext,
  calls: readonly DecodedCall[],
  hash: Felt,
  signature: readonly Felt[],
): void {
  if (calls.length === 1) {
    if (calls[0].to === ctx.self && calls[0].selector === EXECUTE_AFTER_UPGRADE)
      throw new ContractExecutionError('argent/forbidden-call');
  } else if (calls.some((call) => call.to === ctx.self)) {
    throw new ContractExecutionError('argent/no-multicall-to-self');
  }
  assertArgentSignature(ctx, hash, signature);
}

function argentValidate(ctx: CallContext, calls: readonly DecodedCall[] | undefined): Felt[] {
  const { signature, transactionHash } = ctx.tx;
  if (calls) assertArgentCallsAndSignature(ctx, calls, transactionHash, signature);
  else assertArgentSignature(ctx, transactionHash, signature);
  return [VALIDATED];
}

/**
 * SNIP-9 version 1, in Argent 0.3.1's order: caller, time window, nonce; the message hash;
 * calls and signature as __validate__ checks them; the nonce marked used; the calls; a
 * TransactionExecuted event keyed by the message hash.
 */
function argentExecuteFromOutside(ctx: CallContext, input: CalldataReader): Felt[] {
  const execution = readOutsideExecution(input);
  const signature = input.array();
  input.end();
  const nonceSlot = argentOutsideNonce(execution.nonce);
  checkOutsideExecution(ctx, execution, nonceSlot, ARGENT_OUTSIDE_ERRORS);
  const hash = outsideExecutionHashV1(execution, ctx.chainId, ctx.self);
  assertArgentCallsAndSignature(ctx, execution.calls, hash, signature);
  ctx.write(nonceSlot, 1n);
  const results = runCalls(ctx, execution.calls);
  ctx.emit([TRANSACTION_EXECUTED, hash], results);
  return results;
}

const ARGENT_OUTSIDE_EXECUTION = 'argent::common::outside_execution::OutsideExecution';

export const argentAccountClass: NativeClass = defineNativeClass(
  'ArgentAccount 0.3.1',
  ARGENT_ACCOUNT_CLASS_HASH,
  cairo1Abi(
    'argent::account::interface::IArgentAccount',
    [
      ...accountFunctions,
      abiFunction(
        '__validate_deploy__',
        [
          ['class_hash', T.felt],
          ['contract_address_salt', T.felt],
          ['owner', T.felt],
          ['guardian', T.felt],
        ],
        [T.felt],
      ),
      abiFunction('get_owner', [], [T.felt]),
      abiFunction('get_guardian', [], [T.felt]),
      abiFunction('get_guardian_backup', [], [T.felt]),
      abiFunction('get_name', [], [T.felt]),
      abiFunction('get_version', [], ['argent::account::interface::Version']),
      abiFunction('getVersion', [], [T.felt]),
      abiFunction('getName', [], [T.felt]),
      abiFunction('supportsInterface', [['interface_id', T.felt]], [T.felt]),
      abiFunction(
        'execute_from_outside',
        [
          ['outside_execution', ARGENT_OUTSIDE_EXECUTION],
          ['signature', T.felts],
        ],
        [T.results],
        'external',
      ),
      abiFunction('is_valid_outside_execution_nonce', [['nonce', T.felt]], [T.bool]),
      abiFunction(
        'get_outside_execution_message_hash',
        [['outside_execution', ARGENT_OUTSIDE_EXECUTION]],
        [T.felt],
      ),
    ],
    [
      ['owner', T.felt],
      ['guardian', T.felt],
    ],
    [
      CALL_STRUCT,
      BOOL_ENUM,
      outsideExecutionAbiStruct(ARGENT_OUTSIDE_EXECUTION),
      {
        type: 'struct',
        name: 'argent::account::interface::Version',
        members: [
          { name: 'major', type: T.u8 },
          { name: 'minor', type: T.u8 },
          { name: 'patch', type: T.u8 },
        ],
      },
    ],
  ),
  {
    __validate__: (ctx, input) => {
      if (ctx.caller !== 0n) throw new ContractExecutionError('argent/non-null-caller');
      const calls = input.calls();
      input.end();
      return argentValidate(ctx, calls);
    },
    __validate_deploy__: (ctx, input) => {
      input.felt();
      input.felt();
      input.felt();
      input.felt();
      input.end();
      return argentValidate(ctx, undefined);
    },
    __validate_declare__: (ctx, input) => {
      input.felt();
      input.end();
      return argentValidate(ctx, undefined);
    },
    __execute__: (ctx, input) => {
      const results = executeCalls(ctx, input, 'argent/non-null-caller');
      ctx.emit([TRANSACTION_EXECUTED, ctx.tx.transactionHash], results);
      return results;
    },
    is_valid_signature: isValidSignature(argentSigners),
    isValidSignature: isValidSignature(argentSigners),
    supports_interface: supportsInterface(ARGENT_INTERFACE_IDS),
    supportsInterface: supportsInterface(ARGENT_INTERFACE_IDS),
    execute_from_outside: argentExecuteFromOutside,
    is_valid_outside_execution_nonce: (ctx, input) => {
      const nonce = input.felt();
      input.end();
      return [ctx.read(argentOutsideNonce(nonce)) === 0n ? 1n : 0n];
    },
    get_outside_execution_message_hash: (ctx, input) => {
      const execution = readOutsideExecution(input);
      input.end();
      return [outsideExecutionHashV1(execution, ctx.chainId, ctx.self)];
    },
    get_owner: (ctx) => [argentOwner(ctx)],
    get_guardian: (ctx) => [ctx.read(ARGENT_GUARDIAN)],
    get_guardian_backup: (ctx) => [ctx.read(ARGENT_GUARDIAN_BACKUP)],
    get_name: () => [encodeShortString('ArgentAccount')],
    getName: () => [encodeShortString('ArgentAccount')],
    get_version: () => [0n, 3n, 1n],
    getVersion: () => [encodeShortString('0.3.1')],
  },
  (ctx, input) => {
    const owner = input.felt();
    const guardian = input.felt();
    input.end();
    if (owner === 0n) throw new ContractExecutionError('argent/null-owner');
    ctx.write(ARGENT_SIGNER, owner);
    ctx.write(ARGENT_GUARDIAN, guardian);
    ctx.emit([ACCOUNT_CREATED, owner], [guardian]);
    return [];
  },
);
