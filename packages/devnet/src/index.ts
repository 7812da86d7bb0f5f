export { startDevnetServer } from './server';
export type { DevnetServer, DevnetServerOptions } from './server';
export { Devnet } from './core/devnet';
export type {
  BlockId,
  DevnetDump,
  DevnetOptions,
  RunResult,
  SimulationFlags,
  Unit,
} from './core/devnet';
export type { PredeployedAccount } from './core/predeployed';
export {
  ARGENT_ACCOUNT_CLASS_HASH,
  CHAIN_IDS,
  DEFAULT_INITIAL_BALANCE,
  ERC20_CLASS_HASH,
  ETH_TOKEN_ADDRESS,
  GAS_PRICES,
  LEGACY_UDC_ADDRESS,
  OZ_ACCOUNT_CLASS_HASH,
  RPC_SPEC_VERSION,
  SEQUENCER_ADDRESS,
  STARKNET_VERSION,
  STRK_TOKEN_ADDRESS,
  UDC_ADDRESS,
} from './core/constants';
export { GAS_MODEL, feeFor, gasUsage } from './core/fees';
export { StarknetRpcError } from './core/errors';
export { L1L2_CLASS_HASH } from './core/native/l1l2';
export type { ExplorerPage, ExplorerTransaction, ExplorerCall } from './explorer/txns';
export type { RpcMetrics } from './rpc/dispatcher';
