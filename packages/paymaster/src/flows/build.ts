/**
 * paymaster_buildTransaction: the outside execution the user's account is to sign (its SNIP-9
 * version's typed data, the relayer as caller, a fresh nonce, time bounds) and the fee.
 *
 * The fee is the node's estimate of what the relayer will run, before any signature exists: the
 * account's deployment through the UDC (from the relayer) and the user's calls with the fee
 * transfer (from the account, validation skipped), plus an allowance for the outside-execution
 * wrapper; the suggested maximum adds the margin. That maximum, in the gas token, is the fee
 * transfer the user signs as the last call, and execution checks it against the relayer's exact
 * simulation: the user never pays more than it, the relayer never less than it spends.
 */
import { erc20Balance } from '../node/contracts';
import { errors } from '../errors';
import { type Call, type Deployment, deployCall, transferCall } from '../protocol/calls';
import { type Felt, toHex } from '../protocol/felt';
import {
  FRI_PER_STRK,
  friToToken,
  type GasToken,
  readNodeFeeEstimate,
  withBoundsMargin,
  withMargin,
} from '../protocol/fees';
import { outsideExecutionTypedData, type OutsideExecution } from '../protocol/outsideExecution';
import type { ExecutionParameters, FeeMode, TimeBounds, UserTransaction } from '../protocol/params';
import { queryInvoke } from '../protocol/transaction';
import { randomFelt } from '../relayer/tracking';
import { checkDeployAlone, checkFeeMode, checkTimeBounds, invokingAccount, tipOf } from './checks';
import type { Caller, FlowContext } from './context';
import { mapNodeError } from './nodeErrors';
import { checkFloor } from './submit';

/**
 * What the relayer's wrapper adds to the user's own transaction: the execute_from_outside call,
 * its signature check and nonce write (the estimate already counts a validation the relayer
 * replaces with its own). Priced at the estimate's L2 gas price.
 */
export const OUTSIDE_EXECUTION_ALLOWANCE = { l2Gas: 300_000n, l1DataGas: 128n };

export interface FeeEstimateJson {
  gas_token_price_in_strk: string;
  estimated_fee_in_strk: string;
  estimated_fee_in_gas_token: string;
  suggested_max_fee_in_strk: string;
  suggested_max_fee_in_gas_token: string;
}

export const deploymentJson = (deployment: Deployment) => ({
  address: toHex(deployment.address),
  class_hash: toHex(deployment.classHash),
  salt: toHex(deployment.salt),
  calldata: deployment.calldata.map(toHex),
  version: 1 as const,
});

export function parametersJson(feeMode: FeeMode, timeBounds: TimeBounds | undefined) {
  const tip =
    feeMode.tip === 'normal'
      ? {}
      : {
          tip:
            typeof feeMode.tip === 'object' ? { custom: Number(feeMode.tip.custom) } : feeMode.tip,
        };
  return {
    version: '0x1' as const,
    fee_mode:
      feeMode.mode === 'sponsored'
        ? { mode: 'sponsored' as const, ...tip }
        : { mode: 'default' as const, gas_token: toHex(feeMode.gasToken), ...tip },
    ...(timeBounds && {
      time_bounds: {
        execute_after: timeBounds.executeAfter.toString(),
        execute_before: timeBounds.executeBefore.toString(),
      },
    }),
  };
}

/** The node's estimate, in FRI, of what the relayer will run for this request. */
async function estimateFri(
  ctx: FlowContext,
  options: {
    deploy?: Deployment;
    user?: Felt;
    userCalls?: Call[];
    userDeployed: boolean;
    tip: bigint;
  },
): Promise<bigint> {
  const relayer = ctx.relayer.address;
  const relayerNonce = ctx.relayer.simulationNonce;
  const userNonce =
    options.user !== undefined && options.userDeployed
      ? await ctx.node.nonce(toHex(options.user))
      : 0n;
  const transactions = [];
  if (options.deploy)
    transactions.push(queryInvoke(relayer, [deployCall(options.deploy)], relayerNonce));
  if (options.user !== undefined && options.userCalls) {
    transactions.push(queryInvoke(options.user, options.userCalls, userNonce));
  }
  let estimates;
  try {
    estimates = (await ctx.node.estimateFee(transactions)).map(readNodeFeeEstimate);
  } catch (error) {
    throw mapNodeError(error, 'the calls would fail');
  }
  let fri = 0n;
  for (const estimate of estimates) fri += estimate.overallFee + options.tip * estimate.l2Gas;
  if (options.userCalls) {
    const last = estimates[estimates.length - 1];
    fri +=
      OUTSIDE_EXECUTION_ALLOWANCE.l2Gas * (last.l2GasPrice + options.tip) +
      OUTSIDE_EXECUTION_ALLOWANCE.l1DataGas * last.l1DataGasPrice;
  }
  return fri;
}

