/**
 * The EIP-712 message the EVM accounts page signs with the keyring snap (its browser test
 * recovers the signer from a signature over the same typed data).
 */
export function exampleTypedData(chainId: number, address: string) {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person[]' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    domain: { name: 'EVM accounts demo', version: '1', chainId },
    message: {
      from: { name: 'Me', wallet: address },
      to: [{ name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }],
      contents: 'Hello from the keyring snap',
    },
  };
}
