import path from 'node:path';

/**
 * The constants tests, benches and scripts share. Starknet's come from
 * @l2wallet/starknet-protocol, as the snap's, the devnet's and the client's do.
 */

export const LOOPBACK = '127.0.0.1';
/** Nothing listens on the discard port: a request there is refused at once. */
export const CLOSED_URL = `http://${LOOPBACK}:9`;

/** Starknet chain ids (felts of the short strings SN_MAIN and SN_SEPOLIA). */
export {
  MAINNET_CHAIN_ID as STARKNET_MAINNET,
  TESTNET_CHAIN_ID as STARKNET_TESTNET,
  /** The STRK and ETH ERC-20s, the same addresses on Mainnet, Sepolia and the devnet (padded). */
  STRK_TOKEN_ADDRESS as STRK_TOKEN,
  ETH_TOKEN_ADDRESS as ETH_TOKEN,
  /** Argent account 0.3.1 (Cairo 1), the snap's account class: constructor(owner, guardian). */
  ARGENT_ACCOUNT_CLASS_HASH,
} from '@l2wallet/starknet-protocol';
/**
 * SNIP-12 revision 1's domain type: the `StarknetDomain` member of a typed message's `types`
 * (every field a shortstring; `revision` is '1').
 */
export const SNIP12_DOMAIN_TYPE = [
  { name: 'name', type: 'shortstring' },
  { name: 'version', type: 'shortstring' },
  { name: 'chainId', type: 'shortstring' },
  { name: 'revision', type: 'shortstring' },
];

/** 1 STRK (and 1 ETH) in its smallest unit. */
export const TOKEN_UNIT = 10n ** 18n;

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
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
] as const satisfies ReadonlyArray<{ address: `0x${string}`; privateKey: `0x${string}` }>;

/** The repository root (this file is packages/testkit/{src,dist}/constants). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');
