/** What the native account classes share: SRC-5, SRC-6 (SNIP-6) and the multicall they run. */
import type { CalldataReader, DecodedCall } from '../../calldata';
import { ContractExecutionError } from '../../errors';
import type { CallContext, NativeFunction } from '../../execution';
import { encodeShortString, Felt } from '../../felt';
import { verifyStarkSignature } from '../../signature';
import { abiFunction, T } from '../abi';

/** The short string 'VALID' that SNIP-6 accounts return from validation. */
export const VALIDATED = encodeShortString('VALID');
/** SRC-5 (introspection) and SRC-6 (account) interface ids. */
export const SRC5_ID = 0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055n;
export const SRC6_ID = 0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cdn;

/** One Stark signature check inside a transaction: costed, and skipped under SKIP_VALIDATE. */
export function checkSignature(
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

/** The calls of a multicall, in order, from the account; returns each call's result. */
export function runCalls(ctx: CallContext, calls: readonly DecodedCall[]): Felt[] {
  const out: Felt[] = [BigInt(calls.length)];
  for (const call of calls) {
    const result = ctx.callContract(call.to, call.selector, call.calldata);
    out.push(BigInt(result.length), ...result);
  }
  return out;
}

/** __execute__: only the protocol (caller 0) may run the account's multicall. */
export function executeCalls(ctx: CallContext, input: CalldataReader, callerError: string): Felt[] {
  if (ctx.caller !== 0n) throw new ContractExecutionError(callerError);
  const calls = input.calls();
  input.end();
  return runCalls(ctx, calls);
}

/** SRC-5 supports_interface over a fixed set of ids. */
export function supportsInterface(ids: readonly Felt[]): NativeFunction {
  return (_ctx, input) => {
    const id = input.felt();
    input.end();
    return [ids.includes(id) ? 1n : 0n];
  };
}

/** SNIP-6 is_valid_signature: each signer key in turn signs the hash ([r, s] per key). */
export function isValidSignature(signerKeys: (ctx: CallContext) => Felt[]): NativeFunction {
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

/** The SRC-6 entry points (and SNIP-6's two spellings) in both classes' ABIs. */
export const accountFunctions = [
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
