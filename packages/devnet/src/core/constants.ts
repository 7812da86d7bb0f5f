import { STARKNET_CHAIN_IDS } from '@l2wallet/starknet-protocol';

/** Canonical token addresses (the same on Mainnet and Sepolia) and the Argent account class. */
export {
  ARGENT_ACCOUNT_CLASS_HASH,
  ETH_TOKEN_ADDRESS,
  STRK_TOKEN_ADDRESS,
} from '@l2wallet/starknet-protocol';

/**
 * Universal Deployer: the current one (`deploy_contract`) and the legacy one (`deployContract`).
 */
export const UDC_ADDRESS = '0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125';
export const LEGACY_UDC_ADDRESS =
  '0x41a78e741e5af2fec34b695679bc6891742439f7afb8484ecd7766661ad02bf';

/**
 * OpenZeppelin account 1.0.0 (Cairo 1): constructor(public_key); the predeployed accounts use it.
 */
export const OZ_ACCOUNT_CLASS_HASH =
  '0x5b4b537eaa2399e3aa99c4e2e0208ebd6c71bc1467938cd52c798c601e43564';
/** The ERC-20 class the ETH and STRK tokens are deployed with (the class starknet-devnet uses). */
export const ERC20_CLASS_HASH = '0x46ded64ae2dead6448e247234bab192a9c483644395b66f2155f2614e5804b0';
/** The Universal Deployer classes (legacy Cairo 0 UDC, and the Cairo 1 UDC). */
export const LEGACY_UDC_CLASS_HASH =
  '0x7b3e05f48f0c69e4a65ce5e076a66271a527aff2c34ce1083ec6e1526997a69';
export const UDC_CLASS_HASH = '0x1b2df6d8861670d4a8ca4670433b2418d78169c2947f46dc614e69f333745c8';

/** The chain ids by their short-string names ('SN_MAIN', 'SN_SEPOLIA'). */
export const CHAIN_IDS: Record<string, string> = { ...STARKNET_CHAIN_IDS };

export const RPC_SPEC_VERSION = '0.10.0';
export const STARKNET_VERSION = '0.14.1';
export const SEQUENCER_ADDRESS =
  '0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8';

/** 1000 STRK / 1000 ETH, in the smallest unit, as starknet-devnet funds its accounts. */
export const DEFAULT_INITIAL_BALANCE = 10n ** 21n;

/** Gas prices of every block: fixed, so fees are deterministic. */
export const GAS_PRICES = {
  l1Gas: { wei: 1_000_000_000n, fri: 100_000_000_000n },
  l1DataGas: { wei: 1_000n, fri: 100_000n },
  l2Gas: { wei: 10_000n, fri: 1_000_000n },
};
