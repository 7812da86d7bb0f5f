import { poseidonSmall, type PoseidonFn } from '@scure/starknet';
import { FIELD_PRIME } from './felt';

// Starknet's Poseidon (Hades, width 3, 8 full + 83 partial rounds, cubic S-box) with the round
// constants of @scure/starknet, specialised to its sparse MDS matrix [[3,1,1],[1,-1,1],[1,1,-2]]:
// the generic permutation spends most of its time in that matrix product, and transaction and
// block hashes are on the per-transaction hot path. Tests check it against @scure's permutation.

const P = FIELD_PRIME;
const FULL_HALF = 4;
const ROUNDS = 91;
const constants: bigint[] = (poseidonSmall.roundConstants as bigint[][]).flat();

function cube(x: bigint): bigint {
  return (x * x * x) % P;
}

function reduce(x: bigint): bigint {
  const r = x % P;
  return r < 0n ? r + P : r;
}

function fullRound(state: [bigint, bigint, bigint], k: number): void {
  const s0 = cube(state[0] + constants[k]);
  const s1 = cube(state[1] + constants[k + 1]);
  const s2 = cube(state[2] + constants[k + 2]);
  const sum = s0 + s1 + s2;
  state[0] = reduce(sum + 2n * s0);
  state[1] = reduce(sum - 2n * s1);
  state[2] = reduce(sum - 3n * s2);
}

function permute(input: bigint[]): bigint[] {
  const state: [bigint, bigint, bigint] = [input[0], input[1], input[2]];
  let round = 0;
  for (; round < FULL_HALF; round += 1) fullRound(state, round * 3);
  // Partial rounds cube only the last lane: the other two may grow unreduced (a few hundred
  // bits over 83 rounds), which saves two reductions per round.
  let [s0, s1, s2] = state;
  for (; round < ROUNDS - FULL_HALF; round += 1) {
    const k = round * 3;
    s0 += constants[k];
    s1 += constants[k + 1];
    s2 = cube(s2 + constants[k + 2]);
    const sum = s0 + s1 + s2;
    const n0 = sum + 2n * s0;
    s1 = sum - 2n * s1;
    s2 = reduce(sum - 3n * s2);
    s0 = n0;
  }
  state[0] = reduce(s0);
  state[1] = reduce(s1);
  state[2] = s2;
  for (; round < ROUNDS; round += 1) fullRound(state, round * 3);
  return state;
}

/** The permutation in the shape @scure's sponge helpers accept. */
export const fastPoseidon: PoseidonFn = Object.assign(permute, {
  roundConstants: poseidonSmall.roundConstants,
  m: 3,
  rate: 2,
  capacity: 1,
}) as unknown as PoseidonFn;
