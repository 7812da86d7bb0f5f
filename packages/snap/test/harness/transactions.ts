/** The v3 transaction details the signing tests send: resource bounds, nonce, tip, modes. */
export const BOUNDS = {
  l1_gas: { max_amount: '0x186a0', max_price_per_unit: '0x5af3107a4000' },
  l2_gas: { max_amount: '1000000', max_price_per_unit: '0x2540be400' },
  l1_data_gas: { max_amount: '0x200', max_price_per_unit: '0x3b9aca00' },
};

export const DETAILS = {
  nonce: '0x5',
  resourceBounds: BOUNDS,
  tip: '0x10',
  paymasterData: ['0x7'],
  nonceDataAvailabilityMode: 'L1',
  feeDataAvailabilityMode: 'L2',
  version: '0x3',
};

/** `bounds` as starknet.js's hash functions take them (bigints). */
export function toBoundsBN(bounds: typeof BOUNDS) {
  const bn = (b: { max_amount: string; max_price_per_unit: string }) => ({
    max_amount: BigInt(b.max_amount),
    max_price_per_unit: BigInt(b.max_price_per_unit),
  });
  return {
    l1_gas: bn(bounds.l1_gas),
    l2_gas: bn(bounds.l2_gas),
    l1_data_gas: bn(bounds.l1_data_gas),
  };
}
