/**
 * Steps 5-7 of an execution and its submission, under the rules that keep the relayer out of
 * pocket: one execution per account at a time, a fee that counts only when the relayer's
 * simulation shows it arriving, refunds in the same transaction, reverts billed
 * (docs/architecture/paymaster.md#submission, docs/security.md#paymaster).
 */
import { errors, PaymasterError } from '../errors';
import type { SimulatedTransactionJson } from '../node/client';
import { erc20Balance } from '../node/contracts';
import { type Call, transferCall } from '../protocol/calls';
import { type Felt, toHex } from '../protocol/felt';
import {
  boundsFor,
  friToToken,
  type GasToken,
  maxFeeOf,
  readNodeFeeEstimate,
} from '../protocol/fees';
import { tokenFlow, type TraceFrame } from '../protocol/trace';
import { queryInvoke } from '../protocol/transaction';
import { SubmissionRefused, SubmissionUncertain } from '../relayer/relayer';
import { utcDay } from '../store/state';
import type { FlowContext } from './context';
import { mapNodeError } from './nodeErrors';
import { followReceipt } from './receipts';

export interface Executed {
  tracking_id: string;
  transaction_hash: string;
}

/** A default-mode fee: the amount of `token` the `payer` signed over to the relayer. */
export interface SignedFee {
  token: GasToken;
  signed: bigint;
  payer: Felt;
}

export interface Submission {
  /** The claim key: account and outside-execution nonce (or the deployment). */
  key: string;
  /** The account whose executions are serialised (the user, or the address deployed). */
  account: Felt;
  calls: Call[];
  fee?: SignedFee;
  /** The sponsor key paying, by id, in sponsored mode. */
  sponsor?: string;
  tip: bigint;
  what: string;
  /** Throws 153 when the account refuses the signature (asked only after a revert). */
  signatureCheck?: () => Promise<void>;
  /** The request's tracking id, when it can be derived (an outside execution's). */
  trackingId?: Felt;
}

export function revertOf(simulation: SimulatedTransactionJson): string | undefined {
  const execute = simulation.transaction_trace.execute_invocation;
  return execute && 'revert_reason' in execute ? execute.revert_reason : undefined;
}

/** Refuses before anything is spent when the relayer's STRK is below its floor (163). */
export async function checkFloor(ctx: FlowContext): Promise<void> {
  const floor = ctx.policy.minRelayerBalanceFri;
  if (floor <= 0n) return;
  const balance = await erc20Balance(ctx.node, ctx.strk, ctx.relayer.address);
  if (balance < floor) {
    throw errors
      .unknown(
        `the relayer's STRK balance is below its floor (${floor} FRI): this paymaster relays nothing until it is funded; nothing was submitted`,
      )
      .because('below-floor');
  }
}

/** The fee the trace shows arriving, and the refund placeholder leaving (1 unit). */
function checkFeeArrives(
  ctx: FlowContext,
  simulation: SimulatedTransactionJson,
  fee: SignedFee,
): void {
  const execute = simulation.transaction_trace.execute_invocation as TraceFrame;
  const top = execute.calls ?? [];
  const relayer = ctx.relayer.address;
  const paid = tokenFlow(top.slice(0, -1), fee.token.address, relayer);
  const arrived = paid.received - paid.sent;
  if (arrived < fee.signed) {
    throw errors
      .executionError(
        `the relayer's simulation shows ${arrived} of ${toHex(fee.token.address)} arriving at the relayer, not the ${fee.signed} signed: the account did not run the fee transfer; nothing was submitted`,
      )
      .because('fee-not-received');
  }
  const refund = tokenFlow(top.slice(-1), fee.token.address, relayer);
  if (refund.sent !== 1n || refund.received !== 0n) {
    throw errors.executionError(
      "the relayer's simulation of its refund does not show the token's own transfer; nothing was submitted",
    );
  }
}

