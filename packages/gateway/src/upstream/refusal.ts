/**
 * JSON-RPC errors by which a provider refuses to serve (its quota, rate, plan or key), as opposed
 * to the chain's answer to the call: EIP-1474's -32005 "limit exceeded" (Infura and most
 * providers), -32007 (QuickNode's request limit), -32029 and -32090 (quota and rate codes of
 * other providers), 429 in the body (Alchemy), and a generic server error (-32000, -32001,
 * -32002, -32603) whose message says it is a rate, quota, capacity or key refusal. A revert is
 * never one. Like an HTTP 401/403/429, such an error fails over to the next upstream and is
 * never charged.
 */
const LIMIT_CODES = new Set([-32005, -32007, -32029, -32090, 429]);
const GENERIC_CODES = new Set([-32000, -32001, -32002, -32603]);
const REFUSAL_TEXT =
  /rate.?limit|too many requests|request limit|daily request|exceeded (?:its|the|your)? ?(?:quota|capacity|limit|credits|compute units)|capacity exceeded|quota|unauthori[sz]ed|forbidden|invalid (?:api|project) (?:key|id)|api key/i;

// Cheap before any parse: only error texts that carry one of the codes (or a message to read).
const MAYBE = /"code":\s*(?:-320(?:05|07|29|90|00|01|02)|-32603|429)\b/;

/** Whether an upstream error object (its JSON text) is a provider's refusal. */
export function isRefusal(errorJson: string): boolean {
  if (!MAYBE.test(errorJson)) return false;
  let error: { code?: unknown; message?: unknown };
  try {
    error = JSON.parse(errorJson) as typeof error;
  } catch {
    return false;
  }
  if (typeof error?.code !== 'number') return false;
  if (LIMIT_CODES.has(error.code)) return true;
  const message = typeof error.message === 'string' ? error.message : '';
  return GENERIC_CODES.has(error.code) && !/revert/i.test(message) && REFUSAL_TEXT.test(message);
}
