/**
 * Calls as Starknet accounts execute them, their encodings, and the fee transfer a relayed
 * execution ends with. Pure: the selectors are written out (test/protocol.test.ts checks them
 * against starknet.js), so importing this module does not load starknet.js.
 */
import { toHex, u256Split } from './felt';

export interface Call {
  to: bigint;
  selector: bigint;
  calldata: bigint[];
}

/** A call as SNIP-29's CALL and Starknet JSON-RPC write it. */
export interface CallJson {
  to: string;
  selector: string;
  calldata: string[];
}

/** The entry points this project writes calls to, by selector (starknet_keccak of the name). */
export const SELECTORS = {
  transfer: 0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12en,
  balanceOf: 0x35a73cd311a05d46deda634c5ee045db92f811b4e74bca4437fcb5302b7af33n,
  decimals: 0x4c4fb1ab068f6039d5780c68dd0fa2f8742cceb3426d19667778ca7f3518a9n,
  deployContract: 0x2730079d734ee55315f4f141eaed376bddd8c2133523d223a344c5604e0f7f8n,
  supportsInterface: 0xfe80f537b66d12a00b6d3c072b44afbb716e78dde5c3f0ef116ee93d3e3283n,
  isValidSignature: 0x28420862938116cb3bbdbedee07451ccc54d4e9412dbef71142ad1980a30941n,
  executeFromOutside: 0x7ec457cd7ed1630225a8328f826a29a327b19486f6b2882b4176545ebdbe3dn,
  executeFromOutsideV2: 0x34cc13b274446654ca3233ed2c1620d4c5d1d32fd20b47146a3371064bdc57dn,
} as const;

export const callJson = (call: Call): CallJson => ({
  to: toHex(call.to),
  selector: toHex(call.selector),
  calldata: call.calldata.map(toHex),
});

export const sameCall = (a: Call, b: Call): boolean =>
  a.to === b.to &&
  a.selector === b.selector &&
  a.calldata.length === b.calldata.length &&
  a.calldata.every((value, i) => value === b.calldata[i]);

/** The calldata of a Cairo 1 account's __execute__(calls: Array<Call>). */
export function multicallCalldata(calls: readonly Call[]): bigint[] {
  const out: bigint[] = [BigInt(calls.length)];
  for (const call of calls) {
    out.push(call.to, call.selector, BigInt(call.calldata.length), ...call.calldata);
  }
  return out;
}

/** ERC-20 transfer(recipient, amount: u256): the fee a relayed execution pays in its token. */
export function transferCall(token: bigint, recipient: bigint, amount: bigint): Call {
  return { to: token, selector: SELECTORS.transfer, calldata: [recipient, ...u256Split(amount)] };
}

/** The parts of an ERC-20 transfer(recipient, low, high); undefined for any other call. */
export function readTransfer(
  call: Call,
): { token: bigint; recipient: bigint; low: bigint; high: bigint } | undefined {
  if (call.selector !== SELECTORS.transfer || call.calldata.length !== 3) {
    return undefined;
  }
  const [recipient, low, high] = call.calldata;
  return { token: call.to, recipient, low, high };
}
