import path from 'node:path';

/**
 * The constants tests, benches and scripts share. Starknet's are the values the devnet and the
 * snap use (test/constants.test.ts checks they agree with both); nothing else defines them again.
 */

export const LOOPBACK = '127.0.0.1';
/** Nothing listens on the discard port: a request there is refused at once. */
export const CLOSED_URL = `http://${LOOPBACK}:9`;

/** Starknet chain ids: felts of the short strings SN_MAIN and SN_SEPOLIA. */
export const STARKNET_MAINNET = '0x534e5f4d41494e';
export const STARKNET_TESTNET = '0x534e5f5345504f4c4941';

/** The STRK and ETH ERC-20s, the same addresses on Mainnet, Sepolia and the devnet (padded). */
export const STRK_TOKEN = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
export const ETH_TOKEN = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
/** 1 STRK (and 1 ETH) in its smallest unit. */
export const TOKEN_UNIT = 10n ** 18n;

/** Argent account 0.3.1 (Cairo 1), the snap's account class: constructor(owner, guardian). */
export const ARGENT_ACCOUNT_CLASS_HASH =
  '0x029927c8af6bccf3f6fda035981e765a7bdbf18a2dc0d630494f8758aa908e2b';

/** anvil's chain id. */
export const ANVIL_CHAIN_ID = 31337;

/**
 * anvil's default dev accounts (mnemonic "test test ... junk"): public test keys, never funded
 * anywhere real.
 */
export const ANVIL_ACCOUNTS = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1d1706367c2e68ca870fc3fb9a804cdab365a',
  },
] as const satisfies ReadonlyArray<{ address: `0x${string}`; privateKey: `0x${string}` }>;

/** The repository root (this file is packages/testkit/{src,dist}/constants). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');
