/**
 * The shared Starknet constants (@l2wallet/starknet-protocol, which the snap, the devnet, the
 * client, the site and the testkit import). The chain ids are checked against starknet.js, a
 * source that does not come from them. The token addresses and the class hash are Starknet's
 * published values; here a running devnet shows they are wired through: its genesis puts its
 * ERC-20 contracts at those addresses and declares its Argent account class under that hash.
 */
import {
  ANVIL_ACCOUNTS,
  ARGENT_ACCOUNT_CLASS_HASH,
  ETH_TOKEN,
  rpc,
  STARKNET_MAINNET,
  STARKNET_TESTNET,
  startDevnet,
  STRK_TOKEN,
} from '@l2wallet/testkit';
import { constants, shortString } from 'starknet';

// The devnet's source (jest maps @l2wallet/devnet to it), typed by what is read.
const { ERC20_CLASS_HASH } = require('@l2wallet/devnet') as { ERC20_CLASS_HASH: string };

const felt = (value: string) => BigInt(value);

describe('shared Starknet constants', () => {
  it("chain ids: starknet.js's, the felts of the short strings SN_MAIN and SN_SEPOLIA", () => {
    expect(STARKNET_MAINNET).toBe(constants.StarknetChainId.SN_MAIN);
    expect(STARKNET_TESTNET).toBe(constants.StarknetChainId.SN_SEPOLIA);
    expect(STARKNET_MAINNET).toBe(shortString.encodeShortString('SN_MAIN'));
    expect(STARKNET_TESTNET).toBe(shortString.encodeShortString('SN_SEPOLIA'));
  });

  it('a devnet holds ERC-20 contracts at the STRK and ETH addresses and knows the Argent class', async () => {
    const devnet = await startDevnet({ accounts: 1 });
    try {
      for (const token of [STRK_TOKEN, ETH_TOKEN]) {
        const classHash = await rpc<string>(devnet.rpcUrl, 'starknet_getClassHashAt', {
          block_id: 'latest',
          contract_address: token,
        });
        expect(felt(classHash)).toBe(felt(ERC20_CLASS_HASH));
      }
      const argent = await rpc<{ abi: unknown }>(devnet.rpcUrl, 'starknet_getClass', {
        block_id: 'latest',
        class_hash: ARGENT_ACCOUNT_CLASS_HASH,
      });
      expect(argent.abi).toBeDefined();
    } finally {
      await devnet.stop();
    }
  });
});

describe('anvil accounts', () => {
  it("each key is the key of its address (anvil's mnemonic, derived by viem)", () => {
    const { mnemonicToAccount, privateKeyToAccount } =
      require('viem/accounts') as typeof import('viem/accounts');
    ANVIL_ACCOUNTS.forEach((account, index) => {
      const derived = mnemonicToAccount(
        'test test test test test test test test test test test junk',
        {
          addressIndex: index,
        },
      );
      expect(derived.address).toBe(account.address);
      expect(privateKeyToAccount(account.privateKey).address).toBe(account.address);
    });
  });
});
