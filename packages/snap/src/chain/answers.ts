/**
 * Node answers read strictly: a value of the wrong shape is the node's fault, reported as such
 * (-32002, not retryable), never read as zero.
 */
import { ResourceUnavailableError } from '@metamask/snaps-sdk';

const FELT = /^0x[0-9a-fA-F]{1,64}$/u;

export function isFeltAnswer(value: unknown): value is string {
  return typeof value === 'string' && FELT.test(value);
}

export function malformedAnswer(what: string): Error {
  return new ResourceUnavailableError(
    `The Starknet node answered ${what} with a malformed value. Nothing was changed in the snap; check the node.`,
    { retryable: false, reason: 'malformed answer', timedOut: false },
  );
}

/** A u256 returned as [low, high] felts (an ERC-20 balance_of answer). */
export function u256Answer(result: unknown, what: string): bigint {
  if (!Array.isArray(result) || result.length !== 2 || !result.every(isFeltAnswer)) {
    throw malformedAnswer(what);
  }
  const [low, high] = result as string[];
  return BigInt(low) + (BigInt(high) << 128n);
}
