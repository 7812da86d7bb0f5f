/**
 * Documented semantics (docs/interface/gateway.md#semantics) that hold whatever the upstream does:
 * revert errors in one shape (docs/interface/gateway.md#semantics), the gas cap of
 * docs/interface/gateway.md#limits, and 32-byte eth_getProof storage keys.
 */
import type { RpcErrorBody } from './types';

const ERROR_STRING = '0x08c379a0';
const PANIC = '0x4e487b71';

// Solidity's panic codes, as geth's abi.UnpackRevert names them.
const PANICS: Record<number, string> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** The reason in revert data: Error(string), Panic(uint256), or undefined (custom/empty). */
export function decodeRevert(data: string): string | undefined {
  const hex = data.toLowerCase();
  try {
    if (hex.startsWith(ERROR_STRING) && hex.length >= 10 + 128) {
      const body = hex.slice(10);
      const offset = Number(BigInt('0x' + body.slice(0, 64))) * 2;
      const length = Number(BigInt('0x' + body.slice(offset, offset + 64))) * 2;
      const text = body.slice(offset + 64, offset + 64 + length);
      if (text.length !== length) return undefined;
      return Buffer.from(text, 'hex').toString('utf8');
    }
    if (hex.startsWith(PANIC) && hex.length === 10 + 64) {
      const code = Number(BigInt('0x' + hex.slice(10)));
      return `panic: ${PANICS[code] ?? 'unknown panic code'} (0x${code.toString(16)})`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function revertData(data: unknown): string | undefined {
  if (typeof data === 'string') return /0x[0-9a-fA-F]*/.exec(data)?.[0];
  if (data && typeof data === 'object') {
    const inner =
      (data as Record<string, unknown>).data ?? (data as Record<string, unknown>).result;
    return revertData(inner);
  }
  return undefined;
}

/**
 * A revert in any upstream's shape (geth/anvil code 3 with data; Nethermind -32015 with
 * "Reverted 0x.."; Erigon -32000 "execution reverted"; data nested in an object) becomes
 * `{code: 3, message: "execution reverted: <reason>", data}`. Other errors stay as they are.
 */
export function normaliseRevert(error: RpcErrorBody): RpcErrorBody {
  const text = `${error.message ?? ''} ${typeof error.data === 'string' ? error.data : ''}`;
  if (error.code !== 3 && !/revert/i.test(text)) return error;
  const data = revertData(error.data) ?? '0x';
  const reason = decodeRevert(data);
  let message: string;
  if (reason !== undefined) message = `execution reverted: ${reason}`;
  else if (/^execution reverted: ./.test(error.message ?? '')) message = error.message;
  else if (data.length >= 10) message = `execution reverted: custom error ${data.slice(0, 10)}`;
  else message = 'execution reverted';
  return { code: 3, message, data };
}

/** Caps `gas` at 10x the latest block's gas limit (geth's rpc.gascap); the call still runs. */
export function capGas(params: unknown[], gasLimit: bigint | undefined): unknown[] {
  const call = params[0] as Record<string, unknown> | undefined;
  if (gasLimit === undefined || typeof call?.gas !== 'string') return params;
  const cap = gasLimit * 10n;
  if (BigInt(call.gas) <= cap) return params;
  return [{ ...call, gas: '0x' + cap.toString(16) }, ...params.slice(1)];
}

/** Left-pads storage keys to 32 bytes (anvil refuses shorter keys; geth accepts them). */
export function padStorageKeys(params: unknown[]): unknown[] {
  const keys = params[1] as string[];
  if (keys.every((k) => k.length === 66)) return params;
  const padded = keys.map((k) => '0x' + k.slice(2).padStart(64, '0'));
  return [params[0], padded, ...params.slice(2)];
}
