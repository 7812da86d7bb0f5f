/**
 * An upstream answer as it passes through: only its result (or error) text is kept, shared by
 * every merged caller, and each caller's response is that text wrapped with its own id (and
 * measured against the response's byte budget before it is built).
 */
import { UpstreamFailure } from './upstream';

/** An upstream answer without its id: the JSON text of its result, or of its error. */
export type Outcome = (
  { result: string; error?: undefined } | { error: string; result?: undefined }
) & {
  /** Answered by the failover partner (for one key's call only: never kept or shared). */
  fromPartner?: boolean;
  /** UTF-8 bytes of the result or error text, counted once (see outcomeBytes). */
  bytes?: number;
};

/**
 * UTF-8 bytes of an outcome's text. Merged callers share one Outcome object, so a large answer
 * is counted once, and measured without building (copying) any caller's response text.
 */
export function outcomeBytes(outcome: Outcome): number {
  outcome.bytes ??= Buffer.byteLength(outcome.result ?? outcome.error!);
  return outcome.bytes;
}

/** The response text for one caller: the shared outcome wrapped with the caller's own id. */
export function responseText(outcome: Outcome, id: unknown): string {
  const idText = typeof id === 'number' ? String(id) : JSON.stringify(id);
  return outcome.result !== undefined
    ? `{"jsonrpc":"2.0","id":${idText},"result":${outcome.result}}`
    : `{"jsonrpc":"2.0","id":${idText},"error":${outcome.error}}`;
}

/** Bytes an answer may still take: one per HTTP response or WebSocket message. */
export interface Budget {
  left: number;
}

/**
 * Takes the size of responseText(outcome, id) from the budget, without building it, or leaves
 * the budget untouched and says no.
 */
export function takeFromBudget(budget: Budget, outcome: Outcome, id: unknown): boolean {
  const text = outcome.result ?? outcome.error!;
  // `{"jsonrpc":"2.0","id":` + id + `,"result":` + text + `}`
  const envelope =
    33 + (typeof id === 'number' ? String(id).length : Buffer.byteLength(JSON.stringify(id)));
  // A character is at most 3 UTF-8 bytes: short answers need no byte count.
  if (text.length * 3 + envelope <= budget.left) {
    budget.left -= text.length + envelope;
    return true;
  }
  const bytes = outcomeBytes(outcome) + envelope;
  if (bytes > budget.left) return false;
  budget.left -= bytes;
  return true;
}

// Every upstream request carries id 1: an answer starting with this passes through unparsed.
const RESULT_PREFIX = '{"jsonrpc":"2.0","id":1,"result":';

/** The result or error text of one upstream answer; UpstreamFailure when it is neither. */
export function unwrap(text: string): Outcome {
  if (text.startsWith(RESULT_PREFIX) && text.endsWith('}')) {
    return { result: text.slice(RESULT_PREFIX.length, -1) };
  }
  let answer: { result?: unknown; error?: unknown };
  try {
    answer = JSON.parse(text);
  } catch {
    throw new UpstreamFailure('unavailable');
  }
  if (answer?.error !== undefined) return { error: JSON.stringify(answer.error) };
  if (answer && 'result' in answer) return { result: JSON.stringify(answer.result) };
  throw new UpstreamFailure('unavailable');
}
