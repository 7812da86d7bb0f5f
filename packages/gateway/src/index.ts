/** @l2wallet/gateway: the metered node JSON-RPC gateway (docs/interface/gateway.md). */
export { loadConfig, type GatewayConfig, type ChainConfig, type LedgerConfig } from './config';
export { startGateway, type RunningGateway } from './server';
export { openStores, type Stores } from './stores/open';
export { newKey, sha256, type KeyRecord } from './auth/keys';
export type { KeyRegistry } from './auth/registry';
export { PLANS, type PlanName } from './auth/plans';
export { COSTS, NOTIFICATION_COSTS } from './credits/costs';
export type { Ledger, Usage, DebitOutcome } from './credits/ledger';
export { CODES, errors, RpcError } from './jsonrpc/errors';
