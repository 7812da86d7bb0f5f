/**
 * The most one request may ask of the paymaster: each limit is a -32602 naming the field, before
 * any node call (the work a stranger can cause per request is bounded by them; README, Methods).
 */
import { errors } from '../errors';
import type { Call } from './calls';

/** User calls per request (the fee transfer of default mode comes on top). */
export const MAX_USER_CALLS = 32;
/** Felts of one call's calldata. */
export const MAX_CALL_FELTS = 2048;
/** Felts of all calldata of one request. */
export const MAX_REQUEST_FELTS = 4096;

export function checkCalldataTotal(calls: readonly Call[], field: string): void {
  const total = calls.reduce((sum, call) => sum + call.calldata.length, 0);
  if (total > MAX_REQUEST_FELTS) {
    throw errors.invalidParams(
      field,
      `holds ${total} felts of calldata, more than the ${MAX_REQUEST_FELTS} a request may carry`,
    );
  }
}
