import { readFileSync, writeFileSync } from 'node:fs';
import { RPC_SPEC_VERSION } from '../core/constants';
import { Devnet, DevnetDump, SimulationFlags, Unit } from '../core/devnet';
import { rpcErrors } from '../core/errors';
import { Felt, toHex } from '../core/felt';
import {
  InvalidParamError,
  parseTransaction,
  Transaction,
  transactionToJson,
} from '../core/transactions';
import { getEvents } from './events';
import {
  blockIdParam,
  feltArray,
  feltParam,
  integerParam,
  normalizeParams,
  Params,
  required,
  stringList,
} from './params';
import {
  blockHeader,
  feeEstimateJson,
  receiptJson,
  simulationJson,
  stateDiffJson,
  statusJson,
  traceJson,
  transactionJson,
} from './serialize';

/** The running devnet; devnet_load and devnet_restart swap it for another instance. */
export interface DevnetHost {
  devnet: Devnet;
  /** What starknet_specVersion answers (--rpc-version); 0.9.x also takes 0.9's getEvents shape. */
  rpcVersion?: string;
  /** Called after the devnet is replaced, so the server can re-arm its block timer. */
  onReplaced?: () => void;
}

type Handler = (host: DevnetHost, params: Params) => unknown;

interface MethodSpec {
  params: readonly string[];
  handler: Handler;
}

function transactionsParam(value: unknown, name: string): Transaction[] {
  if (!Array.isArray(value)) throw new InvalidParamError(name, 'expected an array of transactions');
  return value.map((tx, index) => parseTransaction(tx, `${name}[${index}]`));
}

function simulationFlags(value: unknown, name: string): SimulationFlags {
  const flags = stringList(value ?? [], name);
  for (const flag of flags) {
    if (flag !== 'SKIP_VALIDATE' && flag !== 'SKIP_FEE_CHARGE') {
      throw new InvalidParamError(name, `unknown flag ${flag}`);
    }
  }
  return {
    skipValidate: flags.includes('SKIP_VALIDATE'),
    skipFeeCharge: flags.includes('SKIP_FEE_CHARGE'),
  };
}

function addTransaction(
  host: DevnetHost,
  raw: unknown,
  name: string,
  type: Transaction['type'],
): Record<string, string> {
  const tx = parseTransaction(raw, name, type);
  const { hash } = host.devnet.submitTransaction(tx);
  const result: Record<string, string> = { transaction_hash: toHex(hash) };
  if (tx.type === 'DEPLOY_ACCOUNT') result.contract_address = toHex(tx.senderAddress);
  if (tx.type === 'DECLARE') result.class_hash = toHex(tx.classHash);
  return result;
}

function unitParam(value: unknown): Unit {
  if (value === undefined) return 'FRI';
  if (value !== 'FRI' && value !== 'WEI')
    throw new InvalidParamError('unit', "expected 'FRI' or 'WEI'");
  return value;
}

function amountParam(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) return BigInt(value);
  throw new InvalidParamError('amount', 'expected a non-negative integer');
}

function secondsParam(value: unknown, name: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new InvalidParamError(name, 'expected a non-negative integer number of seconds');
}

function pathParam(params: Params): string {
  const path = params.path;
  if (typeof path !== 'string' || path.length === 0)
    throw new InvalidParamError('path', 'expected a file path');
  return path;
}

