/**
 * What a simulation trace shows moving: the ERC-20 Transfer events a token emitted, walked
 * through the whole call tree. A fee counts only when the relayer's own simulation shows it
 * arriving (a contract that only claims to run the signed calls shows nothing).
 */
import { type Felt, u256Join } from './felt';

/** sn_keccak('Transfer'): the first key of an ERC-20 Transfer event (keys: from, to). */
export const TRANSFER_EVENT = 0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9n;

export interface TraceFrame {
  contract_address: string;
  calls?: TraceFrame[];
  events?: { keys: string[]; data: string[] }[];
  is_reverted?: boolean;
}

export interface TokenFlow {
  /** Transfers of the token to `holder` from anyone else. */
  received: bigint;
  /** Transfers of the token from `holder` to anyone else. */
  sent: bigint;
}

/** The token's Transfer events into and out of `holder` in `frames` and every call below them. */
export function tokenFlow(frames: readonly TraceFrame[], token: Felt, holder: Felt): TokenFlow {
  const flow: TokenFlow = { received: 0n, sent: 0n };
  const visit = (frame: TraceFrame) => {
    if (frame.is_reverted) return;
    if (BigInt(frame.contract_address) === token) {
      for (const event of frame.events ?? []) {
        if (event.keys.length !== 3 || BigInt(event.keys[0]) !== TRANSFER_EVENT) continue;
        if (event.data.length !== 2) continue;
        const [from, to] = [BigInt(event.keys[1]), BigInt(event.keys[2])];
        const amount = u256Join(BigInt(event.data[0]), BigInt(event.data[1]));
        if (to === holder && from !== holder) flow.received += amount;
        if (from === holder && to !== holder) flow.sent += amount;
      }
    }
    for (const call of frame.calls ?? []) visit(call);
  };
  for (const frame of frames) visit(frame);
  return flow;
}
