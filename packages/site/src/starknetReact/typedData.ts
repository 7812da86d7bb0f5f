/**
 * What the starknet-react page asks the wallet to sign (its browser test verifies a signature
 * over the same typed data).
 */
import { MAINNET_CHAIN_ID } from '@l2wallet/starknet-protocol';

function shortChainName(chainId: bigint | undefined): 'SN_MAIN' | 'SN_SEPOLIA' {
  return chainId === BigInt(MAINNET_CHAIN_ID) ? 'SN_MAIN' : 'SN_SEPOLIA';
}

/** SNIP-12 revision 1 typed data bound to the network the wallet is on. */
export function typedDataFor(chainId: bigint | undefined, contents: string) {
  return {
    types: {
      StarknetDomain: [
        { name: 'name', type: 'shortstring' },
        { name: 'version', type: 'shortstring' },
        { name: 'chainId', type: 'shortstring' },
        { name: 'revision', type: 'shortstring' },
      ],
      Message: [{ name: 'contents', type: 'string' }],
    },
    primaryType: 'Message',
    domain: {
      name: 'starknet-react page',
      version: '1',
      chainId: shortChainName(chainId),
      revision: '1',
    },
    message: { contents },
  };
}
