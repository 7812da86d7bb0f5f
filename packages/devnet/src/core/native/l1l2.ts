import { defineNativeClass } from '../classes';
import type { CalldataReader } from '../calldata';
import type { CallContext } from '../execution';
import { FIELD_PRIME, selectorFromName } from '../felt';
import { storageAddress, T } from './abi';

// starknet-devnet's L1-L2 messaging example (contracts/l1-l2-messaging/cairo/src/l1_l2.cairo in
// its repository), so an L1 -> L2 message has an `#[l1_handler]` to reach: `deposit` adds to a
// user's balance and emits DepositFromL1. Not implemented: `withdraw` and `withdraw_from_lib`
// (messages to L1).

/** The Sierra class hash of starknet-devnet's compiled l1_l2 artifact. */
export const L1L2_CLASS_HASH = '0x6253cd221bfd9719eb3b5f553f79b84b59f0b1522625219a4c408d471714b71';

const DEPOSIT_FROM_L1 = selectorFromName('DepositFromL1');
const balanceSlot = (user: bigint) => storageAddress('balances', user);

const ABI = [
  {
    type: 'function',
    name: 'get_balance',
    inputs: [{ name: 'user', type: T.felt }],
    outputs: [{ type: T.felt }],
    state_mutability: 'view',
  },
  {
    type: 'function',
    name: 'increase_balance',
    inputs: [
      { name: 'user', type: T.felt },
      { name: 'amount', type: T.felt },
    ],
    outputs: [],
    state_mutability: 'external',
  },
  {
    type: 'l1_handler',
    name: 'deposit',
    inputs: [
      { name: 'from_address', type: T.felt },
      { name: 'user', type: T.felt },
      { name: 'amount', type: T.felt },
    ],
    outputs: [],
    state_mutability: 'external',
  },
  {
    type: 'event',
    name: 'cairo::l1_l2::l1_l2::DepositFromL1',
    kind: 'struct',
    members: [
      { name: 'user', type: T.felt, kind: 'key' },
      { name: 'amount', type: T.felt, kind: 'key' },
    ],
  },
];

function increase(ctx: CallContext, user: bigint, amount: bigint): void {
  const slot = balanceSlot(user);
  ctx.write(slot, (ctx.read(slot) + amount) % FIELD_PRIME);
}

export const l1l2Class = defineNativeClass(
  'l1_l2',
  L1L2_CLASS_HASH,
  ABI,
  {
    get_balance: (ctx: CallContext, args: CalldataReader) => [ctx.read(balanceSlot(args.felt()))],
    increase_balance: (ctx: CallContext, args: CalldataReader) => {
      increase(ctx, args.felt(), args.felt());
      return [];
    },
  },
  undefined,
  {
    deposit: (ctx: CallContext, args: CalldataReader) => {
      args.felt(); // from_address: the example does not check its L1 sender
      const user = args.felt();
      const amount = args.felt();
      increase(ctx, user, amount);
      ctx.emit([DEPOSIT_FROM_L1, user, amount], []);
      return [];
    },
  },
);
