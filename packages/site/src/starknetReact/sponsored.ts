/**
 * What the starknet-react page sponsors through a SNIP-29 paymaster (docs/interface/paymaster.md):
 * the paymaster each chain uses (Sepolia: the page's own, with its sponsor key; Mainnet: AVNU's
 * public one, as starknet-react's default), the call it sends, and the wallet's deployment data as
 * starknet.js' paymaster takes it.
 */
import type { Chain } from '@starknet-react/chains';
import { TESTNET_CHAIN_ID } from '@l2wallet/starknet-protocol';
import type { PaymasterDetails, RpcProviderOptions } from 'starknet';
import { strkCall } from './transfer';

export const SPONSORED_FEE_MODE = { mode: 'sponsored' } as const;

/** The paymaster's JSON-RPC options for `chain` (what paymasterRpcProvider's `rpc` answers). */
export function paymasterRpcFor(
  chain: Chain,
  local: { url: string; apiKey: string },
): RpcProviderOptions {
  if (chain.id === BigInt(TESTNET_CHAIN_ID)) {
    return {
      nodeUrl: local.url,
      headers: local.apiKey ? { 'x-paymaster-api-key': local.apiKey } : {},
    };
  }
  return { nodeUrl: chain.paymasterRpcUrls.avnu.http[0] };
}

/** The STRK contract's `approve(spender, amount)`: a call that needs no balance at all. */
export const strkApproveCall = (spender: string, amountFri: bigint) =>
  strkCall('approve', spender, amountFri);

export type SponsoredDeployment = NonNullable<PaymasterDetails['deploymentData']>;

/**
 * `wallet_deploymentData` as starknet.js' paymaster takes it: types-js declares `version: 0 | 1`
 * (Cairo 0 or 1), SNIP-29 only Cairo 1 accounts (`version: 1`); anything else cannot be deployed
 * by a paymaster.
 */
export function sponsoredDeployment(
  data: Omit<SponsoredDeployment, 'version'> & { version: number },
): SponsoredDeployment {
  if (data.version !== 1)
    throw new Error(`A paymaster deploys Cairo 1 accounts only (version ${data.version})`);
  return { ...data, version: 1 };
}
