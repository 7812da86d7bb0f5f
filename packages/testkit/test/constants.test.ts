/**
 * The testkit's Starknet constants are the ones the devnet serves and the snap and the client
 * ship: one set of values, checked here so a copy can never drift.
 */
import {
  ARGENT_ACCOUNT_CLASS_HASH,
  ETH_TOKEN,
  STARKNET_MAINNET,
  STARKNET_TESTNET,
  STRK_TOKEN,
} from '@l2wallet/testkit';

// Loaded from the packages' sources (jest maps @l2wallet/devnet to it), typed by what is read.
const devnet = require('@l2wallet/devnet') as {
  CHAIN_IDS: Record<string, string>;
  STRK_TOKEN_ADDRESS: string;
  ETH_TOKEN_ADDRESS: string;
  ARGENT_ACCOUNT_CLASS_HASH: string;
};
const snapNetworks = require('../../snap/src/networks') as Record<string, string>;
const snapSchema = require('../../snap/src/state/schema') as Record<string, unknown>;
const client = require('../../client/src/types') as Record<string, string>;

const felt = (value: unknown) => BigInt(value as string);

describe('shared constants', () => {
  it('chain ids: the devnet, the snap and the client agree with the testkit', () => {
    expect(devnet.CHAIN_IDS.SN_MAIN).toBe(STARKNET_MAINNET);
    expect(devnet.CHAIN_IDS.SN_SEPOLIA).toBe(STARKNET_TESTNET);
    expect(snapNetworks.MAINNET_CHAIN_ID).toBe(STARKNET_MAINNET);
    expect(snapNetworks.TESTNET_CHAIN_ID).toBe(STARKNET_TESTNET);
    expect(client.MAINNET_CHAIN_ID).toBe(STARKNET_MAINNET);
    expect(client.TESTNET_CHAIN_ID).toBe(STARKNET_TESTNET);
  });

  it("STRK and ETH addresses and the Argent class hash are the devnet's and the snap's", () => {
    expect(felt(STRK_TOKEN)).toBe(felt(devnet.STRK_TOKEN_ADDRESS));
    expect(felt(ETH_TOKEN)).toBe(felt(devnet.ETH_TOKEN_ADDRESS));
    expect(felt(ARGENT_ACCOUNT_CLASS_HASH)).toBe(felt(devnet.ARGENT_ACCOUNT_CLASS_HASH));
    expect(felt(snapSchema.STRK_TOKEN_ADDRESS)).toBe(felt(STRK_TOKEN));
    expect(felt(snapSchema.ETH_TOKEN_ADDRESS)).toBe(felt(ETH_TOKEN));
  });
});
