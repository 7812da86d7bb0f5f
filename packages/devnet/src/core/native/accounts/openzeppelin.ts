/** OpenZeppelin account 1.0.0: one public key, SNIP-9 version 2 outside execution (SRC9). */
import type { CalldataReader } from '../../calldata';
import { defineNativeClass } from '../../classes';
import { OZ_ACCOUNT_CLASS_HASH } from '../../constants';
import { ContractExecutionError } from '../../errors';
import type { CallContext, NativeClass } from '../../execution';
import { Felt, selectorFromName } from '../../felt';
import { abiFunction, BOOL_ENUM, CALL_STRUCT, cairo1Abi, storageAddress, T } from '../abi';
import {
  checkOutsideExecution,
  outsideExecutionAbiStruct,
  outsideExecutionHashV2,
  readOutsideExecution,
  SNIP9_V2_INTERFACE_ID,
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

const IS_VALID_SIGNATURE = selectorFromName('is_valid_signature');
const OZ_PUBLIC_KEY = storageAddress('Account_public_key');
const OWNER_ADDED = selectorFromName('OwnerAdded');
/** OpenZeppelin 1.0.0's AccountUpgradeable registers SRC-6 and SRC-9 v2 besides SRC-5 itself. */
const OZ_INTERFACE_IDS = [SRC5_ID, SRC6_ID, SNIP9_V2_INTERFACE_ID];
const ozOutsideNonce = (nonce: Felt): Felt => storageAddress('SRC9_nonces', nonce);
const OZ_OUTSIDE_ERRORS = {
  invalidCaller: 'SRC9: invalid caller',
  notYetValid: 'SRC9: now <= execute_after',
  expired: 'SRC9: now >= execute_before',
  duplicatedNonce: 'SRC9: duplicated nonce',
};
const ozPublicKey = (ctx: CallContext): Felt => ctx.read(OZ_PUBLIC_KEY);

function ozValidate(ctx: CallContext): Felt[] {
  const { signature, transactionHash } = ctx.tx;
  if (!checkSignature(ctx, transactionHash, signature, ozPublicKey(ctx))) {
    throw new ContractExecutionError('Account: invalid signature');
  }
  return [VALIDATED];
}

/**
 * SNIP-9 version 2, in OpenZeppelin's SRC9 component order: caller, time window, nonce (marked
 * used at once), the message hash, the account's own is_valid_signature (a call to itself), the
 * calls. No event.
 */
function ozExecuteFromOutsideV2(ctx: CallContext, input: CalldataReader): Felt[] {
  const execution = readOutsideExecution(input);
  const signature = input.array();
  input.end();
  const nonceSlot = ozOutsideNonce(execution.nonce);
  checkOutsideExecution(ctx, execution, nonceSlot, OZ_OUTSIDE_ERRORS);
  ctx.write(nonceSlot, 1n);
  const hash = outsideExecutionHashV2(execution, ctx.chainId, ctx.self);
  const [valid] = ctx.callContract(ctx.self, IS_VALID_SIGNATURE, [
    hash,
    BigInt(signature.length),
    ...signature,
  ]);
  if (valid !== VALIDATED && valid !== 1n)
    throw new ContractExecutionError('SRC9: invalid signature');
  return runCalls(ctx, execution.calls);
}

const OZ_OUTSIDE_EXECUTION = 'openzeppelin_account::extensions::src9::interface::OutsideExecution';

export const ozAccountClass: NativeClass = defineNativeClass(
  'OpenZeppelin Account 1.0.0',
  OZ_ACCOUNT_CLASS_HASH,
  cairo1Abi(
    'openzeppelin_account::interface::ISRC6',
    [
      ...accountFunctions,
      abiFunction(
        '__validate_deploy__',
        [
          ['class_hash', T.felt],
          ['contract_address_salt', T.felt],
          ['public_key', T.felt],
        ],
        [T.felt],
      ),
      abiFunction('get_public_key', [], [T.felt]),
      abiFunction('getPublicKey', [], [T.felt]),
      abiFunction(
        'execute_from_outside_v2',
        [
          ['outside_execution', OZ_OUTSIDE_EXECUTION],
          ['signature', T.feltSpan],
        ],
        [T.results],
        'external',
      ),
      abiFunction('is_valid_outside_execution_nonce', [['nonce', T.felt]], [T.bool]),
    ],
    [['public_key', T.felt]],
    [CALL_STRUCT, BOOL_ENUM, outsideExecutionAbiStruct(OZ_OUTSIDE_EXECUTION)],
  ),
  {
    __validate__: (ctx, input) => {
      input.calls();
      input.end();
      return ozValidate(ctx);
    },
    __validate_deploy__: (ctx, input) => {
      input.felt();
      input.felt();
      input.felt();
      input.end();
      return ozValidate(ctx);
    },
    __validate_declare__: (ctx, input) => {
      input.felt();
      input.end();
      return ozValidate(ctx);
    },
    __execute__: (ctx, input) => executeCalls(ctx, input, 'Account: invalid caller'),
    is_valid_signature: isValidSignature((ctx) => [ozPublicKey(ctx)]),
    isValidSignature: isValidSignature((ctx) => [ozPublicKey(ctx)]),
    supports_interface: supportsInterface(OZ_INTERFACE_IDS),
    execute_from_outside_v2: ozExecuteFromOutsideV2,
    is_valid_outside_execution_nonce: (ctx, input) => {
      const nonce = input.felt();
      input.end();
      return [ctx.read(ozOutsideNonce(nonce)) === 0n ? 1n : 0n];
    },
    get_public_key: (ctx) => [ozPublicKey(ctx)],
    getPublicKey: (ctx) => [ozPublicKey(ctx)],
  },
  (ctx, input) => {
    const publicKey = input.felt();
    input.end();
    ctx.write(OZ_PUBLIC_KEY, publicKey);
    ctx.emit([OWNER_ADDED, publicKey], []);
    return [];
  },
);
