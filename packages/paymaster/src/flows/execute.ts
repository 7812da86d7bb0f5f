/**
 * paymaster_executeTransaction: a signed outside execution is submitted by the relayer only once
 * every check has passed, in a fixed order, cheapest and surest first (the first failure answers,
 * and nothing is submitted); the costly signature check runs only when the relayer's simulation
 * reverts. The checks, in order: docs/architecture/paymaster.md#the-checks-of-an-execution.
 */
import { errors } from '../errors';
import { checkSignature } from '../node/contracts';
import { type Call, deployCall, readTransfer, SELECTORS, sameCall, VALID } from '../protocol/calls';
import { type Felt, toHex, u256Join } from '../protocol/felt';
import type { GasToken } from '../protocol/fees';
import {
  executeFromOutsideCall,
  outsideExecutionHash,
  type OutsideExecution,
} from '../protocol/outsideExecution';
import type {
  FeeMode,
  ExecutableInvoke,
  ExecutableTransaction,
  ExecutionParameters,
} from '../protocol/params';
import { queryInvoke } from '../protocol/transaction';
import { executionTrackingId } from '../relayer/tracking';
import { checkDeployAlone, checkFeeMode, checkTimeBounds, invokingAccount, tipOf } from './checks';
import type { Caller, FlowContext } from './context';
import { type BuiltExecution, executionKey } from './buildsAndClaims';
import { type Executed, revertOf, submitOnce } from './submit';

export type { Executed };

const describeCall = (call: Call) => `${toHex(call.to)}.${toHex(call.selector)}`;

const tipText = (mode: FeeMode) =>
  typeof mode.tip === 'object' ? mode.tip.custom.toString() : mode.tip;

/** Step 4: the calls, bounds and fee mode must be the build's (a fee no lower than built). */
function checkAgainstBuild(
  build: BuiltExecution,
  execution: OutsideExecution,
  parameters: ExecutionParameters,
): void {
  const feeMode = parameters.feeMode;
  if (
    build.feeMode.mode !== feeMode.mode ||
    (build.feeMode.mode === 'default' &&
      feeMode.mode === 'default' &&
      build.feeMode.gasToken !== feeMode.gasToken) ||
    tipText(build.feeMode) !== tipText(feeMode)
  ) {
    throw errors.executionError(
      'parameters.fee_mode is not the fee mode (gas token and tip) this outside execution was built for',
    );
  }
  if (
    execution.executeAfter !== build.execution.executeAfter ||
    execution.executeBefore !== build.execution.executeBefore
  ) {
    throw errors.invalidTimeBounds(
      `the signed time bounds (${execution.executeAfter}, ${execution.executeBefore}) are not the ones built (${build.execution.executeAfter}, ${build.execution.executeBefore})`,
    );
  }
  const built = build.execution.calls;
  const signed = execution.calls;
  // The fee transfer first: a lower fee is its own error (another recipient or token is the
  // default-mode check's).
  const fee = signed.at(-1);
  const builtFee = built.at(-1);
  if (build.fee && fee && builtFee && signed.length === built.length && fee.calldata.length === 3) {
    const sameTransfer =
      fee.to === builtFee.to &&
      fee.selector === builtFee.selector &&
      fee.calldata[0] === builtFee.calldata[0];
    const amount = u256Join(fee.calldata[1], fee.calldata[2]);
    if (sameTransfer && amount < build.fee.amount) {
      throw errors.maxAmountTooLow(
        `the fee signed (${amount}) is lower than the fee built (${build.fee.amount})`,
      );
    }
  }
  const builtUserCalls = build.fee ? built.length - 1 : built.length;
  for (let i = 0; i < Math.min(built.length, signed.length); i++) {
    if (i === builtUserCalls && build.fee) continue; // the fee, checked above and below
    if (!sameCall(built[i], signed[i])) {
      throw errors.executionError(
        `call ${i} (${describeCall(signed[i])}) is not the call built (${describeCall(built[i])})`,
      );
    }
  }
  if (signed.length > built.length) {
    throw errors.executionError(
      `${signed.length - built.length} call(s) appended to the ${built.length} built`,
    );
  }
  if (signed.length < built.length) {
    throw errors.executionError(
      `${built.length - signed.length} of the ${built.length} calls built are missing`,
    );
  }
}

/** Default mode, built here or not: the last call pays the gas token to the relayer. */
function feeTransferAmount(ctx: FlowContext, token: GasToken, execution: OutsideExecution): bigint {
  const last = execution.calls.at(-1);
  const fee = last && readTransfer(last);
  if (!fee || fee.token !== token.address) {
    throw errors.executionError(
      `in default mode the last call must be the fee: a transfer of ${toHex(token.address)} to the relayer ${toHex(ctx.relayer.address)}`,
    );
  }
  if (fee.recipient !== ctx.relayer.address) {
    throw errors.executionError(
      `the fee transfer pays ${toHex(fee.recipient)}, not the relayer ${toHex(ctx.relayer.address)}`,
    );
  }
  return u256Join(fee.low, fee.high);
}

