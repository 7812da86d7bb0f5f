/**
 * SNIP-12 fixtures: revision 0 (Pedersen, felt domain) and revision 1 (Poseidon). They live in
 * typedData.json so that bench/snap (plain Node) signs the same revision 1 message.
 */
import fixtures from './typedData.json';

export const REV0_TYPED_DATA = fixtures.rev0;
export const REV1_TYPED_DATA = fixtures.rev1;
