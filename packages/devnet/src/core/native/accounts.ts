import type { CalldataReader } from '../calldata';
import { defineNativeClass } from '../classes';
import { ARGENT_ACCOUNT_CLASS_HASH, OZ_ACCOUNT_CLASS_HASH } from '../constants';
import { ContractExecutionError } from '../errors';
import type { CallContext, NativeClass, NativeFunction } from '../execution';
import { encodeShortString, Felt, selectorFromName } from '../felt';
import { verifyStarkSignature } from '../signature';
import { abiFunction, BOOL_ENUM, CALL_STRUCT, cairo1Abi, storageAddress, T } from './abi';

/** The short string 'VALID' that SNIP-6 accounts return from validation. */
export const VALIDATED = encodeShortString('VALID');
const TRANSACTION_EXECUTED = selectorFromName('TransactionExecuted');
/** SRC-6 interface id, plus the legacy account interface ids wallets still probe. */
const SRC6_ID = 0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cdn;
const SRC5_ID = 0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055n;
const LEGACY_ACCOUNT_IDS = [0xa66bd575n, 0x3943f10fn];

function checkSignature(
  ctx: CallContext,
  hash: Felt,
  signature: readonly Felt[],
  publicKey: Felt,
): boolean {
  const execution = ctx.execution;
  execution.signatureChecks += 1;
  if (execution.skipSignatureChecks) return true;
  if (signature.length !== 2) return false;
  return verifyStarkSignature(hash, signature[0], signature[1], publicKey);
}

function requireValidSignature(ctx: CallContext, publicKey: Felt): void {
  const { signature, transactionHash } = ctx.tx;
  if (!checkSignature(ctx, transactionHash, signature, publicKey)) {
    throw new ContractExecutionError(
      signature.length === 2 ? 'argent/invalid-signature' : 'argent/invalid-signature-length',
    );
  }
}

function executeCalls(ctx: CallContext, input: CalldataReader): Felt[] {
  if (ctx.caller !== 0n) throw new ContractExecutionError('argent/non-null-caller');
  const calls = input.calls();
  input.end();
  const out: Felt[] = [BigInt(calls.length)];
  for (const call of calls) {
    const result = ctx.callContract(call.to, call.selector, call.calldata);
    out.push(BigInt(result.length), ...result);
  }
  return out;
}

function supportsInterface(ctx: CallContext, input: CalldataReader): Felt[] {
  const id = input.felt();
  input.end();
  return [id === SRC6_ID || id === SRC5_ID || LEGACY_ACCOUNT_IDS.includes(id) ? 1n : 0n];
}

/** SNIP-6 is_valid_signature: each signer key in turn signs the hash ([r, s] per key). */
function isValidSignature(signerKeys: (ctx: CallContext) => Felt[]): NativeFunction {
  return (ctx, input) => {
    const hash = input.felt();
    const signature = input.array();
    input.end();
    const keys = signerKeys(ctx);
    const ok =
      signature.length === 2 * keys.length &&
      keys.every((key, i) =>
        verifyStarkSignature(hash, signature[2 * i], signature[2 * i + 1], key),
      );
    return [ok ? VALIDATED : 0n];
  };
}

const accountFunctions = [
  abiFunction('__validate__', [['calls', T.calls]], [T.felt]),
  abiFunction('__execute__', [['calls', T.calls]], [T.results], 'external'),
  abiFunction('__validate_declare__', [['class_hash', T.felt]], [T.felt]),
  abiFunction(
    'is_valid_signature',
    [
      ['hash', T.felt],
      ['signature', T.felts],
    ],
    [T.felt],
  ),
  abiFunction(
    'isValidSignature',
    [
      ['hash', T.felt],
      ['signature', T.felts],
    ],
    [T.felt],
  ),
  abiFunction('supports_interface', [['interface_id', T.felt]], [T.bool]),
];

// ---- Argent account 0.3.1 ----

