import { friToToken, parseStrkPrice, withMargin } from '../../src/protocol/fees';

const ETH = { address: 1n, decimals: 18, priceInFri: parseStrkPrice('2500') };
const USDC = { address: 2n, decimals: 6, priceInFri: parseStrkPrice('0.5') };

it('reads prices in STRK as FRI per whole token', () => {
  expect(parseStrkPrice('1')).toBe(10n ** 18n);
  expect(parseStrkPrice('0.000000000000000001')).toBe(1n);
  expect(parseStrkPrice('2500.25')).toBe(2500_250000000000000000n);
  for (const bad of ['0', '-1', '1e3', 'abc', '1.0000000000000000001', '']) {
    expect(() => parseStrkPrice(bad)).toThrow();
  }
});

it('converts FRI into a gas token rounding up, so the relayer is never paid less', () => {
  expect(friToToken(2500n * 10n ** 18n, ETH)).toBe(10n ** 18n); // 2500 STRK = 1 ETH
  expect(friToToken(1n, ETH)).toBe(1n); // a fraction of a wei is a wei
  expect(friToToken(2501n, ETH)).toBe(2n);
  // USDC at 0.5 STRK: 1 STRK = 2 USDC = 2_000_000 units.
  expect(friToToken(10n ** 18n, USDC)).toBe(2_000_000n);
  expect(friToToken(10n ** 18n + 1n, USDC)).toBe(2_000_001n);
});

it('adds the margin rounding up', () => {
  expect(withMargin(100n, 50)).toBe(150n);
  expect(withMargin(101n, 50)).toBe(152n);
  expect(withMargin(7n, 0)).toBe(7n);
});
