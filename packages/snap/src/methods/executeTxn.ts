import { any, optional, type } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { decodeCall } from '../chain/abi';
import { planInvoke, requireFunds, sendInvoke } from '../chain/account';
import { ChainTxDetailsStruct } from '../chain/details';
import { ExecuteScreen } from '../chain/dialogs';
import { getChain } from '../chain/node';
import { deployRecord, invokeRecord, storeRecords } from '../chain/records';
import { userRejected } from '../rpc/errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../rpc/structs';
import { CallsStruct } from '../transactions/calls';
import { confirm } from '../ui';

/**
 * l2_executeTxn: estimates, shows the sender, network, every call (decoded with `abis` when
 * given) and the maximum fee, then deploys the account if needed, signs and sends the v3
 * invoke, and records it. Returns {transaction_hash}.
 */
export const executeTxn = defineMethod({
  names: ['executeTxn'],
  params: type({
    address: AddressStruct,
    calls: CallsStruct,
    details: optional(ChainTxDetailsStruct),
    abis: optional(any()),
    chainId: OptionalChainIdStruct,
  }),
  handler: async ({ address, calls, details, abis, chainId }) => {
    const key = await requireOwnAccountKey(address, chainId, 'address');
    const chain = getChain(chainId);
    const plan = await planInvoke(chain, key, calls, details);
    requireFunds(key.address, plan.snapshot.strkBalance, plan.maxCharge, 'this transaction');
    const approved = await confirm(
      ExecuteScreen({
        sender: key.address,
        network: chain.network,
        calls: calls.map((call) => decodeCall(call, abis)),
        maxFee: plan.maxCharge,
        overallFee: plan.overallFee,
        includeDeploy: plan.includeDeploy,
        nonce: details?.nonce,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    const sent = await sendInvoke(chain, key, calls, details, plan, async (deployTxnHash) =>
      storeRecords([deployRecord(deployTxnHash, key.address, key.constructorCalldata, chainId)], {
        chainId,
        address: key.address,
        deployTxnHash,
      }),
    );
    await storeRecords([invokeRecord(sent.transactionHash, key.address, calls, chainId)]);
    return { transaction_hash: sent.transactionHash };
  },
});