const ARGENT_SIGNER = storageAddress('_signer');
const ARGENT_GUARDIAN = storageAddress('_guardian');
const ARGENT_GUARDIAN_BACKUP = storageAddress('_guardian_backup');
const ACCOUNT_CREATED = selectorFromName('AccountCreated');

const argentOwner = (ctx: CallContext): Felt => ctx.read(ARGENT_SIGNER);
/** The owner, then the guardian when there is one: what an Argent signature must cover. */
const argentSigners = (ctx: CallContext): Felt[] => {
  const guardian = ctx.read(ARGENT_GUARDIAN);
  return guardian === 0n ? [argentOwner(ctx)] : [argentOwner(ctx), guardian];
};

function argentValidate(ctx: CallContext): Felt[] {
  if (ctx.caller !== 0n) throw new ContractExecutionError('argent/non-null-caller');
  if (ctx.read(ARGENT_GUARDIAN) !== 0n) {
    // Owner + guardian signatures: both must be valid.
    const { signature, transactionHash } = ctx.tx;
    // Under SKIP_VALIDATE the signature is empty: cost both checks, verify neither.
    const skipped = ctx.execution.skipSignatureChecks;
    const ok =
      (skipped || signature.length === 4) &&
      checkSignature(ctx, transactionHash, signature.slice(0, 2), argentOwner(ctx)) &&
      checkSignature(ctx, transactionHash, signature.slice(2), ctx.read(ARGENT_GUARDIAN));
    if (!ok) throw new ContractExecutionError('argent/invalid-signature');
  } else requireValidSignature(ctx, argentOwner(ctx));
  return [VALIDATED];
}

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
    ],
    [
      ['owner', T.felt],
      ['guardian', T.felt],
    ],
    [
      CALL_STRUCT,
      BOOL_ENUM,
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
      input.calls();
      input.end();
      return argentValidate(ctx);
    },
    __validate_deploy__: (ctx, input) => {
      input.felt();
      input.felt();
      input.felt();
      input.felt();
      input.end();
      return argentValidate(ctx);
    },
    __validate_declare__: (ctx, input) => {
      input.felt();
      input.end();
      return argentValidate(ctx);
    },
    __execute__: (ctx, input) => {
      const results = executeCalls(ctx, input);
      ctx.emit([TRANSACTION_EXECUTED, ctx.tx.transactionHash], results);
      return results;
    },
    is_valid_signature: isValidSignature(argentSigners),
    isValidSignature: isValidSignature(argentSigners),
    supports_interface: supportsInterface,
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

// ---- OpenZeppelin account 1.0.0 ----

const OZ_PUBLIC_KEY = storageAddress('Account_public_key');
const OWNER_ADDED = selectorFromName('OwnerAdded');
const ozPublicKey = (ctx: CallContext): Felt => ctx.read(OZ_PUBLIC_KEY);

function ozValidate(ctx: CallContext): Felt[] {
  const { signature, transactionHash } = ctx.tx;
  if (!checkSignature(ctx, transactionHash, signature, ozPublicKey(ctx))) {
    throw new ContractExecutionError('Account: invalid signature');
  }
  return [VALIDATED];
}

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
    ],
    [['public_key', T.felt]],
    [CALL_STRUCT, BOOL_ENUM],
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
    __execute__: (ctx, input) => {
      if (ctx.caller !== 0n) throw new ContractExecutionError('Account: invalid caller');
      return executeCalls(ctx, input);
    },
    is_valid_signature: isValidSignature((ctx) => [ozPublicKey(ctx)]),
    isValidSignature: isValidSignature((ctx) => [ozPublicKey(ctx)]),
    supports_interface: supportsInterface,
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

/** Whether a class is one of the account classes the devnet can validate transactions for. */
export function isAccountClass(native: NativeClass | undefined): boolean {
  return native === argentAccountClass || native === ozAccountClass;
}