/** Step 7 for an account not deployed yet: deploy it and ask it, in a simulation. */
async function checkSignatureOfUndeployed(
  ctx: FlowContext,
  deployment: NonNullable<BuiltExecution['deployment']>,
  messageHash: Felt,
  signature: Felt[],
): Promise<void> {
  const relayer = ctx.relayer.address;
  const nonce = ctx.relayer.simulationNonce;
  const ask: Call = {
    to: deployment.address,
    selector: SELECTORS.isValidSignature,
    calldata: [messageHash, BigInt(signature.length), ...signature],
  };
  const [simulation] = await ctx.node.simulate(
    [queryInvoke(relayer, [deployCall(deployment), ask], nonce)],
    ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'],
  );
  const reverted = revertOf(simulation);
  if (reverted !== undefined) {
    throw errors.invalidSignature(`the account refused the signature: ${reverted}`);
  }
  const execute = simulation.transaction_trace.execute_invocation as {
    calls?: { result: string[] }[];
  };
  const answer = execute.calls?.[1]?.result?.[0];
  if (answer === undefined || BigInt(answer) !== VALID) {
    throw errors.invalidSignature('the account does not accept this signature for the typed data');
  }
}

async function prepareInvoke(
  ctx: FlowContext,
  tx: Extract<ExecutableTransaction, { invoke: unknown }>,
  parameters: ExecutionParameters,
  token: GasToken | undefined,
) {
  const invoke: ExecutableInvoke = tx.invoke;
  const { outside, userAddress: user } = invoke;
  const { execution } = outside;

  // 2. The typed data: this chain, the relayer as caller, the account's own version.
  if (outside.chainId !== ctx.chainId) {
    throw errors.executionError(
      `the typed data is for chain ${toHex(outside.chainId)}; this paymaster relays on ${toHex(ctx.chainId)}`,
    );
  }
  if (execution.caller !== ctx.relayer.address) {
    throw errors.executionError(
      `the outside execution's caller is ${toHex(execution.caller)}; only this paymaster's relayer ${toHex(ctx.relayer.address)} may submit it`,
    );
  }
  const { version, deploy } = await invokingAccount(ctx, tx, user);
  if (outside.version !== version) {
    throw errors.executionError(
      `the typed data is SNIP-9 version ${outside.version}; the account ${toHex(user)} signs version ${version}`,
    );
  }

  // 3. Time bounds.
  const now = await ctx.clock.now();
  checkTimeBounds(ctx, execution, now, 'the signed time bounds');
  if (
    parameters.timeBounds &&
    (parameters.timeBounds.executeAfter !== execution.executeAfter ||
      parameters.timeBounds.executeBefore !== execution.executeBefore)
  ) {
    throw errors.invalidTimeBounds(
      "parameters.time_bounds are not the signed typed data's time bounds",
    );
  }

  // 4. The build, and the fee transfer.
  const build = ctx.builds.get(user, execution.nonce);
  if (build) checkAgainstBuild(build, execution, parameters);
  const signedFee = token ? feeTransferAmount(ctx, token, execution) : undefined;

  return { user, execution, version, deploy, signedFee, signature: invoke.signature };
}

export async function executeTransaction(
  ctx: FlowContext,
  tx: ExecutableTransaction,
  parameters: ExecutionParameters,
  caller: Caller,
): Promise<Executed> {
  const { feeMode } = parameters;
  const token = checkFeeMode(ctx, feeMode, caller);
  const tip = tipOf(ctx, feeMode);

  if (tx.type === 'deploy') {
    await checkDeployAlone(ctx, tx.deployment, token);
    const key = `deploy:${toHex(tx.deployment.address)}`;
    return submitOnce(ctx, {
      key,
      account: tx.deployment.address,
      calls: [deployCall(tx.deployment)],
      sponsor: caller.sponsorId,
      tip,
      what: `deploy ${toHex(tx.deployment.address)}`,
    });
  }

  const prepared = await prepareInvoke(ctx, tx, parameters, token);
  const { user, execution, version, deploy, signature, signedFee } = prepared;
  const key = executionKey(user, execution.nonce);
  const calls: Call[] = [
    ...(deploy ? [deployCall(deploy)] : []),
    executeFromOutsideCall(version, user, execution, signature),
  ];
  const signatureCheck = async () => {
    // 7. Was it the signature?
    const messageHash = outsideExecutionHash(version, ctx.chainId, execution, user);
    if (deploy) return checkSignatureOfUndeployed(ctx, deploy, messageHash, signature);
    const check = await checkSignature(ctx.node, user, messageHash, signature);
    if (!check.valid) throw errors.invalidSignature(check.why);
  };
  const fee =
    token && signedFee !== undefined ? { token, signed: signedFee, payer: user } : undefined;
  return submitOnce(ctx, {
    key,
    account: user,
    calls,
    fee,
    sponsor: token ? undefined : caller.sponsorId,
    tip,
    what: `${tx.type} ${toHex(user)}`,
    signatureCheck,
    trackingId: executionTrackingId(user, execution.nonce),
  });
}
