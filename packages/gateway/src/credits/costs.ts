/**
 * THE cost table: credits each call takes from the key's daily balance. The six methods of
 * docs/interface/gateway.md#methods carry the costs (docs/interface/gateway.md#credits); the rest
 * are what viem and ethers call around them, at Infura's prices. A method missing here does not
 * exist for the gateway (-32601, not charged).
 */
export const COSTS = {
  // docs/interface/gateway.md#credits
  eth_getTransactionByBlockNumberAndIndex: 150,
  eth_getTransactionByBlockHashAndIndex: 150,
  eth_getProof: 150,
  eth_getBlockByHash: 80,
  eth_call: 80,
  eth_getTransactionReceipt: 80,
  // What clients call before and around them
  eth_chainId: 5,
  net_version: 5,
  eth_blockNumber: 80,
  eth_getBalance: 80,
  eth_getCode: 80,
  eth_getTransactionCount: 80,
  eth_getStorageAt: 80,
  eth_getBlockByNumber: 80,
  eth_getTransactionByHash: 80,
  eth_gasPrice: 80,
  eth_feeHistory: 80,
  eth_sendRawTransaction: 80,
  eth_getLogs: 255,
  eth_estimateGas: 300,
  // WebSocket only
  eth_subscribe: 5,
  eth_unsubscribe: 5,
} as const;

export type MethodName = keyof typeof COSTS;

/**
 * Starknet chains (`"protocol": "starknet"`): Infura's published Starknet credit costs. Methods
 * Infura does not price (it does not serve them) take Infura's fallback rule, 80 credits.
 */
export const STARKNET_COSTS = {
  // Infura's Starknet table
  starknet_addDeclareTransaction: 700,
  starknet_addDeployAccountTransaction: 700,
  starknet_addInvokeTransaction: 700,
  starknet_blockHashAndNumber: 80,
  starknet_blockNumber: 80,
  starknet_call: 80,
  starknet_chainId: 5,
  starknet_estimateFee: 240,
  starknet_getBlockTransactionCount: 80,
  starknet_getBlockWithTxHashes: 80,
  starknet_getBlockWithTxs: 80,
  starknet_getClass: 80,
  starknet_getClassAt: 80,
  starknet_getClassHashAt: 80,
  starknet_getEvents: 200,
  starknet_getNonce: 80,
  starknet_getStateUpdate: 80,
  starknet_getStorageAt: 80,
  starknet_getTransactionByBlockIdAndIndex: 80,
  starknet_getTransactionByHash: 80,
  starknet_getTransactionReceipt: 80,
  starknet_simulateTransactions: 160,
  starknet_specVersion: 5,
  starknet_syncing: 5,
  // Not in Infura's table: its default of 80
  starknet_getBlockWithReceipts: 80,
  starknet_getTransactionStatus: 80,
  starknet_getMessagesStatus: 80,
  starknet_estimateMessageFee: 80,
  starknet_getStorageProof: 80,
  starknet_getCompiledCasm: 80,
  starknet_traceTransaction: 80,
  starknet_traceBlockTransactions: 80,
  // WebSocket only (the spec's WebSocket API), priced as eth_subscribe / eth_unsubscribe
  starknet_subscribeNewHeads: 5,
  starknet_subscribeEvents: 5,
  starknet_subscribeTransactionStatus: 5,
  starknet_subscribeNewTransactionReceipts: 5,
  starknet_subscribeNewTransactions: 5,
  starknet_unsubscribe: 5,
} as const;

export type StarknetMethodName = keyof typeof STARKNET_COSTS;

/**
 * Each notification a subscription delivers is charged too: EVM by subscription kind, Starknet
 * by notification method. A reorg notice is free: it is the chain's correction, not data asked.
 */
export const NOTIFICATION_COSTS = {
  newHeads: 50,
  logs: 50,
  starknet_subscriptionNewHeads: 50,
  starknet_subscriptionEvents: 50,
  starknet_subscriptionTransactionStatus: 50,
  starknet_subscriptionNewTransactionReceipts: 50,
  starknet_subscriptionNewTransaction: 50,
  starknet_subscriptionReorg: 0,
} as const;

export type SubscriptionKind = keyof typeof NOTIFICATION_COSTS;
