import { defineNativeClass } from '../classes';
import { ContractExecutionError } from '../errors';
import type { CalldataReader } from '../calldata';
import type { CallContext, NativeClass } from '../execution';
import { encodeShortString, Felt, selectorFromName, splitU256 } from '../felt';
import type { StateReader } from '../state';
import { abiFunction, BOOL_ENUM, cairo1Abi, storageAddress, T, U256_STRUCT } from './abi';

// Storage layout of the OpenZeppelin ERC20 component, so getStorageAt reads real slots.
const BALANCES = 'ERC20_balances';
const ALLOWANCES = 'ERC20_allowances';
const TOTAL_SUPPLY = 'ERC20_total_supply';
const NAME = 'ERC20_name';
const SYMBOL = 'ERC20_symbol';
const DECIMALS = 'ERC20_decimals';
/**
 * The one account allowed to call permissioned_mint: the devnet's faucet (as in starknet-devnet).
 */
const PERMITTED_MINTER = 'permitted_minter';

const TRANSFER_EVENT = selectorFromName('Transfer');
const APPROVAL_EVENT = selectorFromName('Approval');
const U256_MAX = 2n ** 256n - 1n;

function readU256(ctx: CallContext, slot: Felt): bigint {
  return (ctx.read(slot + 1n) << 128n) + ctx.read(slot);
}

function writeU256(ctx: CallContext, slot: Felt, value: bigint): void {
  const [low, high] = splitU256(value);
  ctx.write(slot, low);
  ctx.write(slot + 1n, high);
}

export function balanceSlot(owner: Felt): Felt {
  return storageAddress(BALANCES, owner);
}

/** A token's balance of `owner` read straight from state (no call). */
export function balanceAt(state: StateReader, token: Felt, owner: Felt): bigint {
  const slot = balanceSlot(owner);
  return (state.storageAt(token, slot + 1n) << 128n) + state.storageAt(token, slot);
}

function transfer(ctx: CallContext, from: Felt, to: Felt, amount: bigint): void {
  if (from === 0n) throw new ContractExecutionError('ERC20: transfer from 0');
  if (to === 0n) throw new ContractExecutionError('ERC20: transfer to 0');
  const fromSlot = balanceSlot(from);
  const fromBalance = readU256(ctx, fromSlot);
  if (fromBalance < amount) throw new ContractExecutionError('ERC20: insufficient balance');
  writeU256(ctx, fromSlot, fromBalance - amount);
  const toSlot = balanceSlot(to);
  writeU256(ctx, toSlot, readU256(ctx, toSlot) + amount);
  ctx.emit([TRANSFER_EVENT, from, to], splitU256(amount));
}

function approve(ctx: CallContext, owner: Felt, spender: Felt, amount: bigint): void {
  if (owner === 0n) throw new ContractExecutionError('ERC20: approve from 0');
  if (spender === 0n) throw new ContractExecutionError('ERC20: approve to 0');
  writeU256(ctx, storageAddress(ALLOWANCES, owner, spender), amount);
  ctx.emit([APPROVAL_EVENT, owner, spender], splitU256(amount));
}

function spendAllowance(ctx: CallContext, owner: Felt, spender: Felt, amount: bigint): void {
  const slot = storageAddress(ALLOWANCES, owner, spender);
  const current = readU256(ctx, slot);
  if (current === U256_MAX) return;
  if (current < amount) throw new ContractExecutionError('ERC20: insufficient allowance');
  writeU256(ctx, slot, current - amount);
  ctx.emit([APPROVAL_EVENT, owner, spender], splitU256(current - amount));
}

/** Mints outside any transaction: the devnet's faucet and genesis funding. */
export function mintTo(ctx: CallContext, to: Felt, amount: bigint): void {
  const slot = balanceSlot(to);
  writeU256(ctx, slot, readU256(ctx, slot) + amount);
  const supply = storageAddress(TOTAL_SUPPLY);
  writeU256(ctx, supply, readU256(ctx, supply) + amount);
  ctx.emit([TRANSFER_EVENT, 0n, to], splitU256(amount));
}

export function initToken(
  ctx: CallContext,
  name: string,
  symbol: string,
  decimals: number,
  minter: Felt,
): void {
  ctx.write(storageAddress(PERMITTED_MINTER), minter);
  ctx.write(storageAddress(NAME), encodeShortString(name));
  ctx.write(storageAddress(SYMBOL), encodeShortString(symbol));
  ctx.write(storageAddress(DECIMALS), BigInt(decimals));
}

const functions = [
  abiFunction('name', [], [T.felt]),
  abiFunction('symbol', [], [T.felt]),
  abiFunction('decimals', [], [T.u8]),
  abiFunction('total_supply', [], [T.u256]),
  abiFunction('totalSupply', [], [T.u256]),
  abiFunction('balance_of', [['account', T.address]], [T.u256]),
  abiFunction('balanceOf', [['account', T.address]], [T.u256]),
  abiFunction(
    'allowance',
    [
      ['owner', T.address],
      ['spender', T.address],
    ],
    [T.u256],
  ),
  abiFunction(
    'transfer',
    [
      ['recipient', T.address],
      ['amount', T.u256],
    ],
    [T.bool],
    'external',
  ),
  abiFunction(
    'transfer_from',
    [
      ['sender', T.address],
      ['recipient', T.address],
      ['amount', T.u256],
    ],
    [T.bool],
    'external',
  ),
  abiFunction(
    'transferFrom',
    [
      ['sender', T.address],
      ['recipient', T.address],
      ['amount', T.u256],
    ],
    [T.bool],
    'external',
  ),
  abiFunction(
    'approve',
    [
      ['spender', T.address],
      ['amount', T.u256],
    ],
    [T.bool],
    'external',
  ),
];

