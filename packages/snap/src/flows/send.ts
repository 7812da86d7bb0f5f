/**
 * The one send path of the snap's accounts: an invoke (l2_executeTxn, with the account's
 * deployment first when it is not deployed yet), a declaration (l2_declareContract) and the
 * account's deployment alone (l2_createAccount with deploy: true).
 *
 * prepareSend reads the account (one batch: deployed? nonce, fee-token balance) and plans the
 * fee; the method shows the dialog; send signs, submits and stores the records. Two routes,
 * chosen by `details.feeMode`, each in its own module:
 * - `v3` (no fee mode, sendV3.ts): v3 transactions the snap submits, fees in STRK.
 * - `paymaster` (`{mode: 'default', gasToken}`, sendRelayed.ts): an outside execution the
 *   network's SNIP-29 paymaster builds and its relayer submits, the fee paid in the gas token.
 * The types both routes share are in sendTypes.ts.
 */
import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';
import { InvalidInputError } from '@metamask/snaps-sdk';

import type { AccountKey } from '../keys';
import { readAccountSnapshot, type AccountSnapshot } from '../node/accounts';
import type { BatchResult, RpcCall } from '../node/client';
import { noteReadNonce } from '../node/nonces';
import type { SimulationAnswer } from '../node/simulate';
import type { ChainContext } from '../node/chain';
import type { TxDetails } from '../starknet/details';
import { declareRecord, invokeRecord } from '../starknet/records';
import { formatStrk, formatUnits } from '../starknet/units';
import { stateStore, upsertTransaction, type TransactionRecord } from '../state';
import type { PreviewView, SendFeeView } from '../ui';
import { keepExpectedNonce } from './accounts';
import { buildPreview } from './preview';
import {
  batchedRelayedSimulation,
  prepareRelayed,
  relayedFee,
  relayedTip,
  requireRelayable,
  sendRelayed,
  type PreparedRelayed,
} from './sendRelayed';
import type { SendOutcome, SendRequest } from './sendTypes';
import { batchedSimulation, prepareV3, sendV3, transactionFields, type PreparedV3 } from './sendV3';

export type PreparedSend = (PreparedV3 | PreparedRelayed) & {
  /** With `options.preview`: what the dialog shows of the transaction's effect. */
  preview?: PreviewView | undefined;
};

export type SendOptions = {
  /** Reads the snapshot goes out with (one batch); their answers come back as they are. */
  also?: readonly RpcCall[];
  /** Checks the snapshot (and the answers of `also`) before anything is estimated. */
  check?: (snapshot: AccountSnapshot, also: BatchResult[]) => void;
  /** The snapshot, when the caller read it already. */
  snapshot?: AccountSnapshot;
  /** Estimate even when the caller gave every bound (l2_estimateFee). */
  alwaysEstimate?: boolean;
  /** Simulate the transactions for the dialog's preview (in place of the estimate). */
  preview?: boolean;
  /** The name of the details param, for errors. */
  field?: string;
};

/** Reads the account and plans the fee of `request`: everything the dialog shows. */
export async function prepareSend(
  chain: ChainContext,
  key: AccountKey,
  request: SendRequest,
  details: TxDetails | undefined,
  options: SendOptions = {},
): Promise<PreparedSend> {
  const field = options.field ?? 'details';
  const feeMode = details?.feeMode ? requireRelayable(request, details, field) : undefined;
  const preview = options.preview === true;
  let { snapshot } = options;
  let simulated: SimulationAnswer | undefined;
  if (!snapshot) {
    const riding = preview
      ? feeMode
        ? await batchedRelayedSimulation(key, chain, request, feeMode)
        : await batchedSimulation(key, chain, request, details)
      : undefined;
    let also: BatchResult[];
    [snapshot, also] = await readAccountSnapshot(
      chain,
      key.address,
      feeMode?.gasToken ?? STRK_TOKEN_ADDRESS,
      riding ? [...(options.also ?? []), riding.call] : options.also,
    );
    if (riding) {
      // Read only when the batch confirms what it was simulated on; else dropped unread.
      simulated = riding.use(also.pop() as BatchResult, snapshot);
    }
    if (snapshot.deployed) {
      noteReadNonce(chain.network.chainId, key.address, snapshot.nonce);
    }
    options.check?.(snapshot, also);
  }
  const common = {
    chain,
    key,
    request,
    details,
    snapshot,
    includeDeploy: request.kind === 'deploy' || !snapshot.deployed,
  };
  const prepared: PreparedSend = feeMode
    ? await prepareRelayed(common, feeMode, preview, simulated)
    : await prepareV3(common, options.alwaysEstimate, field, preview, simulated);
  if (preview) {
    prepared.preview = await buildPreview(
      chain,
      key.address,
      prepared.route === 'v3' ? prepared.plan.simulation : prepared.simulation,
      ...feeAndTip(prepared),
    );
  }
  return prepared;
}

