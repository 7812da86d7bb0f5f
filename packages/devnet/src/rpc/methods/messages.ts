import { StarknetRpcError } from '../../core/errors';
import { toHex } from '../../core/felt';
import { InvalidParamError } from '../../core/transactions';
import { MESSAGE_TO_L2_FIELDS, parseMessageFromL1, parseMessageToL2 } from '../../core/messaging';
import { blockIdParam, feltParam, required } from '../params';
import { messageFeeEstimateJson } from '../serialize';
import type { MethodTable } from './host';

/**
 * L1 <-> L2: messages sent into the devnet as if from L1 (there is no L1 here), their statuses
 * and fees, and accepting blocks on L1. The devnet_* ones are named and shaped as
 * starknet-devnet's.
 */
export const messageMethods: MethodTable = {
  starknet_getMessagesStatus: {
    params: ['transaction_hash'],
    handler: (h, p) =>
      h.devnet.messagesOf(feltParam(p, 'transaction_hash')).map((record) => ({
        transaction_hash: toHex(record.hash),
        finality_status: h.devnet.finalityOf(record),
        execution_status: record.executionStatus,
        ...(record.revertReason === undefined ? {} : { failure_reason: record.revertReason }),
      })),
  },
  starknet_estimateMessageFee: {
    params: ['message', 'block_id'],
    handler: (h, p) =>
      messageFeeEstimateJson(
        h.devnet.estimateMessageFee(parseMessageFromL1(required(p, 'message')), blockIdParam(p)),
      ),
  },
  devnet_postmanSendMessageToL2: {
    params: [...MESSAGE_TO_L2_FIELDS],
    handler: (h, p) => {
      const record = h.devnet.sendMessageToL2(parseMessageToL2(p));
      return { transaction_hash: toHex(record.hash) };
    },
  },
  devnet_postmanFlush: {
    params: ['dry_run'],
    handler: (h, p) => {
      if (p.dry_run !== undefined && typeof p.dry_run !== 'boolean')
        throw new InvalidParamError('dry_run', 'expected a boolean');
      // Messages to L2 are executed when sent, and no contract here sends messages to L1, so a
      // dry run has nothing to show; a real flush needs an L1, which this devnet does not have
      // (starknet-devnet's error when no messaging contract is loaded).
      if (p.dry_run !== true) {
        throw new StarknetRpcError(
          -32603,
          'Internal error',
          "Error in fetching messages to L2: Message is not configured, ensure you've used `postman/load_l1_messaging_contract` endpoint first.",
        );
      }
      return {
        messages_to_l1: [],
        messages_to_l2: [],
        generated_l2_transactions: [],
        l1_provider: 'dry run',
      };
    },
  },
  devnet_acceptOnL1: {
    params: ['starting_block_id'],
    handler: (h, p) => ({
      accepted: h.devnet
        .acceptOnL1(blockIdParam(p, 'starting_block_id'))
        .map((hash) => toHex(hash)),
    }),
  },
};
