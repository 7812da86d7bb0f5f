/**
 * Node answers read strictly: a value of the wrong shape is the node's fault, reported as such
 * (-32002, not retryable), never read as zero.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

import { isHexFelt, u256FromFelts } from '../starknet/felt';

export { isHexFelt as isFeltAnswer };

export function malformedAnswer(what: string): Error {
  return new ResourceUnavailableError(
    `The Starknet node answered ${what} with a malformed value. Nothing was changed in the snap; check the node.`,
    { retryable: false, reason: 'malformed answer', timedOut: false },
  );
}

/** A u256 returned as [low, high] felts (an ERC-20 balance_of answer). */
export function u256Answer(result: unknown, what: string): bigint {
  const value = u256FromFelts(result);
  if (value === undefined) {
    throw malformedAnswer(what);
  }
  return value;
}

/** A felt answer (a class hash, a nonce). */
export function feltAnswer(result: unknown, what: string): string {
  if (!isHexFelt(result)) {
    throw malformedAnswer(what);
  }
  return result;
}
