/**
 * The Starknet values and protocol every part of this project must agree on: the snap (the
 * networks it knows, the tokens it lists, the account class it derives addresses for, what it
 * signs for a paymaster), the paymaster, the devnet's genesis, the dapp client and site, and the
 * tests. Each is defined here once; the others import it. Pure modules without side effects, and
 * an ES module build (`module`), so a bundle keeps only what it uses.
 */
import type { constants } from 'starknet';

/**
 * Chain ids: felts of the short strings SN_MAIN and SN_SEPOLIA. starknet.js defines them too
 * (`constants.StarknetChainId`); the compiler checks these equal its, and they are written out
 * here so that importing them does not import starknet.js.
 */
export const MAINNET_CHAIN_ID =
  '0x534e5f4d41494e' satisfies typeof constants.StarknetChainId.SN_MAIN;
export const TESTNET_CHAIN_ID =
  '0x534e5f5345504f4c4941' satisfies typeof constants.StarknetChainId.SN_SEPOLIA;

/** The chain ids by their short-string names, as starknet.js's `constants.StarknetChainId`. */
export const STARKNET_CHAIN_IDS = {
  SN_MAIN: MAINNET_CHAIN_ID,
  SN_SEPOLIA: TESTNET_CHAIN_ID,
} as const satisfies typeof constants.StarknetChainId;

/** The STRK and ETH ERC-20 contracts: the same addresses on Mainnet, Sepolia and the devnet. */
export const STRK_TOKEN_ADDRESS =
  '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
export const ETH_TOKEN_ADDRESS =
  '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

/** Argent account 0.3.1 (Cairo 1), the snap's account class: constructor(owner, guardian). */
export const ARGENT_ACCOUNT_CLASS_HASH =
  '0x029927c8af6bccf3f6fda035981e765a7bdbf18a2dc0d630494f8758aa908e2b';

export { SUPPORTED_SPEC_VERSIONS, type SupportedSpecVersion } from './specVersions';

export type { AccountRecord, Erc20Token, TransactionRecord, TransactionStatus } from './records';

export * from './felt';
export * from './calls';
export * from './outsideExecution';
export * from './outsideExecutionTypedData';
