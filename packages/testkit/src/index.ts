/**
 * @l2wallet/testkit: the one home of test and dev plumbing (tests, benches, `npm start`).
 * See README.md.
 */
export * from './constants';
export * from './prerequisites';
export * from './processes';
export * from './jsonRpc';
export * from './anvil';
export * from './redis';
export * from './redisCluster';
export * from './accountAbstraction';
export * from './countingProxy';
export * from './staticServer';
export * from './stubServers';
export * from './scriptedUpstream';
export * from './snapBuild';
export * from './snapVariant';
export * from './snapWallet';
export * from './siteBuild';
export * from './flask';
export * from './browser';
export * from './devnet';
export * from './starknet';
export * from './gateway';
export * from './paymaster';
export * from './profile';