/** The preview's fee ("up to 0.003 STRK") and tip, on either route. */
function feeAndTip(prepared: PreparedV3 | PreparedRelayed): [string, string | undefined] {
  if (prepared.route === 'v3') {
    const tip = prepared.details?.tip;
    return [
      `up to ${formatStrk(prepared.plan.maxCharge)}`,
      tip ? `${tip} FRI per L2 gas unit (within the fee)` : undefined,
    ];
  }
  const { fee, gasToken, chain } = prepared;
  return [
    `up to ${formatUnits(fee.amount, gasToken.decimals, gasToken.symbol)} (through ${chain.paymaster.host})`,
    relayedTip(prepared),
  ];
}

/** Fails before any dialog when the account cannot pay the most the transactions may cost. */
export function requireFunds(prepared: PreparedSend, what: string): void {
  const { snapshot, key } = prepared;
  const balance = snapshot.feeBalance;
  const [needed, symbol, decimals, unit] =
    prepared.route === 'v3'
      ? [prepared.plan.maxCharge, 'STRK', 18, 'FRI']
      : [prepared.fee.amount, prepared.gasToken.symbol, prepared.gasToken.decimals, 'units'];
  if (balance >= needed) {
    return;
  }
  const missing = needed - balance;
  const amount = (value: bigint): string => formatUnits(value, decimals, symbol);
  throw new InvalidInputError(
    `Not enough ${symbol} to pay for ${what}: fund the account ${key.address} with at least ${amount(missing)} (${missing} ${unit}). It holds ${amount(balance)} and the maximum fee is ${amount(needed)} (${needed} ${unit}).`,
    {
      address: key.address,
      balance: balance.toString(10),
      maxFee: needed.toString(10),
      missing: missing.toString(10),
      unit: prepared.route === 'v3' ? 'FRI' : symbol,
    },
  );
}

/** The fee part of a sending dialog, on either route. */
export function sendFields(prepared: PreparedSend): SendFeeView {
  return prepared.route === 'paymaster'
    ? { relayed: relayedFee(prepared) }
    : { fields: transactionFields(prepared) };
}

/** The record of the request's own transaction (a deployment alone: saveDeployment's). */
function recordOf(prepared: PreparedSend, transactionHash: string): TransactionRecord | undefined {
  const { request, key, chain } = prepared;
  switch (request.kind) {
    case 'invoke':
      return invokeRecord(transactionHash, key.address, request.calls, chain.network.chainId);
    case 'declare':
      return declareRecord(
        transactionHash,
        key.address,
        request.declare.classHash,
        chain.network.chainId,
      );
    default:
      return undefined;
  }
}

/**
 * Signs and sends what prepareSend planned, after the user approved it, and stores the records
 * (the hash is the relayer's on the paymaster route).
 */
export async function send(prepared: PreparedSend): Promise<SendOutcome> {
  const outcome = prepared.route === 'v3' ? await sendV3(prepared) : await sendRelayed(prepared);
  const record = outcome.transactionHash ? recordOf(prepared, outcome.transactionHash) : undefined;
  if (record) {
    const { chain, key } = prepared;
    await stateStore.update((state) => {
      upsertTransaction(state, record);
      keepExpectedNonce(state, chain.network.chainId, key.address);
    });
  }
  return outcome;
}
