import { toHex } from '../../core/felt';
import { parseMessageFromL1, parseMessageToL2 } from '../../core/messaging';
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
    params: [
      'l2_contract_address',
      'entry_point_selector',
      'l1_contract_address',
      'payload',
      'paid_fee_on_l1',
      'nonce',
      'l1_transaction_hash',
    ],
    handler: (h, p) => {
      const record = h.devnet.sendMessageToL2(parseMessageToL2(p));
      return { transaction_hash: toHex(record.hash) };
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
