/** A node failure as the client sees it: the node's reason (156), or the node unreachable (163). */
import { errors, PaymasterError } from '../errors';
import { NodeRpcError, nodeReason, NodeUnavailable } from '../node/client';

export function mapNodeError(error: unknown, what: string): unknown {
  if (error instanceof PaymasterError) return error;
  if (error instanceof NodeRpcError) return errors.executionError(`${what}: ${nodeReason(error)}`);
  if (error instanceof NodeUnavailable) {
    return errors.unknown(
      `the Starknet node is unavailable (${error.message}); nothing was submitted`,
    );
  }
  return error;
}
