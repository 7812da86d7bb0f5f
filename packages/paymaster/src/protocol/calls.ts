/**
 * The calls the paymaster writes: the user's account through the Universal Deployer, here; calls,
 * selectors, the fee transfer and the multicall encoding are @l2wallet/starknet-protocol's.
 */
import { type Call, SELECTORS } from '@l2wallet/starknet-protocol';
import { hash } from 'starknet';

import type { Felt } from './felt';

export {
  type Call,
  type CallJson,
  callJson,
  multicallCalldata,
  readTransfer,
  sameCall,
  SELECTORS,
  transferCall,
} from '@l2wallet/starknet-protocol';

/**
 * The Universal Deployer starknet.js 10 uses: deploy_contract(class_hash, salt, not_from_zero,
 * calldata).
 */
export const UDC_ADDRESS = 0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125n;

/** SNIP-6's answer of a valid signature: the short string 'VALID'. */
export const VALID = 0x56414c4944n;

/** What SNIP-29 calls ACCOUNT_DEPLOYMENT_DATA: how to deploy a user's account. */
export interface Deployment {
  address: Felt;
  classHash: Felt;
  salt: Felt;
  calldata: Felt[];
}

/** The address a deploy-account transaction (deployer 0) gives this class, salt and calldata. */
export function counterfactualAddress(deployment: Omit<Deployment, 'address'>): Felt {
  return BigInt(
    hash.calculateContractAddressFromHash(
      deployment.salt,
      deployment.classHash,
      deployment.calldata,
      0,
    ),
  );
}

/**
 * The UDC call that deploys the account where a deploy-account transaction would: with
 * not_from_zero = false the address depends only on class, salt and calldata (deployer 0).
 */
export function deployCall(deployment: Deployment): Call {
  return {
    to: UDC_ADDRESS,
    selector: SELECTORS.deployContract,
    calldata: [
      deployment.classHash,
      deployment.salt,
      0n,
      BigInt(deployment.calldata.length),
      ...deployment.calldata,
    ],
  };
}
