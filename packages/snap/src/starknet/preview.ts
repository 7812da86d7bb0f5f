/**
 * What a transaction does to an account, read from a starknet_simulateTransactions answer: the
 * signed change of each token balance (the Transfer events that touch the account) and the
 * allowances it sets (its Approval events as owner), or the revert reason. Pure: the tokens'
 * symbols and decimals are read elsewhere (flows/preview.ts).
 *
 * Events are counted from the validation, execution and constructor calls of each simulated
 * transaction, never from the fee transfer: the fee is shown apart, as the most the signed
 * bounds allow, not as this simulation's charge.
 */
import { hash } from 'starknet';

import { parseFeeEstimate, type FeeEstimate } from './fees';
import { isHexFelt } from './felt';

const TRANSFER = BigInt(hash.getSelectorFromName('Transfer'));
const APPROVAL = BigInt(hash.getSelectorFromName('Approval'));
const U128 = 2n ** 128n;
/** An allowance this large is shown as unlimited (u256 max, and the 2^128 - 1 some dapps use). */
export const UNLIMITED_ALLOWANCE = U128 - 1n;

export type TraceEvent = { emitter: bigint; keys: bigint[]; data: bigint[] };

/** One simulated transaction: its fee estimate, its events, and its revert reason if any. */
export type SimulatedTransaction = {
  estimate: FeeEstimate;
  events: TraceEvent[];
  revertReason?: string | undefined;
};

export type BalanceChange = { token: string; amount: bigint };
export type AllowanceSet = { token: string; spender: string; amount: bigint };

export type Effects = {
  changes: BalanceChange[];
  approvals: AllowanceSet[];
  /** The first revert reason, decoded, when a simulated transaction reverts. */
  revertReason?: string | undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const felts = (value: unknown): bigint[] | undefined =>
  Array.isArray(value) && value.every(isHexFelt) ? value.map((felt) => BigInt(felt)) : undefined;

/** The events of a FUNCTION_INVOCATION and of every call under it, each with its emitter. */
function invocationEvents(invocation: unknown, into: TraceEvent[], depth = 0): void {
  if (!isRecord(invocation) || depth > 64 || !isHexFelt(invocation.contract_address)) {
    return;
  }
  const emitter = BigInt(invocation.contract_address);
  const events = Array.isArray(invocation.events) ? invocation.events : [];
  for (const event of events) {
    const keys = isRecord(event) ? felts(event.keys) : undefined;
    const data = isRecord(event) ? felts(event.data) : undefined;
    if (keys && data) {
      into.push({ emitter, keys, data });
    }
  }
  for (const call of Array.isArray(invocation.calls) ? invocation.calls : []) {
    invocationEvents(call, into, depth + 1);
  }
}

/** One SIMULATED_TRANSACTION (`{transaction_trace, fee_estimation}`) as the preview reads it. */
export function parseSimulatedTransaction(raw: unknown): SimulatedTransaction {
  const value = isRecord(raw) ? raw : {};
  const trace = isRecord(value.transaction_trace) ? value.transaction_trace : {};
  const events: TraceEvent[] = [];
  invocationEvents(trace.validate_invocation, events);
  invocationEvents(trace.constructor_invocation, events);
  const execute = trace.execute_invocation;
  let revertReason: string | undefined;
  if (isRecord(execute) && typeof execute.revert_reason === 'string') {
    revertReason = decodeRevertReason(execute.revert_reason);
  } else {
    invocationEvents(execute, events);
  }
  return { estimate: parseFeeEstimate(value.fee_estimation), events, revertReason };
}

/** A u256 as two felts [low, high] (each below 2^128). */
function u256(low: bigint | undefined, high: bigint | undefined): bigint | undefined {
  if (low === undefined || high === undefined || low >= U128 || high >= U128) {
    return undefined;
  }
  return low + (high << 128n);
}

/**
 * [from, to, amount] of an ERC-20 Transfer or Approval event: Cairo 1 tokens key the two
 * addresses (keys [selector, a, b], data [low, high]); older ones put them in data.
 */
function readPair(event: TraceEvent, selector: bigint): [bigint, bigint, bigint] | undefined {
  const { keys, data } = event;
  if (keys[0] !== selector) {
    return undefined;
  }
  if (keys.length === 3 && data.length === 2) {
    const amount = u256(data[0], data[1]);
    return amount === undefined ? undefined : [keys[1], keys[2], amount];
  }
  if (keys.length === 1 && data.length === 4) {
    const amount = u256(data[2], data[3]);
    return amount === undefined ? undefined : [data[0], data[1], amount];
  }
  return undefined;
}

const hexAddress = (value: bigint): string => `0x${value.toString(16).padStart(64, '0')}`;

/**
 * The effects on `account` of the simulated transactions, in order: each token's net balance
 * change (tokens whose change nets to zero are left out) and the last allowance set per token and
 * spender. A contract's events are its own: a token is the contract that emitted the event.
 */
export function effectsOn(account: string, simulated: readonly SimulatedTransaction[]): Effects {
  const self = BigInt(account);
  const changes = new Map<string, bigint>();
  const approvals = new Map<string, AllowanceSet>();
  for (const { events } of simulated) {
    for (const event of events) {
      const token = hexAddress(event.emitter);
      const transfer = readPair(event, TRANSFER);
      if (transfer) {
        const [from, to, amount] = transfer;
        const delta = (to === self ? amount : 0n) - (from === self ? amount : 0n);
        changes.set(token, (changes.get(token) ?? 0n) + delta);
        continue;
      }
      const approval = readPair(event, APPROVAL);
      if (approval && approval[0] === self) {
        const spender = hexAddress(approval[1]);
        approvals.set(`${token}:${spender}`, { token, spender, amount: approval[2] });
      }
    }
  }
  const revertReason = simulated.find((tx) => tx.revertReason !== undefined)?.revertReason;
  return {
    changes: [...changes]
      .filter(([, amount]) => amount !== 0n)
      .map(([token, amount]) => ({ token, amount })),
    approvals: [...approvals.values()],
    ...(revertReason === undefined ? {} : { revertReason }),
  };
}

const MAX_REASON = 300;

/** A felt as the text it spells, when it is printable ASCII of 3 characters or more. */
function shortText(hex: string): string | undefined {
  let value = BigInt(hex);
  let text = '';
  while (value > 0n) {
    const code = Number(value & 0xffn);
    if (code < 0x20 || code > 0x7e) {
      return undefined;
    }
    text = String.fromCharCode(code) + text;
    value >>= 8n;
  }
  return text.length >= 3 ? text : undefined;
}

/**
 * A node's revert reason as a user reads it: the texts nodes print beside the felts of a Cairo
 * panic (`0x4552...  ('ERC20: insufficient balance')`), else the felts that spell text, else the
 * reason as given; at most 300 characters.
 */
export function decodeRevertReason(reason: string): string {
  const quoted = [...reason.matchAll(/\('([^']*)'\)/gu)].map((match) => match[1]);
  let text: string;
  if (quoted.length > 0) {
    text = [...new Set(quoted)].join(', ');
  } else {
    const spelled = [...reason.matchAll(/0x[0-9a-fA-F]{6,62}\b/gu)]
      .map((match) => shortText(match[0]))
      .filter((part): part is string => part !== undefined);
    text = spelled.length > 0 ? [...new Set(spelled)].join(', ') : reason.trim();
  }
  const clean = text.replace(/\s+/gu, ' ');
  return clean.length > MAX_REASON ? `${clean.slice(0, MAX_REASON)}...` : clean;
}
