/**
 * Entry points the snap names in its dialogs and history: common token and account entry points
 * by their selector (starknet_keccak of the name). Any other is shown by its selector.
 */
import { hash } from 'starknet';

/** ERC-20 entry points whose calldata the dialogs decode (spender/recipient and a u256 amount). */
export const ERC20_ENTRY_POINTS = {
  transfer: ['recipient'],
  approve: ['spender'],
  transferFrom: ['sender', 'recipient'],
  transfer_from: ['sender', 'recipient'],
  increaseAllowance: ['spender'],
  increase_allowance: ['spender'],
  decreaseAllowance: ['spender'],
  decrease_allowance: ['spender'],
} as const;

export type Erc20EntryPoint = keyof typeof ERC20_ENTRY_POINTS;

const KNOWN_ENTRY_POINTS = [
  ...Object.keys(ERC20_ENTRY_POINTS),
  'mint',
  'permissioned_mint',
  'burn',
  'deploy_contract',
  'deployContract',
  'multicall',
  'swap',
  'increase_balance',
  'set_balance',
  'upgrade',
  // The account entry points the snap itself calls or signs for.
  '__execute__',
  '__validate__',
  'execute_from_outside',
  'execute_from_outside_v2',
  'change_owner',
  'change_guardian',
];

/** An entry point's selector: starknet_keccak of its name (0x-hex). */
export function selectorOf(name: string): string {
  return hash.getSelectorFromName(name);
}

const NAMES_BY_SELECTOR = new Map(
  KNOWN_ENTRY_POINTS.map((name) => [BigInt(selectorOf(name)), name]),
);

/** The name of a known entry point's selector, else undefined. */
export function knownEntryPoint(selector: string | bigint): string | undefined {
  try {
    return NAMES_BY_SELECTOR.get(BigInt(selector));
  } catch {
    return undefined;
  }
}

export function isErc20EntryPoint(name: string): name is Erc20EntryPoint {
  return Object.prototype.hasOwnProperty.call(ERC20_ENTRY_POINTS, name);
}
