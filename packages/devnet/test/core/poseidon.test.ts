import { poseidonHashMany, poseidonSmall } from '@scure/starknet';
import { randomBytes } from 'node:crypto';
import { FIELD_PRIME } from '../../src/core/felt';
import { fastPoseidon } from '../../src/core/poseidon';

const randomFelt = (): bigint => BigInt('0x' + randomBytes(32).toString('hex')) % FIELD_PRIME;

test('the specialised Poseidon permutation equals @scure/starknet poseidonSmall', () => {
  const edge = [0n, 1n, FIELD_PRIME - 1n];
  for (const a of edge)
    for (const b of edge)
      for (const c of edge) {
        expect(fastPoseidon([a, b, c])).toEqual(poseidonSmall([a, b, c]));
      }
  for (let i = 0; i < 200; i += 1) {
    const state = [randomFelt(), randomFelt(), randomFelt()];
    expect(fastPoseidon(state)).toEqual(poseidonSmall(state));
  }
});

test('sponge hashes agree for every length up to 12', () => {
  for (let length = 0; length <= 12; length += 1) {
    const values = Array.from({ length }, randomFelt);
    expect(poseidonHashMany(values, fastPoseidon)).toBe(poseidonHashMany(values));
  }
});
