/**
 * The Starknet JSON-RPC versions the snap speaks to its node, any patch of each: the snap refuses
 * a node whose `starknet_specVersion` is another, and the dapp client answers them to
 * `wallet_supportedSpecs`. A module of its own, so a dapp bundle that needs only these carries only
 * these (`@l2wallet/starknet-protocol/dist/specVersions`).
 */
export const SUPPORTED_SPEC_VERSIONS = ['0.9', '0.10'] as const;

export type SupportedSpecVersion = (typeof SUPPORTED_SPEC_VERSIONS)[number];
