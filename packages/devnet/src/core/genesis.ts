import { ClassStore } from './classes';
import {
  CHAIN_IDS,
  DEFAULT_INITIAL_BALANCE,
  ERC20_CLASS_HASH,
  ETH_TOKEN_ADDRESS,
  LEGACY_UDC_ADDRESS,
  OZ_ACCOUNT_CLASS_HASH,
  STARKNET_VERSION,
  STRK_TOKEN_ADDRESS,
  UDC_ADDRESS,
} from './constants';
import { BlockInfo, CallContext, Execution } from './execution';
import { FAUCET_FEE_BALANCE } from './faucet';
import { encodeShortString, Felt } from './felt';
import { argentAccountClass, ozAccountClass } from './native/accounts';
import { erc20Class, initToken, mintTo } from './native/erc20';
import { l1l2Class } from './native/l1l2';
import { legacyUdcClass, udcClass } from './native/udc';
import { chargeableAccount, PredeployedAccount } from './predeployed';
import { StateDiff, StateOverlay, StateReader } from './state';

export interface DevnetOptions {
  /** Seed of the predeployed account keys (default 0). */
  seed?: number;
  /** Number of predeployed accounts (default 10). */
  accounts?: number;
  /** 'SN_SEPOLIA' (default), 'SN_MAIN', or any short string / felt. */
  chainId?: string;
  /** Initial ETH and STRK balance of each predeployed account (default 10^21). */
  initialBalance?: bigint;
  /** true (default): every transaction closes a block. false: blocks close on createBlock(). */
  blockPerTransaction?: boolean;
  /** Clock in unix seconds; injectable so replays are deterministic. */
  now?: () => number;
  /**
   * Unix seconds of the genesis block (starknet-devnet's --start-time); the clock runs on from it.
   */
  startTime?: number;
  /**
   * The Starknet version the blocks report (default 0.14.1). It picks the compiled class hash
   * a declare of a known class must carry: Blake2s from 0.14.1, Poseidon before.
   */
  starknetVersion?: string;
}

/** What a chain is made from: the options with their defaults (and what a dump keeps of them). */
export type ChainConfig = Required<Omit<DevnetOptions, 'now' | 'startTime'>>;

export function resolveConfig(options: DevnetOptions): ChainConfig {
  return {
    seed: options.seed ?? 0,
    accounts: options.accounts ?? 10,
    chainId: options.chainId ?? 'SN_SEPOLIA',
    initialBalance: options.initialBalance ?? DEFAULT_INITIAL_BALANCE,
    blockPerTransaction: options.blockPerTransaction ?? true,
    starknetVersion: options.starknetVersion ?? STARKNET_VERSION,
  };
}

/** 'SN_MAIN' / 'SN_SEPOLIA' by name, a hex felt as it is, any other text as a short string. */
export function resolveChainId(chainId: string): Felt {
  if (CHAIN_IDS[chainId]) return BigInt(CHAIN_IDS[chainId]);
  if (/^0x[0-9a-fA-F]+$/.test(chainId)) return BigInt(chainId);
  return encodeShortString(chainId);
}

/** The classes the devnet runs natively, declared in block 0. */
export function declareNativeClasses(classes: ClassStore): void {
  for (const native of [
    argentAccountClass,
    ozAccountClass,
    erc20Class(ERC20_CLASS_HASH),
    udcClass,
    legacyUdcClass,
    l1l2Class,
  ]) {
    classes.addNative(native, 0);
  }
}

/**
 * Block 0's state: ETH and STRK at their canonical addresses, the faucet account behind
 * devnet_mint (with STRK for the fees of any number of mints), both UDCs, and the predeployed
 * OpenZeppelin accounts, each funded with `initialBalance` of both tokens.
 */
export function genesisState(
  classes: ClassStore,
  empty: StateReader,
  block: BlockInfo,
  accounts: readonly PredeployedAccount[],
  initialBalance: bigint,
): StateDiff {
  const overlay = new StateOverlay(empty);
  const setup = new Execution(overlay, classes, block, undefined);
  const eth = BigInt(ETH_TOKEN_ADDRESS);
  const strk = BigInt(STRK_TOKEN_ADDRESS);
  const erc20 = BigInt(ERC20_CLASS_HASH);
  setup.deploy(eth, erc20, [], 0n);
  setup.deploy(strk, erc20, [], 0n);
  const faucet = chargeableAccount();
  initToken(new CallContext(setup, eth, 0n), 'Ether', 'ETH', 18, faucet.address);
  initToken(new CallContext(setup, strk, 0n), 'Starknet Token', 'STRK', 18, faucet.address);
  setup.deploy(faucet.address, BigInt(OZ_ACCOUNT_CLASS_HASH), [faucet.publicKey], 0n);
  mintTo(new CallContext(setup, strk, 0n), faucet.address, FAUCET_FEE_BALANCE);
  setup.deploy(BigInt(UDC_ADDRESS), udcClass.classHash, [], 0n);
  setup.deploy(BigInt(LEGACY_UDC_ADDRESS), legacyUdcClass.classHash, [], 0n);
  for (const account of accounts) {
    const address = BigInt(account.address);
    setup.deploy(address, BigInt(OZ_ACCOUNT_CLASS_HASH), [BigInt(account.public_key)], 0n);
    mintTo(new CallContext(setup, eth, 0n), address, initialBalance);
    mintTo(new CallContext(setup, strk, 0n), address, initialBalance);
  }
  return overlay.diff;
}
