import { any, optional, type, union } from 'superstruct';

import { requireOwnAccountKey } from '../accounts';
import { decodeCall } from '../starknet/abi';
import { readContractAbis } from '../node/classAbi';
import { planInvoke, requireFunds, sendInvoke, storeRecords } from '../chain/account';
import { TxDetailsStruct } from '../starknet/details';
import { ExecuteScreen } from '../chain/dialogs';
import { getChain } from '../node/chain';
import { deployRecord, invokeRecord } from '../starknet/records';
import { pickAliased, pickAliasedValue, requireAliasedValue } from '../rpc/aliases';
import { userRejected } from '../errors';
import { defineMethod } from '../rpc/dispatcher';
import { AddressStruct, OptionalChainIdStruct } from '../starknet/structs';
import { CallsStruct, CallStruct } from '../starknet/structs';
import { confirm } from '../ui';

/**
 * l2_executeTxn: estimates, shows the sender, network, every call (decoded with `abis` when
 * given) and the maximum fee, then deploys the account if needed, signs and sends the v3
 * invoke, and records it. Returns {transaction_hash}. The production Starknet snap's names are
 * accepted too: `senderAddress`, `txnInvocation` (one call or a list), `invocationsDetails`.
 */
export const executeTxn = defineMethod({
  names: ['executeTxn'],
  params: type({
    address: optional(AddressStruct),
    senderAddress: optional(AddressStruct),
    calls: optional(CallsStruct),
    txnInvocation: optional(union([CallsStruct, CallStruct])),
    details: optional(TxDetailsStruct),
    invocationsDetails: optional(TxDetailsStruct),
    abis: optional(any()),
    chainId: OptionalChainIdStruct,
  }),
  handler: async (params, { origin }) => {
    const { abis, chainId } = params;
    const address = pickAliased({ address: params.address, senderAddress: params.senderAddress });
    const invocation = params.txnInvocation;
    const calls = requireAliasedValue(
      {
        calls: params.calls,
        txnInvocation:
          invocation === undefined || Array.isArray(invocation) ? invocation : [invocation],
      },
      'a list of 1 to 256 calls',
    );
    const details = pickAliasedValue({
      details: params.details,
      invocationsDetails: params.invocationsDetails,
    });
    const field = params.address ? 'address' : 'senderAddress';
    const key = await requireOwnAccountKey(address, chainId, field, origin);
    const chain = getChain(chainId);
    // The contracts' ABIs from the chain, read beside the plan: names the site cannot dictate.
    const [plan, chainAbis] = await Promise.all([
      planInvoke(chain, key, calls, details),
      readContractAbis(
        chain,
        calls.map((call) => call.contractAddress),
      ),
    ]);
    requireFunds(key.address, plan.snapshot.strkBalance, plan.maxCharge, 'this transaction');
    const approved = await confirm(
      origin,
      ExecuteScreen({
        sender: key.address,
        network: chain.network,
        calls: calls.map((call) => {
          const fromChain = decodeCall(call, chainAbis, 'chain');
          return fromChain.decoded ? fromChain : decodeCall(call, abis, 'site');
        }),
        includeDeploy: plan.includeDeploy,
        fields: {
          nonce:
            plan.fixedNonce ??
            `${plan.includeDeploy ? 1n : plan.snapshot.nonce} (the account's next nonce)`,
          resourceBounds: plan.invokeBounds,
          tip: details?.tip ?? 0n,
          paymasterData: details?.paymasterData ?? [],
          accountDeploymentData: details?.accountDeploymentData ?? [],
          nonceDataAvailabilityMode: details?.nonceDataAvailabilityMode,
          feeDataAvailabilityMode: details?.feeDataAvailabilityMode,
          maxCharge: plan.maxCharge,
          estimatedFee: plan.overallFee,
        },
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
