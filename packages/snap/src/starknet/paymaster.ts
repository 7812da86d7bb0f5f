/**
 * SNIP-29 from the wallet's side: the requests the snap sends a paymaster for an account's calls
 * with the fee paid in a gas token (fee mode `default`), and the check of the SNIP-9 outside
 * execution the paymaster builds, before the snap signs it. The paymaster is not trusted: what the
 * account signs must be the calls the user approved, then one transfer of the gas token that pays
 * at most the fee the paymaster quoted, submitted by one relayer, valid for minutes. Anything else
 * is refused, never signed.
 */
import { ANY_CALLER, isU128, readTransfer, u256Join } from '@l2wallet/starknet-protocol';

import { formatAddress, sameAddress, toHex } from './felt';
import { selectorOf } from './selectors';
import type { TxCall } from './transaction';
import type { OutsideExecutionView } from './typedData/outsideExecution';

/** `details.feeMode`: the fee paid in `gasToken` through the network's paymaster. */
export type FeeMode = { mode: 'default'; gasToken: string; tip?: PaymasterTip | undefined };

/** SNIP-29's tip: a custom amount (u64) or a named speed the paymaster prices. */
export type PaymasterTip = bigint | 'slow' | 'normal' | 'fast';

/** SNIP-29's ACCOUNT_DEPLOYMENT_DATA of one of the snap's accounts. */
export type PaymasterDeployment = {
  address: string;
  class_hash: string;
  salt: string;
  calldata: string[];
  version: 1;
};

/** The SNIP-29 transaction and parameters of paymaster_buildTransaction. */
export function buildRequest(
  account: string,
  calls: readonly TxCall[],
  feeMode: FeeMode,
  deployment?: PaymasterDeployment,
): { transaction: Record<string, unknown>; parameters: Record<string, unknown> } {
  const invoke = {
    user_address: account,
    calls: calls.map((call) => ({
      to: call.contractAddress,
      selector: selectorOf(call.entrypoint),
      calldata: call.calldata.map(toHex),
    })),
  };
  return {
    transaction: deployment
      ? { type: 'deploy_and_invoke', invoke, deployment }
      : { type: 'invoke', invoke },
    parameters: executionParameters(feeMode),
  };
}

/**
 * USER_PARAMETERS of both requests: version 0x1, the default fee mode in `gasToken`, and the
 * caller's tip as SNIP-29 spells it (`{custom}` or a speed); no tip unless the caller gave one.
 */
export function executionParameters(feeMode: FeeMode): Record<string, unknown> {
  const { tip } = feeMode;
  const spelled = typeof tip === 'bigint' ? { custom: toHex(tip) } : tip;
  return {
    version: '0x1',
    fee_mode: {
      mode: 'default',
      gas_token: feeMode.gasToken,
      ...(spelled === undefined ? {} : { tip: spelled }),
    },
  };
}

/** The tip as a dialog shows it. */
export function tipText(tip: PaymasterTip): string {
  return typeof tip === 'bigint'
    ? `${tip} (custom, paid by the relayer from the fee)`
    : `"${tip}" (the paymaster prices it within the fee)`;
}

/** How long an outside execution the snap signs may stay valid: minutes, not hours. */
export const MAX_VALIDITY_SECONDS = 15 * 60;
/** How far the paymaster's clock (the chain's) may be ahead of the snap's. */
export const CLOCK_SKEW_SECONDS = 60;

/** What the account signs besides the approved calls, as the dialog shows it. */
export type RelayedFee = {
  /** The gas token transfer's amount, in the token's smallest unit. */
  amount: bigint;
  /** Who the fee goes to: the relayer, or the paymaster's forwarder (AVNU). */
  recipient: string;
  /** Who may submit the execution. */
  caller: string;
  executeBefore: bigint;
};

/** The paymaster built something else than what the user approves. */
export class NotAsApproved extends Error {}

const sameFelts = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value, index) => BigInt(value) === BigInt(b[index]));

/**
 * Checks the outside execution a paymaster built for `calls` (its view, read from the typed data
 * as it is hashed: starknet/typedData/outsideExecution.ts) and returns the fee the account would
 * pay. Throws NotAsApproved, naming what differs, unless:
 * - its calls are exactly `calls`, in order, then one last call: `transfer(recipient, amount)` on
 *   the gas token, with `amount` at most `quotedMaxFee` (the paymaster's own quote);
 * - one caller may submit it (not ANY_CALLER);
 * - it is valid now (the chain's clock may be up to CLOCK_SKEW_SECONDS ahead) and for at most
 *   MAX_VALIDITY_SECONDS.
 */
export function checkRelayedExecution(
  view: OutsideExecutionView,
  calls: readonly TxCall[],
  gasToken: string,
  quotedMaxFee: bigint,
  nowSeconds: number,
): RelayedFee {
  if (view.calls.length !== calls.length + 1) {
    throw new NotAsApproved(
      `it has ${view.calls.length} calls where the ${calls.length} approved and one fee transfer were expected`,
    );
  }
  calls.forEach((call, index) => {
    const built = view.calls[index];
    if (
      !sameAddress(built.to, call.contractAddress) ||
      BigInt(built.selector) !== BigInt(selectorOf(call.entrypoint)) ||
      !sameFelts(built.calldata, call.calldata)
    ) {
      throw new NotAsApproved(`its call ${index + 1} is not the call ${call.entrypoint} approved`);
    }
  });
  const fee = view.calls[calls.length];
  const transfer = readTransfer({
    to: BigInt(fee.to),
    selector: BigInt(fee.selector),
    calldata: fee.calldata.map((value) => BigInt(value)),
  });
  if (!sameAddress(fee.to, gasToken) || transfer === undefined) {
    throw new NotAsApproved('its last call is not a transfer of the gas token');
  }
  const { recipient, low, high } = transfer;
  if (!isU128(low) || !isU128(high)) {
    throw new NotAsApproved('its fee transfer amount is not a u256');
  }
  const amount = u256Join(low, high);
  if (amount > quotedMaxFee) {
    throw new NotAsApproved(
      `its fee transfer of ${amount} is above the fee it quoted, at most ${quotedMaxFee}`,
    );
  }
  if (view.caller === undefined || BigInt(view.caller) === ANY_CALLER) {
    throw new NotAsApproved('anyone could submit it (ANY_CALLER)');
  }
  const now = BigInt(nowSeconds);
  if (view.executeBefore <= now || view.executeAfter > now + BigInt(CLOCK_SKEW_SECONDS)) {
    throw new NotAsApproved(
      `it is not valid now (from ${view.executeAfter} to ${view.executeBefore}, now ${now})`,
    );
  }
  if (view.executeBefore - now > BigInt(MAX_VALIDITY_SECONDS)) {
    throw new NotAsApproved(
      `it would stay valid for ${view.executeBefore - now} s, more than ${MAX_VALIDITY_SECONDS} s`,
    );
  }
  return {
    amount,
    recipient: formatAddress(recipient),
    caller: view.caller,
    executeBefore: view.executeBefore,
  };
}
