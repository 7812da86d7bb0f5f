/** SNIP-12 fixtures: revision 0 (Pedersen, felt domain) and revision 1 (Poseidon). */
export const REV0_TYPED_DATA = {
  types: {
    StarkNetDomain: [
      { name: 'name', type: 'felt' },
      { name: 'version', type: 'felt' },
      { name: 'chainId', type: 'felt' },
      { name: 'verifyingContract', type: 'felt' },
    ],
    Person: [
      { name: 'name', type: 'felt' },
      { name: 'wallet', type: 'felt' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'felt' },
    ],
  },
  primaryType: 'Mail',
  domain: {
    name: 'Starknet Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0x02c94f628d125cd0e86eaefea735ba24c262b9a441728f63e5776661829a4066',
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
};

export const REV1_TYPED_DATA = {
  types: {
    StarknetDomain: [
      { name: 'name', type: 'shortstring' },
      { name: 'version', type: 'shortstring' },
      { name: 'chainId', type: 'shortstring' },
      { name: 'revision', type: 'shortstring' },
    ],
    Transfer: [
      { name: 'recipient', type: 'ContractAddress' },
      { name: 'amount', type: 'u128' },
      { name: 'memo', type: 'string' },
      { name: 'approved', type: 'bool' },
    ],
  },
  primaryType: 'Transfer',
  domain: { name: 'Example DApp', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
  message: {
    recipient: '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    amount: '1000000',
    memo: 'a memo longer than thirty-one characters, stored as a ByteArray',
    approved: true,
  },
};
