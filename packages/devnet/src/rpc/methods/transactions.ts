import { RPC_SPEC_VERSION } from '../../core/constants';
import { rpcErrors } from '../../core/errors';
import { toHex } from '../../core/felt';
import { transactionToJson } from '../../core/transactions';
import { getEvents } from '../events';
import { blockIdParam, feltParam, integerParam, required } from '../params';
import { receiptJson, statusJson, traceJson, transactionJson } from '../serialize';
import type { MethodTable } from './host';

/** Transactions already known: by hash or position, receipts, statuses, traces, events. */
export const transactionMethods: MethodTable = {
  starknet_getTransactionByHash: {
    params: ['transaction_hash', 'response_flags'],
    handler: (h, p) => {
      const hash = feltParam(p, 'transaction_hash');
      // A RECEIVED transaction is known (and served) before it is executed.
      const queued = h.devnet.queuedTransaction(hash);
      if (queued) return { transaction_hash: toHex(hash), ...transactionToJson(queued) };
      return transactionJson(h.devnet.getTransaction(hash));
    },
  },
  starknet_getTransactionByBlockIdAndIndex: {
    params: ['block_id', 'index', 'response_flags'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      const record = block.transactions[integerParam(p, 'index') as number];
      if (!record) throw rpcErrors.invalidTxnIndex();
      return transactionJson(record);
    },
  },
  starknet_getTransactionReceipt: {
    params: ['transaction_hash'],
    handler: (h, p) =>
      receiptJson(h.devnet, h.devnet.getTransaction(feltParam(p, 'transaction_hash'))),
  },
  starknet_getTransactionStatus: {
    params: ['transaction_hash'],
    handler: (h, p) => {
      const hash = feltParam(p, 'transaction_hash');
      // Not executed yet: no execution_status (TXN_STATUS_RESULT); its receipt is error 29.
      if (h.devnet.queuedTransaction(hash)) return { finality_status: 'RECEIVED' };
      return statusJson(h.devnet, h.devnet.getTransaction(hash));
    },
  },
  starknet_traceTransaction: {
    params: ['transaction_hash'],
    handler: (h, p) => {
      const hash = feltParam(p, 'transaction_hash');
      // Known but not executed yet: the spec's 10 with its status, not 29.
      if (h.devnet.queuedTransaction(hash)) throw rpcErrors.noTraceAvailable('RECEIVED');
      return traceJson(h.devnet.getTransaction(hash).run);
    },
  },
  starknet_traceBlockTransactions: {
    params: ['block_id', 'trace_flags'],
    handler: (h, p) =>
      h.devnet.resolveBlock(blockIdParam(p)).transactions.map((record) => ({
        transaction_hash: toHex(record.hash),
        trace_root: traceJson(record.run),
      })),
  },
  starknet_getEvents: {
    params: ['filter'],
    handler: (h, p) =>
      getEvents(h.devnet, required(p, 'filter'), {
        addressList: !/^0\.9\./.test(h.rpcVersion ?? RPC_SPEC_VERSION),
      }),
  },
};
