import { type } from 'superstruct';

import { defineMethod } from '../rpc/dispatcher';
import { getNetwork } from '../starknet/networks';
import { stateStore } from '../state';

/** l2_getCurrentNetwork: the network the user last switched to (Testnet at first). */
export const getCurrentNetwork = defineMethod({
  names: ['getCurrentNetwork'],
  params: type({}),
  handler: async () => {
    const state = await stateStore.read();
    const network = getNetwork(state.currentChainId);
    return { name: network.name, chainId: network.chainId };
  },
});
