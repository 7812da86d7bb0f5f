import { RPC_SPEC_VERSION } from '../../core/constants';
import { toHex } from '../../core/felt';
import { blockIdParam } from '../params';
import { blockHeader, receiptJson, stateDiffJson, transactionJson } from '../serialize';
import type { MethodTable } from './host';

/** The chain and its blocks: spec version, chain id, heads, blocks, state updates. */
export const blockMethods: MethodTable = {
  starknet_specVersion: { params: [], handler: (h) => h.rpcVersion ?? RPC_SPEC_VERSION },
  starknet_chainId: { params: [], handler: (h) => toHex(h.devnet.chainId) },
  starknet_syncing: { params: [], handler: () => false },
  starknet_blockNumber: { params: [], handler: (h) => h.devnet.latestBlock().number },
  starknet_blockHashAndNumber: {
    params: [],
    handler: (h) => {
      const block = h.devnet.latestBlock();
      return { block_hash: toHex(block.hash ?? 0n), block_number: block.number };
    },
  },
  starknet_getBlockWithTxHashes: {
    params: ['block_id'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      return {
        ...blockHeader(h.devnet, block),
        transactions: block.transactions.map((t) => toHex(t.hash)),
      };
    },
  },
  starknet_getBlockWithTxs: {
    params: ['block_id', 'response_flags'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      return {
        ...blockHeader(h.devnet, block),
        transactions: block.transactions.map(transactionJson),
      };
    },
  },
  starknet_getBlockWithReceipts: {
    params: ['block_id', 'response_flags'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      return {
        ...blockHeader(h.devnet, block),
        transactions: block.transactions.map((record) => ({
          transaction: transactionJson(record),
          receipt: receiptJson(h.devnet, record, false),
        })),
      };
    },
  },
  starknet_getStateUpdate: {
    params: ['block_id', 'contract_addresses'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      const previous = block.number > 0 ? h.devnet.blocks[block.number - 1] : undefined;
      const stateDiff = stateDiffJson(block.diff, block.declared);
      const oldRoot = toHex(previous?.newRoot ?? 0n);
      if (block.hash === undefined) return { old_root: oldRoot, state_diff: stateDiff };
      return {
        block_hash: toHex(block.hash),
        new_root: toHex(block.newRoot),
        old_root: oldRoot,
        state_diff: stateDiff,
      };
    },
  },
  starknet_getBlockTransactionCount: {
    params: ['block_id'],
    handler: (h, p) => h.devnet.resolveBlock(blockIdParam(p)).transactions.length,
  },
};
