/**
 * The starknet-react page's sponsored transaction: its paymaster per chain, its call, its
 * deployment data.
 */
import type { Chain } from '@starknet-react/chains';
import {
  ARGENT_ACCOUNT_CLASS_HASH,
  STARKNET_MAINNET,
  STARKNET_TESTNET,
  STRK_TOKEN,
} from '@l2wallet/testkit';
import { CallData, hash } from 'starknet';

import {
  paymasterRpcFor,
  sponsoredDeployment,
  strkApproveCall,
} from '../src/starknetReact/sponsored';

/** The members of @starknet-react/chains' chains the helper reads (that package is ESM only). */
const chain = (id: string, avnu: string) =>
  ({ id: BigInt(id), paymasterRpcUrls: { avnu: { http: [avnu] } } }) as unknown as Chain;
const sepolia = chain(STARKNET_TESTNET, 'https://sepolia.paymaster.avnu.fi/');
const mainnet = chain(STARKNET_MAINNET, 'https://starknet.paymaster.avnu.fi/');

const LOCAL = { url: 'http://127.0.0.1:8090', apiKey: 'demo-key' };

describe('the sponsored panel helpers', () => {
  it("Sepolia uses the page's paymaster with its sponsor key; Mainnet AVNU's public one, keyless", () => {
    expect(paymasterRpcFor(sepolia, LOCAL)).toEqual({
      nodeUrl: 'http://127.0.0.1:8090',
      headers: { 'x-paymaster-api-key': 'demo-key' },
    });
    expect(paymasterRpcFor(sepolia, { ...LOCAL, apiKey: '' })).toEqual({
      nodeUrl: 'http://127.0.0.1:8090',
      headers: {},
    });
    // The page's key never goes to another chain's paymaster.
    expect(paymasterRpcFor(mainnet, LOCAL)).toEqual({
      nodeUrl: 'https://starknet.paymaster.avnu.fi/',
    });
  });

  it('approve sends the u256 amount as starknet.js compiles it', () => {
    const amount = (1n << 130n) + 5n;
    const call = strkApproveCall('0x5ea1ed', amount);
    expect(call).toMatchObject({ contractAddress: STRK_TOKEN, entrypoint: 'approve' });
    expect(CallData.toCalldata(call.calldata)).toEqual(
      CallData.compile({ spender: '0x5ea1ed', amount: { low: 5n, high: 4n } }),
    );
  });

  it('takes a Cairo 1 account deployment as starknet.js paymaster needs it, and refuses Cairo 0', () => {
    const data = {
      address: hash.calculateContractAddressFromHash(
        '0x1',
        ARGENT_ACCOUNT_CLASS_HASH,
        ['0x1', '0x0'],
        0,
      ),
      class_hash: ARGENT_ACCOUNT_CLASS_HASH,
      salt: '0x1',
      calldata: ['0x1', '0x0'],
    };
    expect(sponsoredDeployment({ ...data, version: 1 })).toEqual({ ...data, version: 1 });
    expect(() => sponsoredDeployment({ ...data, version: 0 })).toThrow(/Cairo 1 accounts only/);
  });
});
