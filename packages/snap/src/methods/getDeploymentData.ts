import { type } from 'superstruct';

import { accountDeploymentData, isDeployed, requireOwnAccountKey } from '../flows/accounts';
import { getChain } from '../node/chain';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';

/**
 * l2_getDeploymentData: what deploys one of the snap's accounts (the wallet API's
 * `wallet_deploymentData`: Argent 0.3.1 class hash, salt, constructor calldata, version 1) and
 * whether it is deployed on that chain already, read from the node. No dialog: nothing secret.
 */
export const getDeploymentData = defineMethod({
  names: ['getDeploymentData'],
  params: type({ address: AddressStruct, chainId: OptionalChainIdStruct }),
  handler: async ({ address, chainId }, { origin }) => {
    const key = await requireOwnAccountKey(address, chainId, 'address', origin);
    const deployed = await isDeployed(getChain(chainId), key.address);
    return { ...accountDeploymentData(key), deployed };
  },
});
