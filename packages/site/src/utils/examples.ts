/** The example values the method cards start from: typed data, a class to declare, a transfer. */
import { MAINNET_CHAIN_ID, TESTNET_CHAIN_ID } from '@l2wallet/client';
import { STRK_ADDRESS } from './config';
// Sierra of a tiny counter contract (a copy of
// packages/devnet/test/fixtures/counter.contract_class.json).
import COUNTER_CLASS from './counter.contract_class.json';

export { COUNTER_CLASS };

/** A known network's chain id as its shortstring name (readable in the dialog), else the hex id. */
function domainChainId(chainId: string): string {
  if (chainId === MAINNET_CHAIN_ID) return 'SN_MAIN';
  if (chainId === TESTNET_CHAIN_ID) return 'SN_SEPOLIA';
  return chainId;
}

/**
 * Example SNIP-12 typed data for the network `chainId`: the snap signs typed data only when its
 * domain names the request's network (a signature cannot be replayed on the other one).
 */
export const exampleTypedData = (chainId: string) => ({
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
    chainId: domainChainId(chainId),
    verifyingContract: '0x1',
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
});

/** The counter class's Sierra class hash. */
export const COUNTER_CLASS_HASH =
  '0x7c1460695c1b8eed37d48dd5922b3ebe92823d1824b62795875b6f6be65381b';
/**
 * A stated compiled (CASM) class hash for the counter: the class ships without CASM, and the local
 * devnet stores the value as given (a public network checks it against its own compilation).
 */
export const COUNTER_COMPILED_CLASS_HASH =
  '0x4dc263bfa7272a718aa6f4f2ea9c4c4cc74d840f983a2f427554d7eb1553a19';

/** Fee bounds that cover a small transaction on the devnet (the snap requires resourceBounds). */
export const EXAMPLE_RESOURCE_BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x2e90edd000' },
  l2_gas: { max_amount: '0x4c4b40', max_price_per_unit: '0x1e8480' },
  l1_data_gas: { max_amount: '0x1388', max_price_per_unit: '0x30d40' },
};

/** 0.001 STRK to yourself: a harmless transfer that works once the account is funded. */
export function transferCall(ctx: { address: string }) {
  return [
    {
      contractAddress: STRK_ADDRESS,
      entrypoint: 'transfer',
      calldata: [ctx.address || '0x1', '1000000000000000', '0'],
    },
  ];
}
