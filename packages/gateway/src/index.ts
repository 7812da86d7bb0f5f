/** @l2wallet/gateway: the metered node JSON-RPC gateway (SPEC Area C). */
export { loadConfig, openStore, type GatewayConfig, type ChainConfig } from './config';
export { startGateway, type RunningGateway } from './server';
export { newKey, sha256, type KeyRecord } from './auth/keys';
export { PLANS, type PlanName } from './auth/plans';
export { COSTS, NOTIFICATION_COSTS } from './credits/costs';
export { CODES, errors, RpcError } from './jsonrpc/errors';
export type { Store, Usage, DebitOutcome } from './credits/store';
