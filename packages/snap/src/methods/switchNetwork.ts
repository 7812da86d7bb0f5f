import { type } from 'superstruct';

import { getNetwork } from '../starknet/networks';
import { defineMethod } from '../rpc/dispatcher';
import { ChainIdStruct } from '../starknet/structs';
import { stateStore } from '../state';
import { confirm, SwitchNetworkScreen } from '../ui';

/**
 * l2_switchNetwork: asks the user; true once switched (or already there), false when declined.
 */
export const switchNetwork = defineMethod({
  names: ['switchNetwork'],
  params: type({ chainId: ChainIdStruct }),
  handler: async ({ chainId }, { origin }) => {
    const current = getNetwork((await stateStore.read()).currentChainId);
    const target = getNetwork(chainId);
    if (current.chainId === target.chainId) {
      return true;
    }
    if (!(await confirm(origin, SwitchNetworkScreen({ from: current, to: target })))) {
      return false;
    }
    await stateStore.update((state) => {
      state.currentChainId = target.chainId;
    });
    return true;
  },
});
