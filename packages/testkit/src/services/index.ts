/**
 * Real services on 127.0.0.1, each an owned process group (or a server in this process): the
 * devnet, anvil, Redis and Redis Cluster, the ERC-4337 stack (contracts, Alto, the ERC-7677
 * paymaster service), and the gateway and the SNIP-29 paymaster as their users run them.
 */
export * from './anvil';
export * from './redis';
export * from './redisCluster';
export * from './accountAbstraction';
export * from './devnet';
export * from './gateway';
export * from './paymaster';