export const methods: Record<string, MethodSpec> = {
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
      return { ...blockHeader(block), transactions: block.transactions.map((t) => toHex(t.hash)) };
    },
  },
  starknet_getBlockWithTxs: {
    params: ['block_id', 'response_flags'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      return { ...blockHeader(block), transactions: block.transactions.map(transactionJson) };
    },
  },
  starknet_getBlockWithReceipts: {
    params: ['block_id', 'response_flags'],
    handler: (h, p) => {
      const block = h.devnet.resolveBlock(blockIdParam(p));
      return {
        ...blockHeader(block),
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
  starknet_getNonce: {
    params: ['block_id', 'contract_address'],
    handler: (h, p) => toHex(h.devnet.getNonce(feltParam(p, 'contract_address'), blockIdParam(p))),
  },
  starknet_getClassHashAt: {
    params: ['block_id', 'contract_address'],
    handler: (h, p) =>
      toHex(h.devnet.getClassHashAt(feltParam(p, 'contract_address'), blockIdParam(p))),
  },
  starknet_getClassAt: {
    params: ['block_id', 'contract_address'],
    handler: (h, p) => {
      const blockId = blockIdParam(p);
      return h.devnet.getClass(
        h.devnet.getClassHashAt(feltParam(p, 'contract_address'), blockId),
        blockId,
      );
    },
  },
  starknet_getClass: {
    params: ['block_id', 'class_hash'],
    handler: (h, p) => h.devnet.getClass(feltParam(p, 'class_hash'), blockIdParam(p)),
  },
  starknet_getStorageAt: {
    params: ['contract_address', 'key', 'block_id'],
    handler: (h, p) =>
      toHex(
        h.devnet.getStorageAt(
          feltParam(p, 'contract_address'),
          feltParam(p, 'key'),
          blockIdParam(p),
        ),
      ),
  },
  starknet_call: {
    params: ['request', 'block_id'],
    handler: (h, p) => {
      const request = required(p, 'request');
      if (!request || typeof request !== 'object')
        throw new InvalidParamError('request', 'expected an object');
      const r = request as Params;
      const result = h.devnet.call(
        feltParam(r, 'contract_address'),
        feltParam(r, 'entry_point_selector'),
        feltArray(r.calldata ?? [], 'request.calldata'),
        blockIdParam(p),
      );
      return result.map((felt: Felt) => toHex(felt));
    },
  },
  starknet_estimateFee: {
    params: ['request', 'simulation_flags', 'block_id'],
    handler: (h, p) => {
      const txs = transactionsParam(required(p, 'request'), 'request');
      const flags = simulationFlags(p.simulation_flags, 'simulation_flags');
      return h.devnet.estimateFee(txs, blockIdParam(p), flags.skipValidate).map(feeEstimateJson);
    },
  },
  starknet_simulateTransactions: {
    params: ['block_id', 'transactions', 'simulation_flags'],
    handler: (h, p) => {
      const txs = transactionsParam(required(p, 'transactions'), 'transactions');
      const flags = simulationFlags(p.simulation_flags, 'simulation_flags');
      return h.devnet.simulate(txs, blockIdParam(p), flags, true).map(simulationJson);
    },
  },
  starknet_addInvokeTransaction: {
    params: ['invoke_transaction'],
    handler: (h, p) =>
      addTransaction(h, required(p, 'invoke_transaction'), 'invoke_transaction', 'INVOKE'),
  },
  starknet_addDeployAccountTransaction: {
    params: ['deploy_account_transaction'],
    handler: (h, p) =>
      addTransaction(
        h,
        required(p, 'deploy_account_transaction'),
        'deploy_account_transaction',
        'DEPLOY_ACCOUNT',
      ),
  },
  starknet_addDeclareTransaction: {
    params: ['declare_transaction'],
    handler: (h, p) =>
      addTransaction(h, required(p, 'declare_transaction'), 'declare_transaction', 'DECLARE'),
  },
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
    handler: (h, p) => traceJson(h.devnet.getTransaction(feltParam(p, 'transaction_hash')).run),
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

  // ---- starknet-devnet compatible methods ----
  devnet_getPredeployedAccounts: {
    params: ['with_balance'],
    handler: (h, p) =>
      h.devnet.predeployedAccounts.map((account) => {
        if (p.with_balance !== true) return account;
        const address = BigInt(account.address);
        return {
          ...account,
          balance: {
            eth: { amount: h.devnet.balanceOf(address, 'WEI', 'latest').toString(), unit: 'WEI' },
            strk: { amount: h.devnet.balanceOf(address, 'FRI', 'latest').toString(), unit: 'FRI' },
          },
        };
      }),
  },
  devnet_mint: {
    params: ['address', 'amount', 'unit'],
    handler: (h, p) => {
      const address = feltParam(p, 'address');
      const amount = amountParam(required(p, 'amount'));
      const unit = unitParam(p.unit);
      if (amount >= 2n ** 256n) throw new InvalidParamError('amount', 'must fit in a u256');
      const { newBalance, transaction } = h.devnet.mint(address, amount, unit);
      return { new_balance: newBalance.toString(), unit, tx_hash: toHex(transaction.hash) };
    },
  },
  devnet_getAccountBalance: {
    params: ['address', 'unit', 'block_id'],
    handler: (h, p) => {
      const unit = unitParam(p.unit);
      const amount = h.devnet.balanceOf(
        feltParam(p, 'address'),
        unit,
        blockIdParam(p, 'block_id', 'latest'),
      );
      return { amount: amount.toString(), unit };
    },
  },
  devnet_setTime: {
    params: ['time', 'generate_block'],
    handler: (h, p) => {
      const time = secondsParam(p.time, 'time');
      const block = h.devnet.setTime(time, p.generate_block === true);
      return {
        block_timestamp: time,
        ...(block ? { block_hash: toHex(block.hash ?? 0n) } : {}),
      };
    },
  },
  devnet_increaseTime: {
    params: ['time'],
    handler: (h, p) => {
      const seconds = secondsParam(p.time, 'time');
      const block = h.devnet.increaseTime(seconds);
      return { timestamp_increased_by: seconds, block_hash: toHex(block.hash ?? 0n) };
    },
  },
  devnet_createBlock: {
    params: [],
    handler: (h) => ({ block_hash: toHex(h.devnet.closeBlock().hash ?? 0n) }),
  },
  devnet_dump: {
    params: ['path'],
    handler: (h, p) => {
      const dump = h.devnet.dump();
      if (p.path === undefined) return dump;
      writeFileSync(pathParam(p), JSON.stringify(dump));
      return null;
    },
  },
  devnet_load: {
    params: ['path'],
    handler: (h, p) => {
      let dump: DevnetDump;
      try {
        dump = JSON.parse(readFileSync(pathParam(p), 'utf8')) as DevnetDump;
      } catch {
        throw new InvalidParamError('path', 'cannot read a devnet dump from this file');
      }
      try {
        h.devnet = Devnet.load(dump);
      } catch (error) {
        if (!(error instanceof InvalidParamError)) throw error;
        const detail = error.message.replace(/^Invalid params: /, '');
        throw new InvalidParamError('path', `not a devnet dump (version 1): ${detail}`);
      }
      h.onReplaced?.();
      return null;
    },
  },
  devnet_restart: {
    params: ['restart_l1_to_l2_messaging'],
    handler: (h) => {
      const dump = h.devnet.dump();
      h.devnet = Devnet.load({
        ...dump,
        genesisTimestamp: Math.floor(Date.now() / 1000),
        actions: [],
      });
      h.onReplaced?.();
      return null;
    },
  },
  devnet_getConfig: {
    params: [],
    handler: (h) => {
      const { options } = h.devnet.dump();
      return {
        seed: options.seed,
        total_accounts: options.accounts,
        chain_id: h.devnet.chainIdName,
        initial_balance: options.initialBalance,
        block_generation_on: h.devnet.blockPerTransaction ? 'transaction' : 'interval',
      };
    },
  },
};

export function runMethod(host: DevnetHost, name: string, rawParams: unknown): unknown {
  const spec = methods[name];
  return spec.handler(host, normalizeParams(rawParams, spec.params));
}
