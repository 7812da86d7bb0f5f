import { readFileSync, writeFileSync } from 'node:fs';
import { Devnet, DevnetDump, Unit } from '../../core/devnet';
import { toHex } from '../../core/felt';
import { InvalidParamError } from '../../core/transactions';
import { blockIdParam, feltParam, Params, required } from '../params';
import type { MethodTable } from './host';

// starknet-devnet's own methods, named and shaped as its DevnetProvider sends them.

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

/** Accounts and funds: the predeployed accounts, the faucet, balances. */
const accountMethods: MethodTable = {
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
};

/** The clock and block production. */
const timeMethods: MethodTable = {
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
  // starknet-devnet's shape: {starting_block_id} -> {aborted: [block hashes, latest first]}.
  devnet_abortBlocks: {
    params: ['starting_block_id'],
    handler: (h, p) => ({
      aborted: h.devnet
        .abortBlocks(blockIdParam(p, 'starting_block_id'))
        .map((block) => toHex(block.hash ?? 0n)),
    }),
  },
};

/** The whole chain: dump to a file, load, restart, configuration. The file I/O lives here. */
const chainMethods: MethodTable = {
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

export const devnetMethods: MethodTable = { ...accountMethods, ...timeMethods, ...chainMethods };
