import { any, optional, type, union } from 'superstruct';

import { userRejected } from '../errors';
import { requireOwnAccountKey } from '../flows/accounts';
import { explainRefusal } from '../flows/preview';
import { prepareSend, requireFunds, send, sendFields } from '../flows/send';
import { getChain } from '../node/chain';
import { readContractAbis } from '../node/classAbi';
import { pickAliased, pickAliasedValue, requireAliasedValue } from '../rpc/aliases';
import { defineMethod } from '../rpc/dispatcher';
import { decodeCall } from '../starknet/abi';
import { TxDetailsStruct } from '../starknet/details';
import { AddressStruct, CallsStruct, CallStruct, OptionalChainIdStruct } from '../starknet/structs';
import { confirm, decodedCall, ExecuteScreen } from '../ui';

/**
 * l2_executeTxn: simulates (the preview of the transaction's effect, and its fee), shows the
 * sender, network, the preview, every call (decoded from the contracts'
 * classes on chain, else with the site's `abis`) and the maximum fee, then deploys the account if
 * needed, signs and sends the v3 invoke, and records it (flows/send.ts). With
 * `details.feeMode: {mode: 'default', gasToken}` the fee is paid in that token through the
 * network's paymaster instead: its relayer submits the calls (and deploys the account first, in
 * the same transaction, when it is not deployed). Returns {transaction_hash} (the relayer's on that
 * route). The production Starknet snap's names are accepted too: `senderAddress`,
 * `txnInvocation` (one call or a list), `invocationsDetails`.
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
    const [prepared, chainAbis] = await Promise.all([
      prepareSend(chain, key, { kind: 'invoke', calls }, details, { preview: true }).catch(
        async (error: unknown) => {
          throw await explainRefusal(origin, error);
        },
      ),
      readContractAbis(
        chain,
        calls.map((call) => call.contractAddress),
      ),
    ]);
    requireFunds(prepared, 'this transaction');
    const approved = await confirm(
      origin,
      ExecuteScreen({
        sender: key.address,
        network: chain.network,
        calls: calls.map((call) => {
          const fromChain = decodeCall(call, chainAbis, 'chain');
          return decodedCall(fromChain.decoded ? fromChain : decodeCall(call, abis, 'site'));
        }),
        includeDeploy: prepared.includeDeploy,
        fee: sendFields(prepared),
        preview: prepared.preview,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    const { transactionHash } = await send(prepared);
    return { transaction_hash: transactionHash as string };
  },
});