/** The suggested maximum: what the relayer's bounds allow for this estimate, and the margin. */
const suggestedFri = (ctx: FlowContext, estimated: bigint) =>
  withMargin(withBoundsMargin(estimated), ctx.policy.feeMarginPercent);

function feeJson(
  estimatedFri: bigint,
  suggestedFri: bigint,
  token: GasToken | undefined,
): FeeEstimateJson {
  const inToken = (fri: bigint) => (token ? friToToken(fri, token) : fri);
  return {
    gas_token_price_in_strk: toHex(token ? token.priceInFri : FRI_PER_STRK),
    estimated_fee_in_strk: toHex(estimatedFri),
    estimated_fee_in_gas_token: toHex(inToken(estimatedFri)),
    suggested_max_fee_in_strk: toHex(suggestedFri),
    suggested_max_fee_in_gas_token: toHex(inToken(suggestedFri)),
  };
}

export async function buildTransaction(
  ctx: FlowContext,
  transaction: UserTransaction,
  parameters: ExecutionParameters,
  caller: Caller,
) {
  const { feeMode } = parameters;
  const token = checkFeeMode(ctx, feeMode, caller);
  const tip = tipOf(ctx, feeMode);
  await checkFloor(ctx);

  if (transaction.type === 'deploy') {
    await checkDeployAlone(ctx, transaction.deployment, token);
    const estimated = await estimateFri(ctx, {
      deploy: transaction.deployment,
      userDeployed: false,
      tip,
    });
    return {
      type: 'deploy' as const,
      deployment: deploymentJson(transaction.deployment),
      parameters: parametersJson(feeMode, parameters.timeBounds),
      fee: feeJson(estimated, suggestedFri(ctx, estimated), undefined),
    };
  }

  const user = transaction.invoke.userAddress;
  const { version, deploy } = await invokingAccount(ctx, transaction, user);

  const now = await ctx.clock.now();
  let bounds = parameters.timeBounds;
  if (bounds) checkTimeBounds(ctx, bounds, now, 'parameters.time_bounds');
  else {
    bounds = {
      executeAfter: BigInt(Math.max(0, now - 60)),
      executeBefore: BigInt(now + ctx.policy.defaultValiditySeconds),
    };
  }

  const userCalls = transaction.invoke.calls;
  // The fee transfer's amount does not change what the estimate measures; 1 stands in for it.
  const estimateCalls = token
    ? [...userCalls, transferCall(token.address, ctx.relayer.address, 1n)]
    : userCalls;
  const [estimated, balance] = await Promise.all([
    estimateFri(ctx, { deploy, user, userCalls: estimateCalls, userDeployed: !deploy, tip }),
    token ? erc20Balance(ctx.node, token.address, user) : undefined,
  ]);
  // What the account owes for a reverted execution the relayer paid for is part of its next fee.
  const debt = token ? await ctx.state.debt(user) : 0n;
  const suggested = suggestedFri(ctx, estimated) + debt;
  const fee = feeJson(estimated, suggested, token);

  let calls = userCalls;
  let feeTransfer: { token: Felt; amount: bigint } | undefined;
  if (token) {
    const amount = BigInt(fee.suggested_max_fee_in_gas_token);
    if (balance! < amount) {
      throw errors.executionError(
        `the account's balance of the gas token ${toHex(token.address)} (${balance}) is below the fee of up to ${amount}`,
      );
    }
    feeTransfer = { token: token.address, amount };
    calls = [...userCalls, transferCall(token.address, ctx.relayer.address, amount)];
  }

  const execution: OutsideExecution = {
    caller: ctx.relayer.address,
    nonce: randomFelt(),
    executeAfter: bounds.executeAfter,
    executeBefore: bounds.executeBefore,
    calls,
  };
  ctx.builds.add({ user, version, execution, feeMode, fee: feeTransfer, deployment: deploy });
  return {
    type: transaction.type,
    ...(transaction.type === 'deploy_and_invoke' && {
      deployment: deploymentJson(transaction.deployment),
    }),
    typed_data: outsideExecutionTypedData(version, ctx.chainId, execution),
    parameters: parametersJson(feeMode, bounds),
    fee,
  };
}
