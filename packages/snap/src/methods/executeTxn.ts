import { any, optional, type, union } from 'superstruct';

import { userRejected } from '../errors';
import { requireOwnAccountKey } from '../flows/accounts';
import { RefusedReverting, refusedAgain, refusedPreview } from '../flows/preview';
import { prepareSend, requireFunds, send, sendFields, type PreparedSend } from '../flows/send';
import { getChain } from '../node/chain';
import { readContractAbis } from '../node/classAbi';
import { pickAliased, pickAliasedValue, requireAliasedValue } from '../rpc/aliases';
import { defineMethod } from '../rpc/dispatcher';
import { decodeCall } from '../starknet/abi';
import { TxDetailsStruct } from '../starknet/details';
import { AddressStruct, CallsStruct, CallStruct, OptionalChainIdStruct } from '../starknet/structs';
import { confirm, decodedCall, ExecuteScreen, type PreviewView, type SendFeeView } from '../ui';

/**
 * l2_executeTxn: simulates (the preview of the transaction's effect, and its fee), shows the
 * sender, network, the preview, every call (decoded from the contracts'
 * classes on chain, else with the site's `abis`) and the maximum fee, then deploys the account if
 * needed, signs and sends the v3 invoke, and records it (flows/send.ts). With
 * `details.feeMode: {mode: 'default', gasToken}` the fee is paid in that token through the
 * network's paymaster instead: its relayer submits the calls (and deploys the account first, in
 * the same transaction, when it is not deployed). Returns {transaction_hash} (the relayer's on that
 * route). Calls the paymaster will not build because they revert in the preview's simulation get
 * the dialog with the warning: declined, 4001; approved, the paymaster is asked again, and what
 * it builds then is shown in a second dialog before anything is signed (flows/preview.ts).
 * The production Starknet snap's names are accepted too: `senderAddress`,
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
    const request = { kind: 'invoke' as const, calls };
    const preparing = async (): Promise<PreparedSend | RefusedReverting> =>
      prepareSend(chain, key, request, details, { preview: true }).catch((error: unknown) => {
        if (error instanceof RefusedReverting) {
          return error;
        }
        throw error;
      });
    // The contracts' ABIs from the chain, read beside the plan: names the site cannot dictate.
    const [first, chainAbis] = await Promise.all([
      preparing(),
      readContractAbis(
        chain,
        calls.map((call) => call.contractAddress),
      ),
    ]);
    const screen = (fee: SendFeeView, includeDeploy: boolean, preview?: PreviewView) =>
      ExecuteScreen({
        sender: key.address,
        network: chain.network,
        calls: calls.map((call) => {
          const fromChain = decodeCall(call, chainAbis, 'chain');
          return decodedCall(fromChain.decoded ? fromChain : decodeCall(call, abis, 'site'));
        }),
        includeDeploy,
        fee,
        preview,
      });
    let prepared = first;
    if (prepared instanceof RefusedReverting) {
      // The paymaster will not build calls that revert: the user sees the warning and decides.
      const refused = prepared;
      const shown = screen(
        { refused: { refusal: refused.refusal.message } },
        refused.includeDeploy,
        await refusedPreview(chain, key.address, refused),
      );
      if (!(await confirm(origin, shown))) {
        throw userRejected();
      }
      prepared = await preparing();
      if (prepared instanceof RefusedReverting) {
        throw refusedAgain(prepared);
      }
      // Built now: its fee and relayer are shown in full before anything is signed.
    }
    requireFunds(prepared, 'this transaction');
    const approved = await confirm(
      origin,
      screen(sendFields(prepared), prepared.includeDeploy, prepared.preview),
    );
    if (!approved) {
      throw userRejected();
    }
    const { transactionHash } = await send(prepared);
    return { transaction_hash: transactionHash as string };
  },
});