export async function submitOnce(ctx: FlowContext, job: Submission): Promise<Executed> {
  const { key, fee, tip, what } = job;
  const held = ctx.claims.take(key);
  if (held) {
    throw errors.executionError(
      held.hash === undefined
        ? 'this outside execution is being submitted by another request'
        : `this outside execution was already submitted (transaction ${toHex(held.hash)}, tracking id ${toHex(held.trackingId!)})`,
    );
  }
  let release: (() => void) | undefined;
  let reserved: { keyId: string; day: number; fri: bigint } | undefined;
  let submittedHash: Felt | undefined;
  try {
    await checkFloor(ctx);
    release = await ctx.locks.acquire(toHex(job.account));
    // 6. The relayer's simulation of exactly what it will send (the refund's amount, not yet
    // known, changes nothing the simulation measures: 1 stands in for it).
    const relayer = ctx.relayer.address;
    const refundCall = (amount: bigint) => transferCall(fee!.token.address, fee!.payer, amount);
    const simulated = fee ? [...job.calls, refundCall(1n)] : job.calls;
    const [simulation] = await ctx.node.simulate(
      [queryInvoke(relayer, simulated, ctx.relayer.simulationNonce)],
      ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'],
    );
    const reverted = revertOf(simulation);
    if (reverted !== undefined) {
      await job.signatureCheck?.();
      throw errors
        .executionError(`the relayer's simulation reverts, nothing was submitted: ${reverted}`)
        .because('simulation-reverts');
    }
    const estimate = readNodeFeeEstimate(simulation.fee_estimation);
    // The most the relayer's transaction can cost it: what it is paid at least.
    const maxFee = maxFeeOf(boundsFor(estimate), tip);
    let calls = job.calls;
    let refund = 0n;
    let kept = 0n;
    const debt = fee ? await ctx.state.debt(job.account) : 0n;
    if (fee) {
      checkFeeArrives(ctx, simulation, fee);
      kept = friToToken(maxFee + debt, fee.token);
      if (kept > fee.signed) {
        throw errors.maxAmountTooLow(
          `the fee signed (${fee.signed}) is below what the relayer's transaction may cost now (${friToToken(maxFee, fee.token)} of ${toHex(fee.token.address)})${debt > 0n ? ` plus what the account owes for a reverted execution (${friToToken(debt, fee.token)})` : ''}; build it again`,
        );
      }
      refund = fee.signed - kept;
      if (refund > 0n) calls = [...job.calls, refundCall(refund)];
    }
    if (job.sponsor !== undefined) {
      const day = utcDay(Date.now());
      const budget = ctx.policy.sponsorDailyBudgetFri;
      if (!(await ctx.state.reserveSponsor(job.sponsor, day, maxFee, budget))) {
        throw errors
          .unknown(
            `this sponsor key's daily budget (${budget} FRI) does not cover this transaction's maximum fee (${maxFee} FRI) today; it resets at 00:00 UTC. Nothing was submitted`,
          )
          .because('sponsor-budget');
      }
      reserved = { keyId: job.sponsor, day, fri: maxFee };
    }
    const submitted = await ctx.relayer.submit(calls, estimate, tip);
    submittedHash = submitted.hash;
    const tracked = await ctx.tracking.create(submitted.hash, job.trackingId);
    ctx.claims.submitted(key, tracked.id, submitted.hash);
    ctx.metrics.executions.add({ outcome: 'submitted' });
    if (fee) ctx.metrics.feesReceived.add({ token: toHex(fee.token.address) }, kept);
    ctx.log(
      `submitted ${what}: transaction ${toHex(submitted.hash)} (nonce ${submitted.nonce}), tracking id ${toHex(tracked.id)}${fee ? `, fee ${kept} of ${toHex(fee.token.address)} (${refund} refunded)` : ''}`,
    );
    followReceipt(ctx, { hash: submitted.hash, account: job.account, debt, reserved }, release);
    release = undefined;
    return { tracking_id: toHex(tracked.id), transaction_hash: toHex(submitted.hash) };
  } catch (error) {
    if (error instanceof SubmissionUncertain) {
      const tracked = await ctx.tracking.create(error.hash, job.trackingId);
      ctx.claims.submitted(key, tracked.id, error.hash);
      ctx.metrics.executions.add({ outcome: 'uncertain' });
      ctx.log(`uncertain ${what}: transaction ${toHex(error.hash)} not confirmed by the node`);
      if (release) {
        followReceipt(ctx, { hash: error.hash, account: job.account, debt: 0n, reserved }, release);
        release = undefined;
      }
      throw errors.unknown(
        `the node did not confirm the relayer's transaction ${toHex(error.hash)}: it may still be included. Follow tracking id ${toHex(tracked.id)} with paymaster_trackingIdToLatestHash before building again; if it was not included it is dropped and nothing was paid`,
      );
    }
    release?.();
    if (reserved) {
      // Nothing was sent: the reservation goes back (if the state is away, it stays spent).
      await ctx.state
        .adjustSponsor(reserved.keyId, reserved.day, -reserved.fri)
        .catch((cause: Error) => ctx.log(`sponsor reservation not given back: ${cause.message}`));
    }
    if (submittedHash === undefined) ctx.claims.release(key);
    if (error instanceof SubmissionRefused) throw refusal(error);
    if (error instanceof PaymasterError) throw error;
    throw mapNodeError(error, 'the relayer could not simulate the transaction');
  }
}

/** The node refused the relayer's transaction: nothing was received, nothing was paid. */
function refusal(error: SubmissionRefused): PaymasterError {
  const cause = error.refusal;
  if (cause.code === 53 || cause.code === 54) {
    return errors.unknown(
      "the relayer cannot pay for this transaction now (its STRK balance is below the transaction's maximum fee); nothing was submitted",
    );
  }
  return errors.executionError(
    `the node refused the relayer's transaction, nothing was submitted: ${cause.nodeMessage}${cause.data ? ` ${typeof cause.data === 'string' ? cause.data : JSON.stringify(cause.data)}` : ''}`,
  );
}
