/** Chain IDs and felts as the snap parses them (src/starknet/networks.ts, src/starknet/felt.ts). */
import { normalizeChainId } from '../../src/starknet/networks';
import { FIELD_PRIME, parseFelt } from '../../src/starknet/felt';
import { MAINNET, TESTNET } from '../harness/snap';

describe('chain IDs and felts', () => {
  it('normalises chain IDs', () => {
    expect(normalizeChainId('0x0534E5F4D41494E')).toBe(MAINNET);
    expect(normalizeChainId('SN_SEPOLIA')).toBe(TESTNET);
    expect(normalizeChainId('mainnet')).toBeUndefined();
  });

  it('parses felts below the field prime only', () => {
    expect(parseFelt('0x10')).toBe(16n);
    expect(parseFelt('16')).toBe(16n);
    expect(parseFelt(16)).toBe(16n);
    expect(parseFelt(FIELD_PRIME - 1n)).toBe(FIELD_PRIME - 1n);
    expect(parseFelt(`0x${FIELD_PRIME.toString(16)}`)).toBeUndefined();
    expect(parseFelt(-1)).toBeUndefined();
    expect(parseFelt(2 ** 60)).toBeUndefined();
    expect(parseFelt('0x')).toBeUndefined();
    expect(parseFelt('1e5')).toBeUndefined();
  });
});