const events = [
  {
    type: 'event',
    name: 'Transfer',
    kind: 'struct',
    members: [
      { name: 'from', type: T.address, kind: 'key' },
      { name: 'to', type: T.address, kind: 'key' },
      { name: 'value', type: T.u256, kind: 'data' },
    ],
  },
  {
    type: 'event',
    name: 'Approval',
    kind: 'struct',
    members: [
      { name: 'owner', type: T.address, kind: 'key' },
      { name: 'spender', type: T.address, kind: 'key' },
      { name: 'value', type: T.u256, kind: 'data' },
    ],
  },
];

/**
 * The constructor of a token deployed through the UDC, like OpenZeppelin's ERC-20 presets with the
 * decimals given: constructor(name: felt252, symbol: felt252 (short strings), decimals: u8,
 * initial_supply: u256, recipient: ContractAddress). The whole supply goes to `recipient`; nobody
 * may mint more. With no calldata at all it does nothing: ETH and STRK are deployed so in genesis
 * and initialised by the devnet itself (initToken).
 */
const CONSTRUCTOR_INPUTS: [string, string][] = [
  ['name', T.felt],
  ['symbol', T.felt],
  ['decimals', T.u8],
  ['initial_supply', T.u256],
  ['recipient', T.address],
];

function construct(ctx: CallContext, input: CalldataReader): Felt[] {
  if (input.data.length === 0) return [];
  const name = input.felt();
  const symbol = input.felt();
  const decimals = input.felt();
  if (decimals > 255n) throw new ContractExecutionError('Failed to deserialize param #3');
  const supply = input.u256();
  const recipient = input.felt();
  input.end();
  ctx.write(storageAddress(NAME), name);
  ctx.write(storageAddress(SYMBOL), symbol);
  ctx.write(storageAddress(DECIMALS), decimals);
  if (supply > 0n) mintTo(ctx, recipient, supply);
  return [];
}

const balanceOf = (ctx: CallContext, input: { felt(): Felt; end(): void }): Felt[] => {
  const account = input.felt();
  input.end();
  return splitU256(readU256(ctx, balanceSlot(account)));
};
const totalSupply = (ctx: CallContext): Felt[] =>
  splitU256(readU256(ctx, storageAddress(TOTAL_SUPPLY)));

export function erc20Class(classHash: string): NativeClass {
  return defineNativeClass(
    'ERC20',
    classHash,
    [...cairo1Abi('IERC20', functions, CONSTRUCTOR_INPUTS, [U256_STRUCT, BOOL_ENUM]), ...events],
    {
      name: (ctx) => [ctx.read(storageAddress(NAME))],
      symbol: (ctx) => [ctx.read(storageAddress(SYMBOL))],
      decimals: (ctx) => [ctx.read(storageAddress(DECIMALS))],
      total_supply: totalSupply,
      totalSupply,
      balance_of: balanceOf,
      balanceOf,
      allowance: (ctx, input) => {
        const owner = input.felt();
        const spender = input.felt();
        input.end();
        return splitU256(readU256(ctx, storageAddress(ALLOWANCES, owner, spender)));
      },
      transfer: (ctx, input) => {
        const recipient = input.felt();
        const amount = input.u256();
        input.end();
        transfer(ctx, ctx.caller, recipient, amount);
        return [1n];
      },
      permissioned_mint: (ctx, input) => {
        const account = input.felt();
        const amount = input.u256();
        input.end();
        if (ctx.caller !== ctx.read(storageAddress(PERMITTED_MINTER))) {
          throw new ContractExecutionError('ERC20: only the permitted minter can mint');
        }
        const supply = readU256(ctx, storageAddress(TOTAL_SUPPLY));
        if (supply + amount > U256_MAX) throw new ContractExecutionError('u256_add Overflow');
        mintTo(ctx, account, amount);
        return [];
      },
      transfer_from: (ctx, input) => transferFrom(ctx, input),
      transferFrom: (ctx, input) => transferFrom(ctx, input),
      approve: (ctx, input) => {
        const spender = input.felt();
        const amount = input.u256();
        input.end();
        approve(ctx, ctx.caller, spender, amount);
        return [1n];
      },
    },
    construct,
  );
}

function transferFrom(
  ctx: CallContext,
  input: { felt(): Felt; u256(): bigint; end(): void },
): Felt[] {
  const sender = input.felt();
  const recipient = input.felt();
  const amount = input.u256();
  input.end();
  spendAllowance(ctx, sender, ctx.caller, amount);
  transfer(ctx, sender, recipient, amount);
  return [1n];
}

/** Fee payment: a plain transfer from the account to the sequencer, with its Transfer event. */
export function chargeFee(ctx: CallContext, payer: Felt, sequencer: Felt, amount: bigint): void {
  transfer(ctx, payer, sequencer, amount);
}

export function balanceIn(ctx: CallContext, owner: Felt): bigint {
  return readU256(ctx, balanceSlot(owner));
}
